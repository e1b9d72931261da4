package service_test

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	categoriesv1 "uplift.dev/proto/gen/uplift/categories/v1"

	"uplift.dev/categories/internal/domain"
	categories "uplift.dev/categories/internal/service"
	"uplift.dev/review/reviewtest"
)

// slowStore serves a store home page built to be slow: its hero image (the
// largest paint) arrives after 3 s.
func slowStore(t *testing.T) *httptest.Server {
	return reviewtest.SlowStore(t, `<!doctype html><html lang="en"><head><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Clay &amp; Co mugs</title></head><body><h1>Hand-made mugs</h1><img id="hero" src="/hero.png" width="400" height="300" alt="A stoneware mug">
<p>Stoneware mugs from 18 EUR.</p><a href="/contact">Contact</a></body></html>`)
}

// reviewedBy saves the store's site as an owner and waits for the review
// that the review service's worker, measuring speed in the browser at
// chrome, makes and categories records from its events.
func reviewedBy(t *testing.T, chrome string) *categoriesv1.Report {
	t.Helper()
	store := slowStore(t)
	h := startWithWorker(t, categories.Settings{}, categories.Deps{Analyzer: realEngine(t)}, &reviewtest.Worker{ChromePath: chrome})
	cat, tok := h.owner(t)
	if _, err := h.client.UpdateContentGenerationParams(as(tok), &categoriesv1.UpdateContentGenerationParamsRequest{
		CategoryId: cat, SiteUrl: proto.String(store.URL),
	}); err != nil {
		t.Fatal(err)
	}
	// Three loads in a throttled browser on a shared machine: give it time.
	deadline := time.Now().Add(2 * time.Minute)
	for {
		r, err := h.client.GetCurrentReport(as(tok), &categoriesv1.GetCurrentReportRequest{CategoryId: cat})
		if err == nil && r.GetReport().GetStatus() != categoriesv1.ReportStatus_REPORT_STATUS_GENERATING {
			return r.GetReport()
		}
		if time.Now().After(deadline) {
			t.Fatalf("no review finished in time: %v %v", r.GetReport(), err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// TestReviewWorkerMeasuresSpeed: categories leaves the review to the
// worker, whose Chromium measures the store's home page; the owner's
// report carries the speed with the slowest element named.
func TestReviewWorkerMeasuresSpeed(t *testing.T) {
	rep := reviewedBy(t, reviewtest.Chromium(t))
	sp := rep.GetSpeed()
	if rep.GetStatus() != categoriesv1.ReportStatus_REPORT_STATUS_READY || len(rep.GetChecks()) == 0 || !sp.GetMeasured() {
		t.Fatalf("report %v", rep)
	}
	if sp.GetLcpMs() < 3000 || !strings.Contains(sp.GetLcpElement(), "hero") || sp.GetRatings()["lcp"] == "good" ||
		sp.GetRuns() < 1 || sp.GetTotalBytes() <= 0 || sp.GetFcpMs() <= 0 || sp.GetScore() <= 0 {
		t.Errorf("speed %v", sp)
	}
}

// TestReviewWorkerWithoutABrowser: a worker whose Chromium is missing
// still delivers the review; its speed says it was not measured and why.
func TestReviewWorkerWithoutABrowser(t *testing.T) {
	rep := reviewedBy(t, "/nonexistent/chromium")
	if rep.GetStatus() != categoriesv1.ReportStatus_REPORT_STATUS_READY || len(rep.GetChecks()) == 0 || rep.GetSummary() == "" {
		t.Fatalf("report %v", rep)
	}
	if sp := rep.GetSpeed(); sp == nil || sp.GetMeasured() || sp.GetReason() != domain.SpeedNoBrowser || sp.GetLcpMs() != 0 {
		t.Errorf("speed %v, want not measured with the reason", sp)
	}
}
