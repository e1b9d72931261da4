package analysis

import (
	"context"
	"encoding/csv"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// corpusDir holds real store pages (see its README); they are read in
// place, never copied into this repository.
const corpusDir = "/work/shared/corpus/stores"

func TestCorpusPagesReviewWithoutPanicAndTruthfully(t *testing.T) {
	f, err := os.Open(filepath.Join(corpusDir, "INDEX.tsv"))
	if err != nil {
		t.Skipf("store corpus not available at %s: %v", corpusDir, err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.Comma, r.LazyQuotes, r.FieldsPerRecord = '\t', true, -1
	rows, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	for _, row := range rows[1:] {
		row := row
		name := row[col["file"]]
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			body, err := os.ReadFile(filepath.Join(corpusDir, name))
			if err != nil {
				t.Fatal(err)
			}
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path != "/" {
					http.NotFound(w, r)
					return
				}
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				w.Write(body)
			}))
			defer srv.Close()
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
			switch row[col["meta_desc"]] {
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
			for _, f := range rv.Findings {
				missingCanonical = missingCanonical || (f.Check == CheckCanonical && f.URL == home && f.Title == "Page has no canonical link")
			}
			if row[col["canonical"]] == "n" && !hasFinding(CheckCanonical) {
				t.Error("INDEX says no canonical link, but no finding")
			}
			if row[col["canonical"]] == "y" && missingCanonical {
				t.Error("INDEX says the page has a canonical link, but it was reported missing")
			}
			if row[col["title"]] == "y" {
				for _, f := range rv.Findings {
					if f.Check == CheckTitle && f.URL == home && strings.Contains(f.Title, "no title") {
						t.Error("INDEX says the page has a title, but it was reported missing")
					}
				}
			}
			if p := parsePage(home, body); p.Shopify != (row[col["detected"]] == "shopify") {
				t.Errorf("Shopify detected = %v, INDEX says %q", p.Shopify, row[col["detected"]])
			}
			if row[col["og"]] == "n" && !hasFinding(CheckOpenGraph) {
				t.Error("INDEX says no Open Graph tags, but no finding")
			}
			if res.Summary == "" || len(res.Ideas) < 3 {
				t.Errorf("summary %q, %d ideas", res.Summary, len(res.Ideas))
			}
		})
	}
}
