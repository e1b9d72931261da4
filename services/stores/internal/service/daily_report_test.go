package service_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	eventsv1 "uplift.dev/proto/gen/uplift/events/v1"
	storesv1 "uplift.dev/proto/gen/uplift/stores/v1"

	"uplift.dev/platform/events"
	"uplift.dev/shopifysim/sim"
	"uplift.dev/stores/internal/adapters/postgres"
	"uplift.dev/stores/internal/app"
	"uplift.dev/stores/internal/domain"
	"uplift.dev/stores/internal/ordercsv/ordercsvtest"
)

// The harness leaves the service's own schedule off (ReportPoll 0), so the
// replicas below, with their fixed clocks, are the only ones publishing.

// replica is a second (or third) stores worker on the harness's database,
// reading time from now: what another replica of the service would run.
func (h *harness) replica(now func() time.Time) *app.App {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	return app.New(postgres.Repo{Pool: h.db}, nil, nil, nil, nil, log, app.Options{}).WithClock(now)
}

// dailyReportsIn returns the DailyReportReady events in the outbox for cat.
func (h *harness) dailyReportsIn(cat string) []*eventsv1.DailyReportReady {
	h.t.Helper()
	rows, err := h.db.Query(context.Background(), `SELECT payload FROM outbox WHERE subject = $1`, events.SubjectDailyReportReady)
	if err != nil {
		h.t.Fatal(err)
	}
	defer rows.Close()
	var out []*eventsv1.DailyReportReady
	for rows.Next() {
		var b []byte
		if err := rows.Scan(&b); err != nil {
			h.t.Fatal(err)
		}
		var ev eventsv1.DailyReportReady
		if err := proto.Unmarshal(b, &ev); err != nil {
			h.t.Fatal(err)
		}
		if ev.GetCategoryId() == cat {
			out = append(out, &ev)
		}
	}
	return out
}

