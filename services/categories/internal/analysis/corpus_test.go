package analysis

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// corpusDir holds real store pages (see its README); they are read in
// place, never copied into this repository. shared/ sits beside the
// repository's folder, on a developer's machine and in CI alike.
var corpusDir = func() string {
	dir, _ := os.Getwd()
	for d := dir; ; d = filepath.Dir(d) {
		if c := filepath.Join(d, "shared", "corpus", "stores"); isDir(c) {
			return c
		}
		if filepath.Dir(d) == d {
			return filepath.Join(dir, "shared", "corpus", "stores")
		}
	}
}()

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

func TestCorpusPagesReviewWithoutPanicAndTruthfully(t *testing.T) {
	for _, row := range corpusRows(t) {
		name := row["file"]
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			body, err := os.ReadFile(filepath.Join(corpusDir, name))
			if err != nil {
				t.Fatal(err)
			}
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
				if f.Check == CheckMetaDesc && f.URL == home && f.Title == "Page has no meta description" {
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
				missingCanonical = missingCanonical || (f.Check == CheckCanonical && f.URL == home && f.Title == "Page has no canonical link")
			}
			if row["canonical"] == "n" && !missingCanonical {
				t.Error("INDEX says no canonical link, but no finding")
			}
			if row["canonical"] == "y" && missingCanonical {
				t.Error("INDEX says the page has a canonical link, but it was reported missing")
			}
			if row["title"] == "y" {
				for _, f := range rv.Findings {
					if f.Check == CheckTitle && f.URL == home && strings.Contains(f.Title, "no title") {
						t.Error("INDEX says the page has a title, but it was reported missing")
					}
				}
			}
			want := map[string]string{"sfcc": PlatformSFCC}[row["detected"]]
			if want == "" {
				want = row["detected"]
			}
			if p := ParsePage(home, body); p.Platform != want {
				t.Errorf("platform detected = %q, INDEX says %q", p.Platform, row["detected"])
			}
			if row["og"] == "n" && !hasFinding(CheckOpenGraph) {
				t.Error("INDEX says no Open Graph tags, but no finding")
			}
			if res.Summary == "" || len(res.Ideas) < 3 {
				t.Errorf("summary %q, %d ideas", res.Summary, len(res.Ideas))
			}
		})
	}
}
