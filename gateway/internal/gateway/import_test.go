package gateway

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"

	storesv1 "uplift.dev/proto/gen/uplift/stores/v1"

	"uplift.dev/platform/benchmem"
)

// uploaded is what the fake stores service received, by category id (each
// test uses its own).
var uploaded sync.Map // string → *received

type received struct {
	format, auth  string
	csv           []byte
	pieces, piece int // messages with CSV, the largest piece
}

// UploadOrders answers as the stores service would: category "running"
// has an import running, "full" finds every slot taken, "bad" has a bad
// row (after reading some of the file); others are read whole, and kept
// but for "discard".
func (f *fakeStores) UploadOrders(stream grpc.ClientStreamingServer[storesv1.UploadOrdersRequest, storesv1.UploadOrdersResponse]) error {
	first, err := stream.Recv()
	if err != nil {
		return err
	}
	switch first.GetCategoryId() {
	case "running":
		return status.Error(codes.Aborted, "An import is already running for this store. Please wait for it to finish, then try again.")
	case "full":
		st, _ := status.New(codes.ResourceExhausted, "Many stores are importing orders right now. Please try again in a minute.").
			WithDetails(&errdetails.RetryInfo{RetryDelay: durationpb.New(time.Minute)})
		return st.Err()
	}
	md, _ := metadata.FromIncomingContext(stream.Context())
	got := &received{auth: strings.Join(md.Get("authorization"), ",")}
	for m := first; ; {
		if got.format == "" {
			got.format = m.GetFormat()
		}
		if n := len(m.GetCsv()); n > 0 {
			if first.GetCategoryId() != "discard" {
				got.csv = append(got.csv, m.GetCsv()...)
			}
			got.pieces++
			got.piece = max(got.piece, n)
		}
		if first.GetCategoryId() == "bad" && len(got.csv) > 0 {
			return status.Error(codes.InvalidArgument, `Row 2, column "Lineitem price": "x" is not an amount like 19.99.`)
		}
		if m, err = stream.Recv(); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return err
		}
	}
	uploaded.Store(first.GetCategoryId(), got)
	f.mu.Lock()
	f.imported = len(got.csv)
	f.mu.Unlock()
	return stream.SendAndClose(&storesv1.UploadOrdersResponse{Result: &storesv1.ImportOrdersResponse{
		Orders: 2, FirstDay: "2025-12-06", LastDay: "2025-12-07", Currency: "USD"}})
}

func postImport(t *testing.T, e env, category, body string) (int, http.Header, map[string]any) {
	t.Helper()
	return do(t, "POST", e.url+"/internal/categories/"+category+"/business-data/orders/import", body,
		map[string]string{"Authorization": "Bearer tok"})
}

// TestTheOrderImportStreams: the REST route's body reaches the stores
// service in pieces of at most importPiece, decoded exactly as JSON says,
// with the caller's token, in whatever order the keys come; the answer is
// ImportOrders' JSON.
func TestTheOrderImportStreams(t *testing.T) {
	t.Parallel()
	e := setup(t)
	text := "Name,Lineitem name\n#1,\"Café \"\"Blue\"\" 🍵\"\n\\\t/\u0000\n"
	big := strings.Repeat(text, 3*importPiece/len(text))
	encoded, _ := json.Marshal(big)
	cases := map[string]string{
		"format first": `{"format":"shopify-orders-csv","csv":` + string(encoded) + `}`,
		"csv first":    ` { "csv" : ` + string(encoded) + ` , "categoryId": "ignored", "extra": [1, {"a": null}], "format": "shopify-orders-csv" } `,
		"escaped by hand": `{"format":"shopify-orders-csv","csv":"` +
			strings.Repeat(`Name,Lineitem name\n#1,\"Caf\u00e9 \"\"Blue\"\" \ud83c\udf75\"\n\\\t\/\u0000\n`, 3*importPiece/len(text)) + `"}`,
	}
	for name, body := range cases {
		category := "cat-" + strings.ReplaceAll(name, " ", "-")
		code, _, b := postImport(t, e, category, body)
		if code != 200 || b["orders"] != 2.0 || b["firstDay"] != "2025-12-06" || b["currency"] != "USD" {
			t.Fatalf("%s: %d %v", name, code, b)
		}
		v, _ := uploaded.Load(category)
		got := v.(*received)
		if string(got.csv) != big || got.format != "shopify-orders-csv" || got.auth != "Bearer tok" {
			t.Errorf("%s: the service got %d bytes (want %d), format %q, auth %q", name, len(got.csv), len(big), got.format, got.auth)
		}
		if got.pieces < 3 || got.piece > importPiece {
			t.Errorf("%s: %d pieces, the largest %d bytes; want pieces of at most %d", name, got.pieces, got.piece, importPiece)
		}
	}
}

