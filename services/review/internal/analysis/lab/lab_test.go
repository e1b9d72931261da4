package lab

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"uplift.dev/review/internal/analysis/lab/labtest"
)

// slowPages serves pages built to be slow in one way each: an LCP image
// that arrives after 3 s, a banner that pushes the content down a second
// after load, and a 600 ms long task after the first paint.
func slowPages(t *testing.T) *httptest.Server {
	t.Helper()
	text := strings.Repeat("<p>Hand-poured soy candles, made in small batches in Portland and shipped in two days.</p>", 8)
	mux := http.NewServeMux()
	page := func(body string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprintf(w, `<!doctype html><html><head><meta name="viewport" content="width=device-width, initial-scale=1"><title>Lab</title></head><body>%s</body></html>`, body)
		}
	}
	mux.HandleFunc("/fast", page(`<h1>Candles</h1>`+text))
	mux.HandleFunc("/blank", page(`<div style="display:none"><h1>Candles</h1></div>`))
	mux.HandleFunc("/slow-lcp", page(`<h1>Candles</h1><img id="hero" src="/hero.png" width="400" height="300">`))
	mux.HandleFunc("/late-shift", page(`<div id="top"></div><h1>Candles</h1>`+text+`<script>
setTimeout(() => { const b = document.getElementById('top'); b.style.height = '300px'; b.className = 'promo-banner'; b.textContent = 'Sale'; }, 1000);</script>`))
	mux.HandleFunc("/long-task", page(`<h1>Candles</h1>`+text+`<script>
setTimeout(() => { const end = Date.now() + 600; while (Date.now() < end) {} }, 300);</script>`))
	// Speed Index: the screen stays blank but for a line of text until a
	// block covering most of it is painted 1.2 s after load (a block is
	// not contentful: LCP stays with the text).
	mux.HandleFunc("/late-content", page(`<p>Loading</p><div id="late"></div><script>
addEventListener('load', () => setTimeout(() => { const d = document.getElementById('late'); d.style.cssText = 'height:2000px;background:linear-gradient(#7a3,#136)'; }, 1200));</script>`))
	mux.HandleFunc("/hero.png", labtest.SlowImage(labtest.HeroPNG(t), 3*time.Second))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

func needBrowser(t *testing.T) {
	t.Helper()
	labtest.Chromium(t)
}

