package service_test

import (
	"net"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"google.golang.org/protobuf/types/known/timestamppb"

	eventsv1 "uplift.dev/proto/gen/uplift/events/v1"

	"uplift.dev/digest/internal/domain"
	"uplift.dev/digest/internal/sinktest"
	"uplift.dev/platform/events"
)

func dailyReports(ms []sinktest.Mail) []sinktest.Mail {
	var out []sinktest.Mail
	for _, m := range ms {
		if strings.HasPrefix(m.Subject, "Yesterday at ") {
			out = append(out, m)
		}
	}
	return out
}

func opt(s string) *string { return &s }

// checkoutAction is the stores service's suggested action for that day.
const checkoutAction = "Orders fell while visits held steady, so fewer visitors bought: check your checkout."

// reportReady is the stores service's event for a day on which orders fell
// 75 % while sessions held steady.
func reportReady(cat, date string) *eventsv1.DailyReportReady {
	return &eventsv1.DailyReportReady{CategoryId: cat, Date: date, Timezone: "America/New_York", Currency: "USD", Status: "READY",
		Metrics: []*eventsv1.DailyReportReady_Metric{
			{Key: "totalSales", Label: "Total sales", Value: opt("89.00"), Average: opt("80.00"), ChangePercent: opt("11.3")},
			{Key: "orders", Label: "Orders", Value: opt("1"), Average: opt("4.0"), ChangePercent: opt("-75.0"), Unusual: true},
			{Key: "averageOrderValue", Label: "Average order value", Value: opt("89.00"), Average: opt("20.00"), ChangePercent: opt("345.0")},
			{Key: "returns", Label: "Returns", Value: opt("0.00"), Average: opt("0.00")},
			{Key: "sessions", Label: "Sessions", Value: opt("120"), Average: opt("118.0"), ChangePercent: opt("1.7")},
			{Key: "conversionRate", Label: "Conversion rate", Value: opt("0.83"), Average: opt("3.39"), ChangePercent: opt("-75.5"), Unusual: true},
		},
		Headline: "Orders fell 75 % against your 7-day average; sessions held steady, so conversion dropped — check checkout.",
		Summary:  "orders fell 75 %", Action: checkoutAction,
		BestSeller: "Camp Stove", OccurTime: timestamppb.Now()}
}

// owner makes the category's owner known to the digest: their address
// (UserCreated, no welcome) and the store (CategoryUpdated).
func (h harness) owner(t *testing.T, name string) (user, addr, cat string) {
	t.Helper()
	user, addr, cat = "u-"+uuid.NewString()[:8], fresh("owner"), uuid.NewString()
	t0 := time.Now().Add(-time.Hour)
	h.publish(t, events.SubjectUserCreated, "u-"+user, &eventsv1.UserCreated{UserId: user, Email: addr, CategoryId: cat,
		SuppressWelcomeEmail: true, OccurTime: timestamppb.New(t0)})
	h.publish(t, events.SubjectCategoryUpdated, "c-"+cat, &eventsv1.CategoryUpdated{CategoryId: cat, OwnerUserId: user,
		Name: name, OccurTime: timestamppb.New(t0)})
	h.waitInt(t, "owner known", `SELECT count(*) FROM recipients r JOIN recipient_stores s ON s.owner_user_id = r.user_id
		WHERE r.user_id = $1 AND r.email = $2`, func(n int) bool { return n == 1 }, user, addr)
	return user, addr, cat
}

