package service_test

import (
	"context"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"google.golang.org/protobuf/proto"

	eventsv1 "uplift.dev/proto/gen/uplift/events/v1"
	storesv1 "uplift.dev/proto/gen/uplift/stores/v1"

	"uplift.dev/platform/events"
	"uplift.dev/shopifysim/sim"
	"uplift.dev/stores/internal/ordercsv/ordercsvtest"
)

// lastSignals returns the newest StoreSignalsUpdated on the stream and its
// stream sequence, or nil when there is none yet.
func (h *harness) lastSignals() (*eventsv1.StoreSignalsUpdated, uint64) {
	h.t.Helper()
	ctx := context.Background()
	stream, err := h.js.Stream(ctx, events.StreamName)
	if err != nil {
		return nil, 0
	}
	m, err := stream.GetLastMsgForSubject(ctx, events.SubjectStoreSignalsUpdated)
	if err != nil {
		return nil, 0
	}
	var ev eventsv1.StoreSignalsUpdated
	if err := proto.Unmarshal(m.Data, &ev); err != nil {
		h.t.Fatalf("unreadable StoreSignalsUpdated: %v", err)
	}
	if m.Header.Get(jetstream.MsgIDHeader) == "" {
		h.t.Error("StoreSignalsUpdated published without a message id: JetStream cannot drop a replay")
	}
	return &ev, m.Sequence
}

// TestAnImportPublishesTheStoreSignals imports an export in the file's
// offset (-05:00): mugs sold in the last week, a stove that sold six in the
// fortnight before last and none since. The import is followed by
// StoreSignalsUpdated through the outbox, as of yesterday in that offset,
// and importing again publishes the same signals again.
func TestAnImportPublishesTheStoreSignals(t *testing.T) {
	t.Parallel()
	h := newHarness(t, sim.Options{AutoApprove: true})
	ctx, cat := h.owner()

	offset := time.FixedZone("", -5*3600)
	now := time.Now().In(offset)
	y := time.Date(now.Year(), now.Month(), now.Day()-1, 0, 0, 0, 0, offset)
	day := func(ago, hour int) time.Time { return y.AddDate(0, 0, -ago).Add(time.Duration(hour) * time.Hour) }
	csv := ordercsvtest.Orders("USD", []ordercsvtest.Order{
		{Name: "#1001", CreatedAt: day(20, 10), Title: "Camp Stove", SKU: "STOVE", Quantity: 3, Price: "89.00"},
		{Name: "#1002", CreatedAt: day(16, 10), Title: "Camp Stove", SKU: "STOVE", Quantity: 3, Price: "89.00"},
		{Name: "#1003", CreatedAt: day(1, 9), Title: "Trail Mug", SKU: "MUG", Quantity: 4, Price: "15.00"},
		{Name: "#1004", CreatedAt: day(0, 23), Title: "Trail Mug", SKU: "MUG", Quantity: 2, Price: "15.00"},
	})
	if ev, _ := h.lastSignals(); ev != nil {
		t.Fatalf("signals before any import: %v", ev)
	}
	res, err := h.client.ImportOrders(ctx, &storesv1.ImportOrdersRequest{CategoryId: cat, Format: "shopify-orders-csv", Csv: string(csv)})
	if err != nil || res.GetOrders() != 4 {
		t.Fatalf("import: %v, %v", res, err)
	}
	// The import itself wrote the event to the outbox before it answered.
	var queued int
	if err := h.db.QueryRow(context.Background(), `SELECT count(*) FROM outbox WHERE subject = $1`,
		events.SubjectStoreSignalsUpdated).Scan(&queued); err != nil || queued < 1 {
		t.Fatalf("outbox holds %d StoreSignalsUpdated after the import (%v), want one", queued, err)
	}
	var ev *eventsv1.StoreSignalsUpdated
	var seq uint64
	eventually(t, func() bool { ev, seq = h.lastSignals(); return ev != nil }, "StoreSignalsUpdated after the import")
	want := &eventsv1.StoreSignalsUpdated{
		CategoryId: cat, Currency: "USD", CurrencyDecimals: 2, AsOf: y.Format("2006-01-02"),
		BestSeller: &eventsv1.StoreSignalsUpdated_BestSeller{Title: "Trail Mug", NetSalesMinor: 9000, Quantity: 6},
		FallingProduct: &eventsv1.StoreSignalsUpdated_FallingProduct{Title: "Camp Stove",
			NetSalesBeforeMinor: 53400, NetSalesAfterMinor: 0, FallPercent: 100},
		// Too few orders a day for any change to be unusual.
		UnusualHeadline: "",
		// The file's offset is the store's zone until a shop is connected.
		Timezone: "-05:00",
	}
	occurred := ev.GetOccurTime().AsTime()
	if since := time.Since(occurred); since < 0 || since > time.Minute {
		t.Errorf("occur_time = %v", occurred)
	}
	ev.OccurTime = nil
	if !proto.Equal(ev, want) {
		t.Fatalf("signals =\n %v\nwant\n %v", ev, want)
	}

	// The same file again changes no number but is still an import: the
	// same signals go out again, which the consumer may safely apply twice.
	if _, err := h.client.ImportOrders(ctx, &storesv1.ImportOrdersRequest{CategoryId: cat, Format: "shopify-orders-csv", Csv: string(csv)}); err != nil {
		t.Fatal(err)
	}
	var again *eventsv1.StoreSignalsUpdated
	var seq2 uint64
	eventually(t, func() bool { again, seq2 = h.lastSignals(); return seq2 > seq }, "signals after the second import")
	if !again.GetOccurTime().AsTime().After(occurred) {
		t.Errorf("second occur_time %v is not after the first %v", again.GetOccurTime().AsTime(), occurred)
	}
	again.OccurTime = nil
	if !proto.Equal(again, want) {
		t.Fatalf("second signals =\n %v\nwant\n %v", again, want)
	}
}
