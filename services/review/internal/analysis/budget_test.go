package analysis

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"uplift.dev/review/internal/analysis/review"
	"uplift.dev/review/internal/analysis/site"
)

// TestSlowAssetHostCannotStallAReview serves a page whose images and
// scripts come from a host that never answers in time (and one that
// answers at once): the review finishes within the asset budget, measures
// the fast host's files and names the slow host in a note.
func TestSlowAssetHostCannotStallAReview(t *testing.T) {
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(20 * time.Second):
		}
	}))
	defer slow.Close()
	fast := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "max-age=31536000")
		w.Write(make([]byte, 1000))
	}))
	defer fast.Close()
	var imgs strings.Builder
	for i := range 4 {
		fmt.Fprintf(&imgs, `<img src="%s/img/%d.jpg" alt="Candle %d"><script src="%s/js/%d.js" defer></script>`, slow.URL, i, i, slow.URL, i)
	}
	page := servePage(t, []byte(`<html><head><title>Juniper Candle Co. – soy candles</title></head><body>`+imgs.String()+
		`<img src="`+fast.URL+`/img/hero.jpg" alt="Hero"></body></html>`))
	a := newTestAnalyzer(t, page, Options{Timeout: 10 * time.Second})
	start := time.Now()
	rv, err := a.Score(context.Background(), page.URL)
	elapsed := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	// The bound is structural: the asset phase stops at its budget, so the
	// whole review takes the budget plus the time to read one local page.
	if elapsed > site.AssetPhaseBudget+time.Second {
		t.Errorf("review took %v with a silent asset host; the asset budget is %v", elapsed, site.AssetPhaseBudget)
	}
	var noted, fastMeasured bool
	for _, n := range rv.Notes {
		noted = noted || strings.Contains(n.Title, strings.TrimPrefix(slow.URL, "http://"))
	}
	for _, c := range rv.Checks {
		fastMeasured = fastMeasured || (c.Check == review.CheckCaching && c.Earned == c.Weight)
	}
	if !noted {
		t.Errorf("the slow host is not named: %+v", rv.Notes)
	}
	if !fastMeasured {
		t.Error("the fast host's file was not measured")
	}
}
