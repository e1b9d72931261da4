package analysis

import (
	"context"
	"strings"
	"testing"
	"time"

	"uplift.dev/review/internal/analysis/corpus"
	"uplift.dev/review/internal/analysis/page"
	"uplift.dev/review/internal/analysis/review"
)

func TestCorpusPagesReviewWithoutPanicAndTruthfully(t *testing.T) {
	for _, row := range corpus.Rows(t) {
		name := row["file"]
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			body := corpus.Page(t, name)
			srv := servePage(t, body)
			a := newTestAnalyzer(t, srv, Options{Timeout: 2 * time.Second})
			start := time.Now()
			res, err := a.Analyze(context.Background(), srv.URL, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("took %v", d)
			}
			rv := res.Review
			checkAccounting(t, rv)
			home := srv.URL + "/"
			hasFinding := func(check string) bool {
				for _, f := range rv.Findings {
					if f.Check == check && f.URL == home {
						return true
					}
				}
				return false
			}
			missingMeta := false
			for _, f := range rv.Findings {
				if f.Check == review.CheckMetaDesc && f.URL == home && f.Title == "Page has no meta description" {
					missingMeta = true
				}
			}
			switch row["meta_desc"] {
			case "n":
				if !missingMeta {
					t.Error("INDEX says no meta description, but no finding")
				}
			case "y":
				if missingMeta {
					t.Error("INDEX says the page has a meta description, but it was reported missing")
				}
			}
			missingCanonical := false
			for _, f := range append(rv.Findings, rv.Notes...) {
				missingCanonical = missingCanonical || (f.Check == review.CheckCanonical && f.URL == home && f.Title == "Page has no canonical link")
			}
			if row["canonical"] == "n" && !missingCanonical {
				t.Error("INDEX says no canonical link, but no finding")
			}
			if row["canonical"] == "y" && missingCanonical {
				t.Error("INDEX says the page has a canonical link, but it was reported missing")
			}
			if row["title"] == "y" {
				for _, f := range rv.Findings {
					if f.Check == review.CheckTitle && f.URL == home && strings.Contains(f.Title, "no title") {
						t.Error("INDEX says the page has a title, but it was reported missing")
					}
				}
			}
			want := map[string]string{"sfcc": page.PlatformSFCC}[row["detected"]]
			if want == "" {
				want = row["detected"]
			}
			if p := page.ParsePage(home, body); p.Platform != want {
				t.Errorf("platform detected = %q, INDEX says %q", p.Platform, row["detected"])
			}
			if row["og"] == "n" && !hasFinding(review.CheckOpenGraph) {
				t.Error("INDEX says no Open Graph tags, but no finding")
			}
			if res.Summary == "" || len(res.Ideas) < 3 {
				t.Errorf("summary %q, %d ideas", res.Summary, len(res.Ideas))
			}
		})
	}
}
