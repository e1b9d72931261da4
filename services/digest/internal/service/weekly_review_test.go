package service_test

import (
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/timestamppb"

	eventsv1 "uplift.dev/proto/gen/uplift/events/v1"

	"uplift.dev/digest/internal/domain"
	"uplift.dev/digest/internal/sinktest"
	"uplift.dev/platform/events"
)

func weeklyReviews(ms []sinktest.Mail) []sinktest.Mail {
	var out []sinktest.Mail
	for _, m := range ms {
		if strings.HasPrefix(m.Subject, "Your website this week: ") {
			out = append(out, m)
		}
	}
	return out
}

// weeklyReady is the categories service's event for a week in which the
// score rose from 52 to 61: one finding fixed, two new, the biggest fixes
// first, and an idea.
func weeklyReady(cat, week string) *eventsv1.WeeklyReviewReady {
	prev := int32(52)
	alt := &eventsv1.WeeklyReviewReady_Finding{Title: "Images without alt text", Fix: `Add alt="Blue stoneware mug" to <img src="/mug.jpg">`, Points: 6, Url: "https://clay.example/products/mug"}
	hero := &eventsv1.WeeklyReviewReady_Finding{Title: "Slow hero image", Fix: "Serve /hero.jpg as WebP under 200 KB", Points: 9, Url: "https://clay.example/"}
	head := &eventsv1.WeeklyReviewReady_Finding{Title: "No main heading", Fix: "Add one <h1> naming what you sell", Points: 2}
	return &eventsv1.WeeklyReviewReady{CategoryId: cat, StoreName: "Clay & Co", SiteUrl: "https://clay.example/", ReportId: "r-1",
		Week: week, Score: 61, Band: "medium", PreviousScore: &prev,
		NewFindings:   []*eventsv1.WeeklyReviewReady_Finding{hero, head},
		FixedFindings: []*eventsv1.WeeklyReviewReady_Finding{{Title: "No meta description"}},
		OpenFindings:  []*eventsv1.WeeklyReviewReady_Finding{alt},
		TopFixes:      []*eventsv1.WeeklyReviewReady_Finding{hero, alt, head},
		Idea: &eventsv1.WeeklyReviewReady_Idea{Id: "7b0c6f6e-5a55-4f7e-9a43-1c7c2f0f2d11", Title: "Mug of the month",
			WhyNow: "Gift season starts next week", Channel: "Email"},
		OccurTime: timestamppb.Now()}
}

