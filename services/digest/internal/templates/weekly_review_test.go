package templates_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"uplift.dev/digest/internal/domain"
)

func sampleWeekly(previous *int, fixed []domain.Finding) domain.WeeklyReview {
	return domain.WeeklyReview{CategoryID: "cat-1", OwnerUserID: "u-1", StoreName: `Clay & <Co>`, SiteURL: "https://clay.example/",
		Week: "2026-11-16", Score: 61, Band: "medium", PreviousScore: previous,
		New:   []domain.Finding{{Title: "Slow hero image", Fix: "Serve /hero.jpg as WebP under 200 KB", Points: 9}},
		Fixed: fixed,
		Open:  []domain.Finding{{Title: "Images without alt text", Fix: `Add alt="Blue mug" to <img src="/mug.jpg">`, Points: 6, URL: "https://clay.example/products/mug"}},
		Tops: []domain.Finding{{Title: "Slow hero image", Fix: "Serve /hero.jpg as WebP under 200 KB", Points: 9},
			{Title: "Images without alt text", Fix: `Add alt="Blue mug" to <img src="/mug.jpg">`, Points: 6, URL: "https://clay.example/products/mug"}},
		Idea: &domain.Idea{ID: "idea-1", Title: "Mug of the month", WhyNow: "Gift season starts next week", Channel: "Email"}}
}

func TestWeeklyReviewRendering(t *testing.T) {
	t.Parallel()
	r, _ := unsubRenderer(t)
	prev := 64
	cases := []struct {
		name             string
		w                domain.WeeklyReview
		want, notWant    []string
		subject, preview string
	}{{
		name:    "fixes celebrated, score down",
		w:       sampleWeekly(&prev, []domain.Finding{{Title: "No meta description"}}),
		subject: "Your website this week: 61/100 for Clay & <Co>",
		preview: "Down 3 points since last week. You fixed 1 since last week. 1 new, 1 still open.",
		want: []string{"Fixed since last week: well done!", "✓ No meta description", "Down 3 points since last week.",
			"Medium</strong> (30 to 69)", "1. Slow hero image", "+9 points", "Add alt=&#34;Blue mug&#34; to &lt;img src=&#34;/mug.jpg&#34;&gt;",
			`href="https://app.uplift.example/ideas/idea-1"`, "Clay &amp; &lt;Co&gt;", "Monday 16 November 2026"},
	}, {
		name:    "first review, nothing fixed",
		w:       sampleWeekly(nil, nil),
		subject: "Your website this week: 61/100 for Clay & <Co>",
		preview: "0 fixed, 1 new, 1 still open.",
		want:    []string{"Your first weekly review: next week&#39;s shows what changed."},
		notWant: []string{"well done", "since last week."},
	}}
	for _, c := range cases {
		e, err := domain.NewWeeklyReview(c.w, "owner@example.com")
		if err != nil {
			t.Fatal(err)
		}
		m, err := r.Render(e)
		if err != nil {
			t.Fatal(err)
		}
		if m.Subject != c.subject || !strings.Contains(m.HTML, c.preview) {
			t.Errorf("%s: subject %q, preview %q missing", c.name, m.Subject, c.preview)
		}
		for _, w := range c.want {
			if !strings.Contains(m.HTML, w) {
				t.Errorf("%s: HTML lacks %q", c.name, w)
			}
		}
		for _, w := range c.notWant {
			if strings.Contains(m.HTML, w) || strings.Contains(m.Text, w) {
				t.Errorf("%s: shows %q", c.name, w)
			}
		}
		if !strings.Contains(m.Text, "Open the idea: https://app.uplift.example/ideas/idea-1") || m.Unsubscribe == "" {
			t.Errorf("%s: text part or unsubscribe link missing:\n%s", c.name, m.Text)
		}
		writeSample(t, "weekly-"+strings.ReplaceAll(c.name, " ", "-"), m.HTML)
	}
}

func TestDailyReportWithoutDataRendering(t *testing.T) {
	t.Parallel()
	r, _ := unsubRenderer(t)
	score := 64
	for name, c := range map[string]struct {
		nd   domain.NoData
		want string
	}{
		"reviewed":   {domain.NoData{WebsiteStatus: "READY", WebsiteScore: &score, WebsiteBand: "medium", OpenFindings: 1, OccasionName: "Black Friday", OccasionDate: "2026-11-27"}, "Your website scored 64/100 (Medium) in its last review, with 1 thing to fix."},
		"no website": {domain.NoData{WebsiteStatus: "NO_WEBSITE"}, "Add your website in your business profile"},
		"failed":     {domain.NoData{WebsiteStatus: "FAILED"}, "We could not read your website"},
	} {
		e, err := domain.NewDailyReportWithoutData(domain.DailyReportWithoutData{CategoryID: "cat-1", OwnerUserID: "u-1",
			StoreName: "Clay & Co", Date: "2026-11-24", NoData: c.nd,
			Idea: &domain.Idea{ID: "idea-1", Title: "Mug of the month", WhyNow: "Gift season"}}, "owner@example.com")
		if err != nil {
			t.Fatal(err)
		}
		m, err := r.Render(e)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range []string{c.want, "Connect your store", `href="https://app.uplift.example/connections"`, "Mug of the month"} {
			if !strings.Contains(m.HTML, w) || !strings.Contains(m.Text, strings.ReplaceAll(w, `href="https://app.uplift.example/connections"`, "https://app.uplift.example/connections")) {
				t.Errorf("%s: lacks %q", name, w)
			}
		}
		if m.Subject != "Yesterday at Clay & Co: no sales data yet" || strings.Contains(m.HTML, "7-day avg") {
			t.Errorf("%s: subject %q or a table of numbers", name, m.Subject)
		}
		if name == "reviewed" && !strings.Contains(m.Text, "Black Friday is on Friday 27 November, in 2 days.") {
			t.Errorf("no seasonal date:\n%s", m.Text)
		}
		writeSample(t, "daily-without-data-"+strings.ReplaceAll(name, " ", "-"), m.HTML)
	}
}

// writeSample keeps a rendered email for people to look at (in a browser
// at 375 and 1280 px) when EMAIL_SAMPLES_DIR is set.
func writeSample(t *testing.T, name, html string) {
	if dir := os.Getenv("EMAIL_SAMPLES_DIR"); dir != "" {
		if err := os.WriteFile(filepath.Join(dir, name+".html"), []byte(html), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
