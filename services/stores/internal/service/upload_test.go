package service_test

import (
	"bytes"
	"context"
	"image"
	"image/jpeg"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	storesv1 "uplift.dev/proto/gen/uplift/stores/v1"

	"uplift.dev/shopifysim/sim"
)

// upload sends csv to UploadOrders in pieces of size bytes, as the gateway does.
func upload(ctx context.Context, c storesv1.StoresServiceClient, cat string, csv []byte, size int) (*storesv1.ImportOrdersResponse, error) {
	st, err := c.UploadOrders(ctx)
	if err != nil {
		return nil, err
	}
	if err := st.Send(&storesv1.UploadOrdersRequest{CategoryId: cat, Format: "shopify-orders-csv"}); err != nil {
		return nil, err
	}
	for len(csv) > 0 {
		n := min(size, len(csv))
		if err := st.Send(&storesv1.UploadOrdersRequest{Csv: csv[:n]}); err != nil {
			break // the service ended the upload: its status comes below
		}
		csv = csv[n:]
	}
	res, err := st.CloseAndRecv()
	return res.GetResult(), err
}

// TestUploadOrdersReadsTheExportInPieces: the real export sent in small
// pieces (cut inside rows and characters) imports as the whole file does.
func TestUploadOrdersReadsTheExportInPieces(t *testing.T) {
	t.Parallel()
	h := newHarness(t, sim.Options{AutoApprove: true})
	ctx, cat := h.owner()
	res, err := upload(ctx, h.client, cat, []byte(corpusCSV(t)), 1001)
	if err != nil || res.GetOrders() != 51 || res.GetCurrency() != "INR" || res.GetFirstDay() != "2025-12-06" {
		t.Fatalf("upload = %v, %v", res, err)
	}
	m, err := h.client.GetMetrics(ctx, &storesv1.GetMetricsRequest{CategoryId: cat, From: "2025-12-06", To: "2025-12-06"})
	if err != nil || m.GetTotals().GetOrders() != 51 || m.GetTotals().GetGrossSales() != "585942.00" {
		t.Fatalf("metrics after the upload = %v, %v", m.GetTotals(), err)
	}
	if _, err := upload(context.Background(), h.client, cat, []byte(corpusCSV(t)), 1001); status.Code(err) != codes.Unauthenticated {
		t.Fatalf("an upload without a token: %v, want Unauthenticated", err)
	}
}

// TestAPhotoIsNotACSVFile: a JPEG chosen as the order export, as sent and
// as a browser reads it as text, is refused as not a CSV file, and an over-long title by row and column.
func TestAPhotoIsNotACSVFile(t *testing.T) {
	t.Parallel()
	h := newHarness(t, sim.Options{AutoApprove: true})
	ctx, cat := h.owner()
	var photo bytes.Buffer
	if err := jpeg.Encode(&photo, image.NewRGBA(image.Rect(0, 0, 64, 64)), nil); err != nil {
		t.Fatal(err)
	}
	const notCSV = "This is not a CSV file. In Shopify Admin, go to Orders → Export, choose CSV and import that file."
	for name, file := range map[string][]byte{
		"jpeg": photo.Bytes(), "jpeg read as text": []byte(strings.ToValidUTF8(photo.String(), "\ufffd")),
	} {
		_, err := upload(ctx, h.client, cat, file, 4096)
		if status.Code(err) != codes.InvalidArgument || status.Convert(err).Message() != notCSV {
			t.Errorf("%s: %v, want InvalidArgument %q", name, err, notCSV)
		}
	}
	csv := "Name,Created at,Lineitem quantity,Lineitem name,Lineitem price\n" +
		"#1,2025-12-06 10:37:33 -0500,1," + strings.Repeat("Teas", 1<<18) + ",1.00\n"
	_, err := upload(ctx, h.client, cat, []byte(csv), 64<<10)
	if want := `Row 2, column "Lineitem name": the text is too long (1048576 bytes, at most 2048).`; status.Code(err) != codes.InvalidArgument ||
		status.Convert(err).Message() != want {
		t.Errorf("a 1 MB title: %v, want InvalidArgument %q", err, want)
	}
}