// TestWeeklyReviewEmail: a WeeklyReviewReady becomes one email to the
// owner with the recurring headers, both parts and links into the app;
// the same event again sends nothing more; once the weekly switch is off
// (disableWeeklyEmail), the next week's is kept as suppressed, not sent.
func TestWeeklyReviewEmail(t *testing.T) {
	t.Parallel()
	sink := sinktest.New(t)
	h := start(t, sink.SMTPAddr)
	user, addr, cat := h.owner(t, "Clay & Co")

	ev := weeklyReady(cat, "2026-11-16")
	h.publish(t, events.SubjectWeeklyReviewReady, "w1", ev)
	h.publish(t, events.SubjectWeeklyReviewReady, "w1-again", ev)
	h.waitInt(t, "sent", `SELECT count(*) FROM send_log WHERE user_id = $1 AND kind = 'weekly_review' AND status = 'sent'`,
		func(n int) bool { return n == 1 }, user)
	got := weeklyReviews(sink.Wait(t, addr, 1, 15*time.Second))
	time.Sleep(500 * time.Millisecond)
	if got = weeklyReviews(sink.To(t, addr)); len(got) != 1 {
		t.Fatalf("%d weekly review emails, want 1", len(got))
	}
	m := got[0]
	if m.Subject != "Your website this week: 61/100 for Clay & Co" {
		t.Fatalf("subject %q", m.Subject)
	}
	hdr := sink.RawHeader(t, m)
	if d, err := hdr.Date(); err != nil || time.Since(d) > time.Minute {
		t.Fatalf("date %q: %v", hdr.Get("Date"), err)
	}
	if hdr.Get("Message-ID") != domain.MessageID("weekly-review:"+cat+":2026-11-16", "uplift.example") {
		t.Fatalf("message-id %q", hdr.Get("Message-ID"))
	}
	lu := hdr.Get("List-Unsubscribe")
	if hdr.Get("List-Unsubscribe-Post") != "List-Unsubscribe=One-Click" ||
		!strings.HasPrefix(lu, "<"+publicAPI+"/email/unsubscribe?token=") || !strings.HasSuffix(lu, ">") {
		t.Fatalf("unsubscribe headers %q %q", lu, hdr.Get("List-Unsubscribe-Post"))
	}
	idea := webURL + "/ideas/7b0c6f6e-5a55-4f7e-9a43-1c7c2f0f2d11"
	for _, w := range []string{"SCORE: 61/100, Medium (30 to 69)", "Up 9 points since last week.", "Monday 16 November 2026",
		"FIXED SINCE LAST WEEK: WELL DONE!\n- No meta description",
		"1. Slow hero image (+9 points)\n   Fix: Serve /hero.jpg as WebP under 200 KB",
		"2. Images without alt text (+6 points)", "3. No main heading (+2 points)",
		"NEW THIS WEEK (2)", "STILL OPEN (1)\n- Images without alt text",
		"Mug of the month (Email)", "Open the idea: " + idea, webURL + "/", strings.Trim(lu, "<>")} {
		if !strings.Contains(m.Text, w) {
			t.Fatalf("text lacks %q:\n%s", w, m.Text)
		}
	}
	for _, w := range []string{`href="` + idea + `"`, `href="` + webURL + `/"`, "Clay &amp; Co", "Fixed since last week: well done!",
		"Add alt=&#34;Blue stoneware mug&#34; to &lt;img src=&#34;/mug.jpg&#34;&gt;", "Up 9 points since last week. You fixed 1 since last week."} {
		if !strings.Contains(m.HTML, w) {
			t.Fatalf("HTML lacks %q:\n%s", w, m.HTML)
		}
	}
	if src := sink.Source(t, m); !strings.Contains(src, "text/plain") || !strings.Contains(src, "text/html") {
		t.Fatalf("source:\n%s", src)
	}

	// The weekly switch goes off in the business profile: next week's
	// review is kept as suppressed, not sent.
	h.publish(t, events.SubjectCategoryUpdated, "c-off", &eventsv1.CategoryUpdated{CategoryId: cat, OwnerUserId: user,
		Name: "Clay & Co", DisableWeeklyEmail: true, OccurTime: timestamppb.Now()})
	h.waitInt(t, "switched off", `SELECT count(*) FROM suppressions WHERE user_id = $1 AND kind = 'weekly_review' AND suppressed`,
		func(n int) bool { return n == 1 }, user)
	h.publish(t, events.SubjectWeeklyReviewReady, "w2", weeklyReady(cat, "2026-11-23"))
	h.waitInt(t, "suppressed", `SELECT count(*) FROM send_log WHERE user_id = $1 AND kind = 'weekly_review' AND status = 'suppressed'`,
		func(n int) bool { return n == 1 }, user)
	time.Sleep(300 * time.Millisecond)
	if n := len(weeklyReviews(sink.To(t, addr))); n != 1 {
		t.Fatalf("%d weekly reviews after switching it off", n)
	}
}

// TestWeeklyReviewThatCouldNotReadTheSite: the week's review could not
// read the site (status FAILED): the owner still gets the week's one
// email, saying so, why, the last known score and what to do, with the
// recurring headers; the same week's event again sends nothing more.
func TestWeeklyReviewThatCouldNotReadTheSite(t *testing.T) {
	t.Parallel()
	sink := sinktest.New(t)
	h := start(t, sink.SMTPAddr)
	user, addr, cat := h.owner(t, "Clay & Co")
	prev := int32(61)
	ev := &eventsv1.WeeklyReviewReady{CategoryId: cat, StoreName: "Clay & Co", SiteUrl: "https://clay.example/", ReportId: "r-2",
		Week: "2026-11-23", PreviousScore: &prev, Status: "FAILED", Failure: "it answered that the site is unavailable (HTTP 503)",
		PreviousBand: "medium", OccurTime: timestamppb.Now()}
	h.publish(t, events.SubjectWeeklyReviewReady, "f1", ev)
	h.publish(t, events.SubjectWeeklyReviewReady, "f1-again", ev)
	h.waitInt(t, "sent", `SELECT count(*) FROM send_log WHERE user_id = $1 AND kind = 'weekly_review' AND status = 'sent'`,
		func(n int) bool { return n == 1 }, user)
	_ = sink.Wait(t, addr, 1, 15*time.Second)
	time.Sleep(500 * time.Millisecond)
	got := sink.To(t, addr)
	if len(got) != 1 || got[0].Subject != "We couldn't review your website this week, Clay & Co" {
		t.Fatalf("mails %+v", got)
	}
	m := got[0]
	hdr := sink.RawHeader(t, m)
	if hdr.Get("List-Unsubscribe-Post") != "List-Unsubscribe=One-Click" || !strings.HasPrefix(hdr.Get("List-Unsubscribe"), "<"+publicAPI) {
		t.Fatalf("unsubscribe headers %q", hdr.Get("List-Unsubscribe"))
	}
	for _, w := range []string{"for the week of Monday 23 November 2026, but it answered that the site is unavailable (HTTP 503).",
		"Its last score was 61/100 (Medium, 30 to 69).", "WHAT TO DO", "Open Uplift Home: " + webURL + "/"} {
		if !strings.Contains(m.Text, w) {
			t.Fatalf("text lacks %q:\n%s", w, m.Text)
		}
	}
	if strings.Contains(m.Text, "SCORE: 0/100") || strings.Contains(m.HTML, "well done") {
		t.Fatalf("the email shows a review that was not done:\n%s", m.Text)
	}
}