func TestLabMetricsOnPagesBuiltToBeSlow(t *testing.T) {
	needBrowser(t)
	srv := slowPages(t)
	measure := func(path string, runs int) Result {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		defer cancel()
		// A minute's budget: the three runs are asked for whatever else
		// the machine is doing (the 12 s default cuts them short on a
		// busy CI machine; the CLI's test covers that cut).
		r, err := Measure(ctx, srv.URL+path, Options{Runs: runs, Budget: time.Minute})
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		t.Logf("%s: score %d, median %+v, ratings %v", path, r.Score, r.Median, r.Ratings)
		return r
	}
	fast := measure("/fast", 3)
	if len(fast.Runs) != 3 {
		t.Errorf("%d runs, want 3", len(fast.Runs))
	}
	// Throttled like Lighthouse's phone, even a small page takes a round
	// trip or two before the first paint, and nothing moves or blocks.
	// (Bounds leave room for a CI machine busy with other tests.)
	if m := fast.Median; m.FCP < 500 || m.FCP > 5000 || m.CLS > 0.01 || m.TBT > 300 || m.Bytes <= 0 {
		t.Errorf("fast page: %+v", m)
	}
	if fast.Score < 70 {
		t.Errorf("fast page scores %d", fast.Score)
	}
	// What paints at once is visually complete at once: Speed Index is
	// read from the frames and sits at the first paint or a little after.
	if m := fast.Median; m.SpeedIndex < m.FCP || m.SpeedIndex > m.FCP+1500 || fast.Ratings["si"] == "" {
		t.Errorf("fast page: Speed Index %.0f ms against FCP %.0f ms (%v)", m.SpeedIndex, m.FCP, fast.Ratings)
	}
	if m := fast.Median; m.INP > 200 || fast.Ratings["inp"] != "good" {
		t.Errorf("fast page: INP proxy %.0f ms (%v)", m.INP, fast.Ratings)
	}

	// A text block is named with its first words, for the owner to find it.
	if el := fast.Median.LCPElement; !strings.HasPrefix(el, "p \"Hand-poured soy candles") && !strings.HasPrefix(el, "h1 \"Candles") {
		t.Errorf("fast page's largest paint named %q", el)
	}
	if !fast.Median.Painted {
		t.Error("the fast page should have painted")
	}
	blank := measure("/blank", 1)
	if m := blank.Median; m.Painted || m.FCP < 1000 || blank.Ratings["fcp"] != "poor" || blank.Score > 70 {
		t.Errorf("a page that paints nothing must not read as instant: %+v %v", m, blank.Ratings)
	}

	lcp := measure("/slow-lcp", 1)
	if m := lcp.Median; m.LCP < 3000 || m.LCP > 12000 || !strings.Contains(m.LCPElement, "hero") {
		t.Errorf("slow LCP image: LCP %.0f ms on %q, want 3–12 s on the hero image", m.LCP, m.LCPElement)
	}
	if lcp.Ratings["lcp"] == "good" || lcp.Score >= fast.Score {
		t.Errorf("slow LCP rated %v with score %d (fast page %d)", lcp.Ratings, lcp.Score, fast.Score)
	}

	shift := measure("/late-shift", 1)
	if m := shift.Median; m.CLS < 0.1 || m.CLS > 2 || len(m.Shifted) == 0 {
		t.Errorf("late layout shift: CLS %.3f, shifted %v", m.CLS, m.Shifted)
	}

	task := measure("/long-task", 1)
	if m := task.Median; m.TBT < 400 || m.TBT > 3000 {
		t.Errorf("long task: TBT %.0f ms, want 400–3000", m.TBT)
	}
	if task.Ratings["tbt"] == "good" {
		t.Errorf("long task rated %v", task.Ratings)
	}
	// A tap during the 600 ms task waits for all of it: the INP proxy is
	// the task's length, poor on web.dev's scale (over 500 ms).
	if m := task.Median; m.INP < 550 || m.INP > 3000 || task.Ratings["inp"] != "poor" {
		t.Errorf("long task: INP proxy %.0f ms (%v), want 550–3000 and poor", m.INP, task.Ratings)
	}

	late := measure("/late-content", 1)
	// Most of the screen is painted 1.2 s after load: Speed Index counts
	// the wait, while FCP and LCP (the first line of text) do not. The
	// margin is well under the 1.2 s: on a loaded machine FCP lands late
	// and the histogram credits the text's own frames (a run at load 15 measured SI
	// 972 ms past FCP once), while a Speed Index blind to the late block
	// would sit at FCP.
	if m := late.Median; m.SpeedIndex < m.FCP+600 || m.SpeedIndex > 12000 || m.LCP > m.FCP+500 {
		t.Errorf("late content: Speed Index %.0f ms with FCP %.0f ms and LCP %.0f ms, want SI ≥ FCP + 0.6 s", m.SpeedIndex, m.FCP, m.LCP)
	}
}

func TestScoreFollowsLighthouseCurves(t *testing.T) {
	for _, tt := range []struct {
		value, p10, med, want float64
	}{{2500, 2500, 4000, 0.9}, {4000, 2500, 4000, 0.5}, {0, 2500, 4000, 1}, {0.1, 0.1, 0.25, 0.9}} {
		if got := logNormalScore(tt.value, tt.p10, tt.med); got < tt.want-0.001 || got > tt.want+0.001 {
			t.Errorf("score(%v) = %.3f, want %.3f", tt.value, got, tt.want)
		}
	}
	best, ratings := score(Metrics{FCP: 900, LCP: 1200, TBT: 0, CLS: 0, Painted: true})
	worst, _ := score(Metrics{FCP: 9000, LCP: 20000, TBT: 5000, CLS: 1, Painted: true})
	if best < 98 || worst > 2 || ratings["lcp"] != "good" {
		t.Errorf("best %d, worst %d, ratings %v", best, worst, ratings)
	}
}