// TestTheOrderImportAnswers: the service's refusals keep their statuses
// and sentences (409 for a store's running import, 429 with Retry-After
// when the service is full, 400 for a bad row), and a body that is not the
// call's JSON is 400, never 5xx.
func TestTheOrderImportAnswers(t *testing.T) {
	t.Parallel()
	e := setup(t)
	csv := `,"csv":"Name\n#1\n"}`
	for _, c := range []struct {
		category, body string
		code           int
		message        string
	}{
		{"running", `{"format":"shopify-orders-csv"` + csv, 409,
			"An import is already running for this store. Please wait for it to finish, then try again."},
		{"full", `{"format":"shopify-orders-csv"` + csv, 429,
			"Many stores are importing orders right now. Please try again in a minute."},
		{"bad", `{"format":"shopify-orders-csv","csv":"` + strings.Repeat("x", 2*importPiece) + `"}`, 400,
			`Row 2, column "Lineitem price": "x" is not an amount like 19.99.`},
		{"c1", `{"format":"shopify-orders-csv"`, 400, "The request body is not valid JSON for this call: the body ends too soon."},
		{"c1", `{"format":"shopify-orders-csv",}`, 400, "The request body is not valid JSON for this call: expected a key in double quotes."},
		{"c1", `[1,2,3]`, 400, "The request body is not valid JSON for this call: the body must be a JSON object."},
		{"c1", `{"csv":"a","csv":"b"}`, 400, `The request body is not valid JSON for this call: "csv" appears twice.`},
		{"c1", `{"csv":12}`, 400, "The request body is not valid JSON for this call: csv must be a string."},
		{"c1", `{"csv":"` + "\x01" + `"}`, 400, "The request body is not valid JSON for this call: csv holds a control character that is not escaped."},
		{"c1", `{"csv":"\q"}`, 400, `The request body is not valid JSON for this call: a string holds an unknown escape \q.`},
		{"c1", `{"x":` + strings.Repeat("[", 1000) + `}`, 400, "The request body is not valid JSON for this call: the body is nested too deeply."},
		{"c1", `{"format":"a"} trailing`, 400, "The request body is not valid JSON for this call: nothing may follow the object."},
	} {
		code, h, b := postImport(t, e, c.category, c.body)
		if code != c.code || b["message"] != c.message {
			t.Errorf("%s %.40q: %d %v; want %d %q", c.category, c.body, code, b, c.code, c.message)
		}
		if c.code == 429 && h.Get("Retry-After") != "60" {
			t.Errorf("429 without Retry-After: %v", h)
		}
	}
}

// maxImportHeapMiB is the goal for the heap while the gateway passes on a
// ~19.5 MB export: a few pieces in flight, not the file (holding it once
// took 144 MiB here; grpc-gateway's mapping holds it three times). The
// process also runs the fake stores service and the client.
const maxImportHeapMiB = 32

// BenchmarkOrderImportBody sends a ~19.5 MB export's JSON body (generated
// as it is sent, "csv" before "format" as Go's encoding/json writes a map)
// through the import route to a stores service that drops it; the baseline
// sends it to a route that only reads and drops the body. It fails when
// the gateway's peak heap passes maxImportHeapMiB.
func BenchmarkOrderImportBody(b *testing.B) {
	e := setup(b)
	drop := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = io.Copy(io.Discard, r.Body) }))
	b.Cleanup(drop.Close)
	const size = 19_500_000
	row := `#1001,2025-12-06 10:37:33 -0500,1,\"Organic Coffee Beans\",1299.00\n`
	body := func() io.Reader {
		pr, pw := io.Pipe()
		go func() {
			_, _ = io.WriteString(pw, `{"csv":"`)
			chunk := strings.Repeat(row, 64<<10/len(row))
			for n := 0; n < size; n += len(chunk) {
				if _, err := io.WriteString(pw, chunk); err != nil {
					return
				}
			}
			_, _ = io.WriteString(pw, `","format":"shopify-orders-csv"}`)
			pw.Close()
		}()
		return pr
	}
	post := func(b *testing.B, url string) {
		req, _ := http.NewRequest("POST", url, body())
		req.Header.Set("Authorization", "Bearer tok")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			b.Fatalf("status %d", resp.StatusCode)
		}
	}
	for _, c := range []struct{ name, url string }{
		{"baseline=read-and-drop", drop.URL},
		{"product=import-route", e.url + "/internal/categories/discard/business-data/orders/import"},
	} {
		b.Run(c.name, func(b *testing.B) {
			peak := benchmem.WatchHeap()
			for b.Loop() {
				post(b, c.url)
			}
			heap := peak() / (1 << 20)
			b.ReportMetric(size*float64(b.N)/b.Elapsed().Seconds()/1e6, "MB/s")
			b.ReportMetric(heap, "peak-heap-MiB")
			if strings.HasPrefix(c.name, "product") && heap > maxImportHeapMiB {
				b.Errorf("the gateway's heap peaked at %.0f MiB passing on one export; the goal is at most %d", heap, maxImportHeapMiB)
			}
		})
	}
}