// TestDailyReportWithoutData: the daily report of a store with no data yet
// says so in one line, leads to Connections, and carries the website's
// status, the next seasonal date and an idea; never a table of zeros.
func TestDailyReportWithoutData(t *testing.T) {
	t.Parallel()
	sink := sinktest.New(t)
	h := start(t, sink.SMTPAddr)
	user, addr, cat := h.owner(t, "Clay & Co")
	score := int32(64)
	ev := &eventsv1.DailyReportReady{CategoryId: cat, Date: "2026-11-24", Timezone: "Europe/Paris", Status: "NO_DATA",
		WithoutData: &eventsv1.DailyReportReady_WithoutData{StoreName: "Clay & Co", OwnerUserId: user, SiteUrl: "https://clay.example/",
			WebsiteStatus: "READY", WebsiteScore: &score, WebsiteBand: "medium", OpenFindings: 5,
			OccasionName: "Black Friday", OccasionDate: "2026-11-27",
			Idea: &eventsv1.WeeklyReviewReady_Idea{Id: "7b0c6f6e-5a55-4f7e-9a43-1c7c2f0f2d11", Title: "Mug of the month", WhyNow: "Gift season"}},
		OccurTime: timestamppb.Now()}
	h.publish(t, events.SubjectDailyReportReady, "n1", ev)
	h.publish(t, events.SubjectDailyReportReady, "n1-again", ev)
	h.waitInt(t, "sent", `SELECT count(*) FROM send_log WHERE user_id = $1 AND kind = 'daily_report' AND status = 'sent'`,
		func(n int) bool { return n == 1 }, user)
	got := dailyReports(sink.Wait(t, addr, 1, 15*time.Second))
	time.Sleep(300 * time.Millisecond)
	if got = dailyReports(sink.To(t, addr)); len(got) != 1 {
		t.Fatalf("%d daily reports, want 1", len(got))
	}
	m := got[0]
	if m.Subject != "Yesterday at Clay & Co: "+domain.NoDataSummary {
		t.Fatalf("subject %q", m.Subject)
	}
	for _, w := range []string{"We don't have your store's numbers yet", "Connect your store: " + webURL + "/connections",
		"Your website scored 64/100 (Medium) in its last review, with 5 things to fix.",
		"Black Friday is on Friday 27 November, in 2 days.", "Mug of the month",
		"Open the idea: " + webURL + "/ideas/7b0c6f6e-5a55-4f7e-9a43-1c7c2f0f2d11"} {
		if !strings.Contains(m.Text, w) {
			t.Fatalf("text lacks %q:\n%s", w, m.Text)
		}
	}
	for _, no := range []string{"0.00", "7-day average", "not available"} {
		if strings.Contains(m.Text, no) || strings.Contains(m.HTML, no) {
			t.Fatalf("an email without data shows %q:\n%s", no, m.Text)
		}
	}
	if !strings.Contains(m.HTML, `href="`+webURL+`/connections"`) {
		t.Fatalf("HTML lacks the Connections link:\n%s", m.HTML)
	}
	if hdr := sink.RawHeader(t, m); hdr.Get("List-Unsubscribe-Post") != "List-Unsubscribe=One-Click" {
		t.Fatal("no one-click unsubscribe")
	}
}