// TestDailyReportEmail: a DailyReportReady becomes one email to the owner
// with the recurring headers and both parts; the same event again (a new
// message id) sends nothing more; a report without data sends nothing;
// once the business profile's switch is off, the next report is kept as
// suppressed, not sent.
func TestDailyReportEmail(t *testing.T) {
	t.Parallel()
	sink := sinktest.New(t)
	h := start(t, sink.SMTPAddr)
	user, addr, cat := h.owner(t, "Clay & Co")

	ev := reportReady(cat, "2026-03-07")
	h.publish(t, events.SubjectDailyReportReady, "r1", ev)
	h.publish(t, events.SubjectDailyReportReady, "r1-again", ev) // the same report republished
	h.publish(t, events.SubjectDailyReportReady, "r0", &eventsv1.DailyReportReady{CategoryId: cat, Date: "2026-03-06",
		Currency: "USD", Status: "NO_DATA", OccurTime: timestamppb.Now()})
	h.waitInt(t, "events handled", `SELECT count(*) FROM processed_messages`, func(n int) bool { return n == 5 })
	h.waitInt(t, "sent", `SELECT count(*) FROM send_log WHERE user_id = $1 AND kind = 'daily_report' AND status = 'sent'`,
		func(n int) bool { return n == 1 }, user)

	got := dailyReports(sink.Wait(t, addr, 1, 15*time.Second))
	time.Sleep(500 * time.Millisecond) // a few sender rounds: still one
	if got = dailyReports(sink.To(t, addr)); len(got) != 1 {
		t.Fatalf("%d daily report emails, want 1", len(got))
	}
	m := got[0]
	if m.Subject != "Yesterday at Clay & Co: orders fell 75 %" {
		t.Fatalf("subject %q", m.Subject)
	}
	hdr := sink.RawHeader(t, m)
	if d, err := hdr.Date(); err != nil || time.Since(d) > time.Minute {
		t.Fatalf("date %q: %v", hdr.Get("Date"), err)
	}
	if hdr.Get("Message-ID") != domain.MessageID("daily-report:"+cat+":2026-03-07", "uplift.example") {
		t.Fatalf("message-id %q", hdr.Get("Message-ID"))
	}
	lu := hdr.Get("List-Unsubscribe")
	if hdr.Get("List-Unsubscribe-Post") != "List-Unsubscribe=One-Click" ||
		!strings.HasPrefix(lu, "<"+publicAPI+"/email/unsubscribe?token=") || !strings.HasSuffix(lu, ">") {
		t.Fatalf("unsubscribe headers %q %q", lu, hdr.Get("List-Unsubscribe-Post"))
	}
	for _, w := range []string{"Saturday 7 March 2026", "Orders fell 75 % against the 7-day average", checkoutAction,
		webURL + "/analytics", webURL + "/", strings.Trim(lu, "<>")} {
		if !strings.Contains(m.Text, w) {
			t.Fatalf("text lacks %q:\n%s", w, m.Text)
		}
	}
	for _, w := range []string{`href="` + webURL + `/analytics"`, `href="` + webURL + `/"`, "Clay &amp; Co", "Unusual changes"} {
		if !strings.Contains(m.HTML, w) {
			t.Fatalf("HTML lacks %q:\n%s", w, m.HTML)
		}
	}
	if src := sink.Source(t, m); !strings.Contains(src, "text/plain") || !strings.Contains(src, "text/html") {
		t.Fatalf("source:\n%s", src)
	}

	// The business profile's switch goes off: the next morning's report
	// is kept as suppressed, not sent.
	h.publish(t, events.SubjectCategoryUpdated, "c-off", &eventsv1.CategoryUpdated{CategoryId: cat, OwnerUserId: user,
		Name: "Clay & Co", DisableBusinessReport: true, OccurTime: timestamppb.Now()})
	h.waitInt(t, "switched off", `SELECT count(*) FROM suppressions WHERE user_id = $1 AND kind = 'daily_report' AND suppressed`,
		func(n int) bool { return n == 1 }, user)
	h.publish(t, events.SubjectDailyReportReady, "r2", reportReady(cat, "2026-03-08"))
	h.waitInt(t, "suppressed", `SELECT count(*) FROM send_log WHERE user_id = $1 AND kind = 'daily_report' AND status = 'suppressed'`,
		func(n int) bool { return n == 1 }, user)
	time.Sleep(300 * time.Millisecond)
	if n := len(dailyReports(sink.To(t, addr))); n != 1 {
		t.Fatalf("%d daily reports after switching it off", n)
	}
}

// TestDailyReportWaitsOutAnSMTPOutage: the relay refuses connections when
// the report is queued; once it is back the report arrives exactly once.
func TestDailyReportWaitsOutAnSMTPOutage(t *testing.T) {
	t.Parallel()
	sink := sinktest.New(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	down := l.Addr().String()
	l.Close()
	h := start(t, down)
	_, addr, cat := h.owner(t, "Patient Pots")
	h.publish(t, events.SubjectDailyReportReady, "r1", reportReady(cat, "2026-03-07"))
	h.waitInt(t, "failed attempts", `SELECT coalesce(max(attempts), 0) FROM emails WHERE kind = 'daily_report' AND status = 'pending' AND last_error <> ''`,
		func(n int) bool { return n >= 2 })
	if got := sink.To(t, addr); len(got) != 0 {
		t.Fatalf("mail while the relay was down: %d", len(got))
	}
	relayTo(t, down, sink.SMTPAddr)
	sink.Wait(t, addr, 1, 15*time.Second)
	h.waitInt(t, "sent", `SELECT count(*) FROM emails WHERE kind = 'daily_report' AND status = 'sent'`, func(n int) bool { return n == 1 })
	time.Sleep(time.Second)
	if got := dailyReports(sink.To(t, addr)); len(got) != 1 || !strings.Contains(got[0].Subject, "Patient Pots") {
		t.Fatalf("after the outage: %d reports", len(got))
	}
}
