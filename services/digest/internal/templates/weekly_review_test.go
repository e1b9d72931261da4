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

// TestWeeklyReviewThatCouldNotReadTheSite: a week whose fresh review could
// not read the website still emails its owner: that it could not, why,
// the last known score and what to do; nothing of a review it did not do.
func TestWeeklyReviewThatCouldNotReadTheSite(t *testing.T) {
	t.Parallel()
	r, _ := unsubRenderer(t)
	prev := 64
	for _, c := range []struct {
		name      string
		previous  *int
		band      string
		last      string
		preheader string
	}{
		{"with a last score", &prev, "medium", "Its last score was 64/100 (Medium, 30 to 69).",
			"It did not answer in time. Your last score was 64/100. Here is what to check."},
		{"never reviewed", nil, "", "There is no score yet: this would have been its first review.",
			"It did not answer in time. Here is what to check."},
	} {
		w := sampleWeekly(c.previous, []domain.Finding{{Title: "No meta description"}})
		w.Failure, w.PreviousBand, w.Score, w.Band = "it did not answer in time", c.band, 0, ""
		e, err := domain.NewWeeklyReview(w, "owner@example.com")
		if err != nil {
			t.Fatal(err)
		}
		if e.Key != "weekly-review:cat-1:2026-11-16" {
			t.Errorf("%s: key %q: a failed week must share the week's key, so it is sent once", c.name, e.Key)
		}
		m, err := r.Render(e)
		if err != nil {
			t.Fatal(err)
		}
		if m.Subject != "We couldn't review your website this week, Clay & <Co>" {
			t.Errorf("%s: subject %q", c.name, m.Subject)
		}
		for _, part := range []string{m.HTML, m.Text} {
			for _, want := range []string{"for the week of Monday 16 November 2026, but it did not answer in time.",
				"What to do", "check it is online for everyone", "update it in your Business profile",
				"https://app.uplift.example/"} {
				want = strings.ReplaceAll(want, "What to do", map[bool]string{true: "WHAT TO DO", false: "What to do"}[part == m.Text])
				if !strings.Contains(part, want) {
					t.Errorf("%s: a part lacks %q", c.name, want)
				}
			}
			if !strings.Contains(strings.ReplaceAll(part, "&#39;", "'"), c.last) {
				t.Errorf("%s: the last score %q is missing", c.name, c.last)
			}
			for _, not := range []string{"well done", "No meta description", "Mug of the month", "0/100", "Slow hero image"} {
				if strings.Contains(part, not) {
					t.Errorf("%s: shows %q from a review that was not done", c.name, not)
				}
			}
		}
		if !strings.Contains(m.HTML, c.preheader) || m.Unsubscribe == "" {
			t.Errorf("%s: preheader %q or unsubscribe link missing", c.name, c.preheader)
		}
		writeSample(t, "weekly-unreadable-"+strings.ReplaceAll(c.name, " ", "-"), m.HTML)
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

// TestWeeklyReviewGroupsAFindingOnManyPages: the review finds the same
// thing on each page; the email lists it once with how many pages, and
// "and N more" still counts every finding.
func TestWeeklyReviewGroupsAFindingOnManyPages(t *testing.T) {
	t.Parallel()
	r, _ := unsubRenderer(t)
	w := sampleWeekly(nil, nil)
	meta := domain.Finding{Title: "Page has no meta description"}
	w.Fixed = []domain.Finding{meta, meta, meta, meta, {Title: "An image has no alt text"}}
	w.Open = nil
	for i := range 9 {
		w.Open = append(w.Open, domain.Finding{Title: "Product page has no product markup", URL: "https://clay.example/p/" + string(rune('a'+i))})
	}
	for _, title := range []string{"No sitemap", "No favicon", "No returns page", "No contact page", "No reviews", "No newsletter"} {
		w.Open = append(w.Open, domain.Finding{Title: title})
	}
	e, err := domain.NewWeeklyReview(w, "owner@example.com")
	if err != nil {
		t.Fatal(err)
	}
	m, err := r.Render(e)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"- Page has no meta description (4 pages)\n- An image has no alt text\n",
		"STILL OPEN (15)\n- Product page has no product markup (9 pages)\n- No sitemap\n- No favicon\n- No returns page\n- No contact page\nand 2 more on Home"} {
		if !strings.Contains(m.Text, want) {
			t.Errorf("text lacks %q:\n%s", want, m.Text)
		}
	}
	if n := strings.Count(m.HTML, "Page has no meta description"); n != 1 {
		t.Errorf("HTML lists the meta description %d times", n)
	}
	writeSample(t, "weekly-grouped", m.HTML)
}

// TestFirstReviewEmail: the business's first
// review is "Your first website review is ready": keyed once per business,
// no "week", no "last week", nothing "new" or "fixed" against nothing;
// the score, the fixes worth the most points and what to fix.
func TestFirstReviewEmail(t *testing.T) {
	t.Parallel()
	r, _ := unsubRenderer(t)
	w := sampleWeekly(nil, nil)
	w.First = true
	w.Open = append(w.New, w.Open...)
	w.New = nil
	e, err := domain.NewWeeklyReview(w, "owner@example.com")
	if err != nil {
		t.Fatal(err)
	}
	if e.Key != "first-review:cat-1" || e.Kind != domain.KindWeeklyReview {
		t.Errorf("key %q kind %q: the first review is keyed once per business", e.Key, e.Kind)
	}
	again := w
	again.Week = "2026-11-23"
	if e2, _ := domain.NewWeeklyReview(again, "owner@example.com"); e2.Key != e.Key {
		t.Errorf("a first review published in another week is a second email: %q", e2.Key)
	}
	m, err := r.Render(e)
	if err != nil {
		t.Fatal(err)
	}
	if m.Subject != "Your first website review is ready" {
		t.Errorf("subject %q", m.Subject)
	}
	if !strings.Contains(m.HTML, "Your website scored 61/100 (Medium). 2 things to fix, the ones worth the most points first.") {
		t.Error("preheader missing")
	}
	for _, part := range []string{m.HTML, m.Text} {
		for _, want := range []string{"Your first website review is ready", "61", "Slow hero image", "Images without alt text",
			"Each Monday your weekly review shows what changed since."} {
			if !strings.Contains(part, want) {
				t.Errorf("a part lacks %q", want)
			}
		}
		for _, not := range []string{"weekly review:", "this week", "last week", "New this week", "Fixed since", "Still open", "STILL OPEN"} {
			if strings.Contains(part, not) {
				t.Errorf("a first review says %q", not)
			}
		}
	}
	if !strings.Contains(m.HTML, "What to fix (2)") || !strings.Contains(m.Text, "WHAT TO FIX (2)") {
		t.Error("the findings are not listed as what to fix")
	}
	writeSample(t, "first-review", m.HTML)
}