// TestADueStorePublishesOneDailyReport imports a week of four orders a day
// and a quiet day after it (a file in -05:00), then runs the daily report
// round on two replicas at once, repeatedly, with a clock at 07:05 the next
// morning: exactly one DailyReportReady goes out for that day, with the
// report's numbers, and the relay puts it on the stream. At 06:55 nothing
// is due; the next morning the next day goes out.
func TestADueStorePublishesOneDailyReport(t *testing.T) {
	t.Parallel()
	h := newHarness(t, sim.Options{AutoApprove: true})
	ctx, cat := h.owner()

	offset := time.FixedZone("", -5*3600)
	day := time.Date(2026, 3, 7, 0, 0, 0, 0, offset) // the report's day
	var orders []ordercsvtest.Order
	for ago := 7; ago >= 1; ago-- {
		for i := range 4 {
			orders = append(orders, ordercsvtest.Order{Name: fmt.Sprintf("#%d%d", ago, i),
				CreatedAt: day.AddDate(0, 0, -ago).Add(time.Duration(10+i) * time.Hour),
				Title:     "Trail Mug", SKU: "MUG", Quantity: 1, Price: "20.00"})
		}
	}
	orders = append(orders, ordercsvtest.Order{Name: "#9001", CreatedAt: day.Add(12 * time.Hour),
		Title: "Camp Stove", SKU: "STOVE", Quantity: 1, Price: "89.00"})
	if _, err := h.client.ImportOrders(ctx, &storesv1.ImportOrdersRequest{CategoryId: cat, Format: "shopify-orders-csv",
		Csv: string(ordercsvtest.Orders("USD", orders))}); err != nil {
		t.Fatal(err)
	}

	before := func() time.Time { return time.Date(2026, 3, 8, 6, 55, 0, 0, offset) }
	if n, err := h.replica(before).PublishDueReports(context.Background()); err != nil || n != 0 {
		t.Fatalf("at 06:55: published %d, %v", n, err)
	}
	morning := func() time.Time { return time.Date(2026, 3, 8, 7, 5, 0, 0, offset) }
	a, b := h.replica(morning), h.replica(morning)
	var wg sync.WaitGroup
	published := make(chan int, 8)
	for range 4 { // two replicas, each running the round twice at the same moment
		for _, r := range []*app.App{a, b} {
			wg.Go(func() {
				n, err := r.PublishDueReports(context.Background())
				if err != nil {
					t.Error(err)
				}
				published <- n
			})
		}
	}
	wg.Wait()
	close(published)
	total := 0
	for n := range published {
		total += n
	}
	got := h.dailyReportsIn(cat)
	if total != 1 || len(got) != 1 {
		t.Fatalf("published %d, outbox holds %d DailyReportReady for the category; want exactly 1", total, len(got))
	}
	var sent int
	if err := h.db.QueryRow(context.Background(), `SELECT count(*) FROM daily_reports_sent WHERE category_id = $1 AND day = '2026-03-07'`,
		cat).Scan(&sent); err != nil || sent != 1 {
		t.Fatalf("daily_reports_sent: %d, %v", sent, err)
	}
	ev := got[0]
	if ev.GetDate() != "2026-03-07" || ev.GetStatus() != "READY" || ev.GetCurrency() != "USD" || ev.GetTimezone() != "-05:00" ||
		ev.GetBestSeller() != "Camp Stove" || !ev.GetOccurTime().AsTime().Equal(morning()) || len(ev.GetMetrics()) != 6 {
		t.Fatalf("event %v", ev)
	}
	orderMetric := ev.GetMetrics()[1]
	if orderMetric.GetKey() != "orders" || orderMetric.GetValue() != "1" || orderMetric.GetAverage() != "4.0" ||
		orderMetric.GetChangePercent() != "-75.0" || !orderMetric.GetUnusual() || orderMetric.Formula == "" {
		t.Fatalf("orders metric %v", orderMetric)
	}
	if sessions := ev.GetMetrics()[4]; sessions.Value != nil || sessions.ChangePercent != nil {
		t.Fatalf("sessions of an import must be unavailable, not zero: %v", sessions)
	}
	if ev.GetHeadline() == "" || ev.GetHeadline()[:11] != "Orders fell" {
		t.Fatalf("headline %q", ev.GetHeadline())
	}

	// The relay publishes it on its subject.
	eventually(t, func() bool {
		stream, err := h.js.Stream(context.Background(), events.StreamName)
		if err != nil {
			return false
		}
		m, err := stream.GetLastMsgForSubject(context.Background(), events.SubjectDailyReportReady)
		if err != nil {
			return false
		}
		var onStream eventsv1.DailyReportReady
		return proto.Unmarshal(m.Data, &onStream) == nil && proto.Equal(&onStream, ev)
	}, "DailyReportReady on the stream")

	// A restarted worker later that day publishes nothing more; the next
	// morning publishes the next day, once.
	if n, err := h.replica(func() time.Time { return morning().Add(10 * time.Hour) }).PublishDueReports(context.Background()); err != nil || n != 0 {
		t.Fatalf("later that day: published %d, %v", n, err)
	}
	next := func() time.Time { return morning().AddDate(0, 0, 1) }
	for range 2 {
		if _, err := h.replica(next).PublishDueReports(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	got = h.dailyReportsIn(cat)
	if len(got) != 2 || got[0].GetDate() == got[1].GetDate() || (got[0].GetDate() != "2026-03-08" && got[1].GetDate() != "2026-03-08") {
		t.Fatalf("after the next morning: %v", got)
	}
}

// TestOperatorSendsYesterdaysReportAheadOfTheHour: at 03:00 store-local an
// admin publishes yesterday's report at once; the 07:00 slot then finds
// the day sent, a second send is refused, and a store owner may not send
// it (only an admin). The next morning's slot sends the next day.
func TestOperatorSendsYesterdaysReportAheadOfTheHour(t *testing.T) {
	t.Parallel()
	h := newHarness(t, sim.Options{AutoApprove: true})
	ctx, cat := h.owner()
	offset := time.FixedZone("", -5*3600)
	day := time.Date(2026, 3, 7, 0, 0, 0, 0, offset)
	var orders []ordercsvtest.Order
	for ago := 7; ago >= 0; ago-- {
		orders = append(orders, ordercsvtest.Order{Name: fmt.Sprintf("#%d", ago), CreatedAt: day.AddDate(0, 0, -ago).Add(10 * time.Hour),
			Title: "Trail Mug", SKU: "MUG", Quantity: 1, Price: "20.00"})
	}
	if _, err := h.client.ImportOrders(ctx, &storesv1.ImportOrdersRequest{CategoryId: cat, Format: "shopify-orders-csv",
		Csv: string(ordercsvtest.Orders("USD", orders))}); err != nil {
		t.Fatal(err)
	}
	early := h.replica(func() time.Time { return time.Date(2026, 3, 8, 3, 0, 0, 0, offset) })
	if _, err := early.SendDailyReportNow(context.Background(), domain.Caller{UID: "owner"}, cat); !errors.Is(err, domain.ErrPermissionDenied) {
		t.Fatalf("an owner sent it: %v", err)
	}
	admin := domain.Caller{UID: "ops", Admin: true}
	d, err := early.SendDailyReportNow(context.Background(), admin, cat)
	if err != nil || d.String() != "2026-03-07" {
		t.Fatalf("sent %s, %v; want 2026-03-07", d, err)
	}
	if _, err := early.SendDailyReportNow(context.Background(), admin, cat); !errors.Is(err, domain.ErrAlreadySent) {
		t.Fatalf("second send: %v", err)
	}
	if n, err := h.replica(func() time.Time { return time.Date(2026, 3, 8, 7, 5, 0, 0, offset) }).PublishDueReports(context.Background()); err != nil || n != 0 {
		t.Fatalf("the 07:00 slot published %d more (%v)", n, err)
	}
	if n, err := h.replica(func() time.Time { return time.Date(2026, 3, 9, 7, 5, 0, 0, offset) }).PublishDueReports(context.Background()); err != nil || n != 1 {
		t.Fatalf("the next morning published %d (%v), want 1", n, err)
	}
	got := h.dailyReportsIn(cat)
	if len(got) != 2 || got[0].GetDate() == got[1].GetDate() {
		t.Fatalf("%d reports in the outbox: %v", len(got), got)
	}
	if _, err := early.SendDailyReportNow(context.Background(), admin, "9d3f0a4e-1f5b-4c55-8a7e-2d2b6c7f0a11"); !errors.Is(err, domain.ErrNoReportData) {
		t.Fatalf("a store without data: %v", err)
	}
}
