// Package lab measures a page's speed in a real browser, the way
// Lighthouse's lab run does: Debian's Chromium driven over the DevTools
// protocol, a phone's screen, a slow 4G network and a 4× slower CPU, each
// run in a fresh tab with the cache off, the median of the runs kept. It
// reads LCP (and its element), CLS (and the elements that moved), FCP, TBT
// (the lab's stand-in for INP), Speed Index (from the screen as it was
// painted, frame by frame), an INP proxy (the longest task a tap could
// meet after the first paint, Lighthouse's "max potential first input
// delay") and the bytes transferred, and scores them on Lighthouse's
// published curves and weights.
//
// The browser is heavy: this package is meant to run in a review worker,
// apart from the API.
package lab

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"slices"
	"sync/atomic"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// Lighthouse's default mobile conditions (its "slow 4G" and "moto g power").
const (
	latencyMs     = 150 * 3.75      // round trip, as DevTools throttling applies it
	downloadBps   = 1.6e6 * 0.9 / 8 // 1.6 Mbit/s
	uploadBps     = 750e3 * 0.9 / 8 // 750 kbit/s
	cpuSlowdown   = 4               // a mid-range phone's CPU
	screenWidth   = 412             // CSS pixels
	screenHeight  = 823             //
	screenDPR     = 1.75            //
	settleAfterLd = 2 * time.Second // late shifts and long tasks after load still count
	mobileUA      = "Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36 UpliftBot/1.0"
)

// ErrNoBrowser means Chromium is not installed where Options says, or
// would not start.
var ErrNoBrowser = errors.New("no Chromium to measure with")

// slot lets one Chromium run at a time in a process: on a machine of two
// cores, two browsers measuring at once slow each other down and both
// report a slower page than the store has.
var slot = make(chan struct{}, 1)

// take waits for the browser slot; the returned func gives it back.
func take(ctx context.Context) (func(), error) {
	select {
	case slot <- struct{}{}:
		return func() { <-slot }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Options choose the browser, how many runs and how long they may take.
type Options struct {
	ExecPath string        // Chromium; default $CHROME_PATH, else /usr/bin/chromium
	Runs     int           // default 3; the median is kept
	Timeout  time.Duration // one run, default 10 s: what has painted by then is measured
	// Budget bounds all the runs together (default 12 s, so a whole review
	// with lab metrics stays within 15 s): when another run
	// would not fit, the median is of the runs made, and Result says how many.
	Budget time.Duration
	// Proxy ("127.0.0.1:port") carries every request the browser makes,
	// loopback included; the review passes the guarded fetcher's proxy so
	// the browser reaches only what the fetcher may.
	Proxy string
}

// Metrics are one run's measurements (times in milliseconds from the
// start of navigation).
type Metrics struct {
	FCP float64 `json:"fcpMs"`
	LCP float64 `json:"lcpMs"`
	CLS float64 `json:"cls"`
	TBT float64 `json:"tbtMs"`
	// SpeedIndex is how quickly the screen fills in (0 when the browser
	// sent no frames to read it from); INP is the lab's proxy for
	// Interaction to Next Paint.
	SpeedIndex float64 `json:"speedIndexMs"`
	INP        float64 `json:"inpMs"`
	Bytes      int64   `json:"bytes"`
	LCPElement string  `json:"lcpElement,omitempty"`
	// Painted is false when the page painted nothing before the run's time
	// was up; FCP and LCP are then that time (a floor, scored as such),
	// never a zero that would read as instant.
	Painted bool     `json:"painted"`
	Shifted []string `json:"shifted,omitempty"` // elements that moved, largest shift first
}

// Result is a page's lab measurement: the median run, every run, the
// 0–100 score and each metric's rating against web.dev's thresholds.
type Result struct {
	URL     string            `json:"url"`
	Median  Metrics           `json:"median"`
	Runs    []Metrics         `json:"runs"`
	Score   int               `json:"score"`
	Ratings map[string]string `json:"ratings"` // metric → good, needs-improvement or poor
}

// browser finds Chromium: ExecPath, else $CHROME_PATH, else Debian's.
func (o *Options) browser() error {
	if o.ExecPath == "" {
		o.ExecPath = os.Getenv("CHROME_PATH")
	}
	if o.ExecPath == "" {
		o.ExecPath = "/usr/bin/chromium"
	}
	if _, err := exec.LookPath(o.ExecPath); err != nil {
		return fmt.Errorf("%w: %v", ErrNoBrowser, err)
	}
	return nil
}

// flags are the browser's: headless and quiet on a closed network, and
// with a proxy, every request through it.
func (o Options) flags() []chromedp.ExecAllocatorOption {
	flags := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(o.ExecPath), chromedp.Headless, chromedp.NoFirstRun, chromedp.NoSandbox,
		chromedp.Flag("disable-gpu", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true), chromedp.Flag("disable-extensions", true),
	}
	if o.Proxy != "" {
		// "<-loopback>" takes away Chromium's implicit bypass of localhost,
		// so loopback addresses meet the proxy's policy too.
		flags = append(flags, chromedp.ProxyServer("http://"+o.Proxy), chromedp.Flag("proxy-bypass-list", "<-loopback>"))
	}
	return flags
}

// Measure loads url Runs times and returns the median. url is reached
// directly by the browser: callers check it with the guarded fetcher first.
func Measure(ctx context.Context, url string, o Options) (Result, error) {
	if err := o.browser(); err != nil {
		return Result{}, err
	}
	if o.Runs <= 0 {
		o.Runs = 3
	}
	if o.Timeout <= 0 {
		o.Timeout = 10 * time.Second
	}
	if o.Budget <= 0 {
		o.Budget = 12 * time.Second
	}
	give, err := take(ctx)
	if err != nil {
		return Result{}, err
	}
	defer give()
	start := time.Now() // the budget is the browser's, not the wait for it
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(ctx, o.flags()...)
	defer cancelAlloc()
	browser, cancelBrowser := chromedp.NewContext(allocCtx)
	defer cancelBrowser()
	if err := chromedp.Do(browser); err != nil { // starts the browser
		return Result{}, fmt.Errorf("%w: starting Chromium: %v", ErrNoBrowser, err)
	}
	res := Result{URL: url}
	var last time.Duration
	for range o.Runs {
		left := o.Budget - time.Since(start)
		if len(res.Runs) > 0 && last > left {
			break // another run would not fit in the budget
		}
		began := time.Now()
		m, err := run(browser, url, min(o.Timeout, max(left, time.Second)))
		if err != nil {
			return Result{}, err
		}
		last = time.Since(began)
		res.Runs = append(res.Runs, m)
	}
	res.Median = median(res.Runs)
	res.Score, res.Ratings = score(res.Median)
	return res, nil
}

// run measures one load in a fresh tab.
func run(browser context.Context, url string, timeout time.Duration) (Metrics, error) {
	tab, cancelTab := chromedp.NewContext(browser)
	defer cancelTab()
	var bytes atomic.Int64
	var film filmstrip
	var target *chromedp.Target
	if err := chromedp.Listen(tab, func(ev any) {
		switch e := ev.(type) {
		case *network.EventLoadingFinished:
			bytes.Add(int64(e.EncodedDataLength))
		case *page.EventScreencastFrame:
			film.add(e)
			// The next frame comes only once this one is acknowledged;
			// a listener must not block, so the ack goes on its own.
			if t := target; t != nil {
				go func() {
					_, _ = cdp.Call(tab, t, page.ScreencastFrameAck, page.ScreencastFrameAckParams{SessionID: e.SessionID})
				}()
			}
		}
	}); err != nil {
		return Metrics{}, err
	}
	setup := chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		target = t
		steps := []func() error{
			func() error { _, err := cdp.Call(ctx, t, network.Enable, network.EnableParams{}); return err },
			func() error {
				_, err := cdp.Call(ctx, t, network.SetCacheDisabled, network.SetCacheDisabledParams{CacheDisabled: true})
				return err
			},
			func() error {
				_, err := cdp.Call(ctx, t, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{
					MatchedNetworkConditions: []*network.Conditions{{Latency: latencyMs, DownloadThroughput: downloadBps, UploadThroughput: uploadBps}}})
				return err
			},
			func() error {
				_, err := cdp.Call(ctx, t, emulation.SetCPUThrottlingRate, emulation.SetCPUThrottlingRateParams{Rate: cpuSlowdown})
				return err
			},
			func() error {
				_, err := cdp.Call(ctx, t, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{
					Width: screenWidth, Height: screenHeight, DeviceScaleFactor: screenDPR, Mobile: true})
				return err
			},
			func() error {
				_, err := cdp.Call(ctx, t, emulation.SetUserAgentOverride, emulation.SetUserAgentOverrideParams{UserAgent: mobileUA})
				return err
			},
			func() error {
				_, err := cdp.Call(ctx, t, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: observer})
				return err
			},
			func() error {
				// Small frames are enough to see how much of the screen is
				// painted, and cheap to read back.
				_, err := cdp.Call(ctx, t, page.StartScreencast, page.StartScreencastParams{
					Format: page.StartScreencastFormatJpeg, MaxWidth: filmWidth, MaxHeight: filmWidth * screenHeight / screenWidth, EveryNthFrame: 1})
				return err
			},
		}
		for _, s := range steps {
			if err := s(); err != nil {
				return err
			}
		}
		return nil
	})
	if err := chromedp.Do(tab, setup); err != nil {
		return Metrics{}, fmt.Errorf("setting up the tab: %w", err)
	}
	began := time.Now()
	ctx, cancel := context.WithTimeout(tab, timeout)
	defer cancel()
	// A page whose load event never comes (a third-party host that hangs)
	// is measured as it stands when the run's time is up.
	if err := chromedp.Do(ctx, chromedp.Navigate(url), chromedp.Sleep(settleAfterLd)); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return Metrics{}, fmt.Errorf("loading %s: %w", url, err)
	}
	rctx, rcancel := context.WithTimeout(tab, 3*time.Second)
	defer rcancel()
	raw, err := chromedp.Run(rctx, chromedp.Evaluate[string](`JSON.stringify(window.__upliftLab ? window.__upliftLab.read() : {})`))
	if err != nil {
		return Metrics{}, fmt.Errorf("reading the metrics: %w", err)
	}
	var m Metrics
	if err := json.Unmarshal([]byte(raw), &m); err != nil {
		return Metrics{}, fmt.Errorf("reading the metrics: %w", err)
	}
	var origin struct {
		Origin float64 `json:"origin"`
	}
	_ = json.Unmarshal([]byte(raw), &origin)
	m.Bytes = bytes.Load()
	m.Painted = m.FCP > 0
	if m.Painted {
		m.SpeedIndex = film.speedIndex(origin.Origin, m.FCP)
	}
	if !m.Painted {
		waited := float64(time.Since(began).Milliseconds())
		m.FCP, m.LCP = waited, waited
	}
	return m, nil
}

// observer runs in the page before its own scripts and records what
// Lighthouse reads from the trace: paints, the largest contentful paint,
// layout shifts (in session windows) and long tasks.
const observer = `(() => {
  const lab = {fcp: 0, lcp: 0, lcpEl: '', shifts: [], tasks: []};
  const describe = (el) => {
    if (!el || !el.tagName) return '';
    let s = el.tagName.toLowerCase();
    if (el.id) s += '#' + el.id;
    else if (el.classList && el.classList.length) s += '.' + [...el.classList].slice(0, 2).join('.');
    const src = el.currentSrc || el.src;
    if (src) s += ' (' + String(src).split('/').pop().slice(0, 60) + ')';
    else {
      // A text block is named by its first words, so an owner can find it.
      const text = (el.textContent || '').replace(/\s+/g, ' ').trim();
      if (text) s += ' "' + (text.length > 48 ? text.slice(0, 47) + '…' : text) + '"';
    }
    return s;
  };
  const watch = (type, fn) => { try { new PerformanceObserver((l) => l.getEntries().forEach(fn)).observe({type, buffered: true}); } catch (e) {} };
  watch('paint', (e) => { if (e.name === 'first-contentful-paint') lab.fcp = e.startTime; });
  watch('largest-contentful-paint', (e) => { lab.lcp = e.renderTime || e.loadTime || e.startTime; lab.lcpEl = describe(e.element); });
  watch('layout-shift', (e) => { if (!e.hadRecentInput) lab.shifts.push({t: e.startTime, v: e.value, who: (e.sources || []).map((s) => describe(s.node)).filter(Boolean)}); });
  watch('longtask', (e) => lab.tasks.push({t: e.startTime, d: e.duration}));
  window.__upliftLab = {read: () => {
    let cls = 0, win = 0, first = 0, last = 0;
    const moved = [];
    for (const s of lab.shifts) {
      if (win && s.t - last < 1000 && s.t - first < 5000) { win += s.v; last = s.t; } else { win = s.v; first = last = s.t; }
      cls = Math.max(cls, win);
    }
    [...lab.shifts].sort((a, b) => b.v - a.v).forEach((s) => s.who.forEach((w) => { if (!moved.includes(w)) moved.push(w); }));
    let tbt = 0, longest = 0;
    for (const t of lab.tasks) {
      if (t.t + t.d > lab.fcp) { tbt += Math.max(0, t.d - 50); longest = Math.max(longest, t.d); }
    }
    return {fcpMs: lab.fcp, lcpMs: lab.lcp || lab.fcp, cls, tbtMs: tbt, inpMs: longest, lcpElement: lab.lcpEl,
      shifted: moved.slice(0, 5), origin: performance.timeOrigin};
  }};
})();`

// median keeps, for each metric, the middle of the runs; the LCP element
// and the shifted elements come from the run with the median LCP.
func median(runs []Metrics) Metrics {
	mid := func(f func(Metrics) float64) float64 {
		v := make([]float64, len(runs))
		for i, r := range runs {
			v[i] = f(r)
		}
		slices.Sort(v)
		return v[len(v)/2]
	}
	m := Metrics{
		FCP: mid(func(r Metrics) float64 { return r.FCP }), LCP: mid(func(r Metrics) float64 { return r.LCP }),
		CLS: mid(func(r Metrics) float64 { return r.CLS }), TBT: mid(func(r Metrics) float64 { return r.TBT }),
		SpeedIndex: mid(func(r Metrics) float64 { return r.SpeedIndex }), INP: mid(func(r Metrics) float64 { return r.INP }),
		Bytes: int64(mid(func(r Metrics) float64 { return float64(r.Bytes) })),
	}
	m.Painted = m.FCP > 0 && slices.ContainsFunc(runs, func(r Metrics) bool { return r.Painted && r.FCP == m.FCP })
	for _, r := range runs {
		if r.LCP == m.LCP {
			m.LCPElement, m.Shifted = r.LCPElement, r.Shifted
			break
		}
	}
	return m
}

// curve is one metric's Lighthouse scoring curve (log-normal, from the
// value scoring 0.9 and the median scoring 0.5), its weight in the
// performance score, and web.dev's good and poor thresholds.
type curve struct {
	name             string
	p10, med, weight float64
	good, poor       float64
	value            func(Metrics) float64
}

// curves are Lighthouse 10+'s mobile curves and weights (summing to 100).
// The INP proxy is rated on web.dev's INP thresholds but weighs nothing,
// as INP has no weight in Lighthouse's lab score. A Speed Index that
// could not be read (no frames) is left out and the other weights are
// scaled up to 100.
var curves = []curve{
	{"fcp", 1800, 3000, 10, 1800, 3000, func(m Metrics) float64 { return m.FCP }},
	{"si", 3387, 5800, 10, 3387, 5800, func(m Metrics) float64 { return m.SpeedIndex }},
	{"lcp", 2500, 4000, 25, 2500, 4000, func(m Metrics) float64 { return m.LCP }},
	{"tbt", 200, 600, 30, 200, 600, func(m Metrics) float64 { return m.TBT }},
	{"cls", 0.1, 0.25, 25, 0.1, 0.25, func(m Metrics) float64 { return m.CLS }},
	{"inp", 200, 500, 0, 200, 500, func(m Metrics) float64 { return m.INP }},
}

// logNormalScore is Lighthouse's metric score: 1 at zero, 0.9 at p10, 0.5
// at the median, falling towards 0.
func logNormalScore(value, p10, med float64) float64 {
	if value <= 0 {
		return 1
	}
	const inverseErfcOneFifth = 0.9061938024368232 // erfc(x) = 0.2
	standardized := math.Log(value/med) * inverseErfcOneFifth / -math.Log(p10/med)
	return min(1, max(0, math.Erfc(standardized)/2))
}

func score(m Metrics) (int, map[string]string) {
	total, weights := 0.0, 0.0
	ratings := map[string]string{}
	for _, c := range curves {
		v := c.value(m)
		if c.name == "si" && m.Painted && v <= 0 {
			continue // not read: neither rated nor weighed
		}
		weights += c.weight
		if !m.Painted && (c.name == "fcp" || c.name == "lcp" || c.name == "si") {
			ratings[c.name] = "poor" // nothing painted: as bad as it gets, like Lighthouse's NO_FCP
			continue
		}
		total += c.weight * logNormalScore(v, c.p10, c.med)
		switch {
		case v <= c.good:
			ratings[c.name] = "good"
		case v <= c.poor:
			ratings[c.name] = "needs-improvement"
		default:
			ratings[c.name] = "poor"
		}
	}
	return int(math.Round(100 * total / weights)), ratings
}

// Render loads url in the browser as a desktop would, without throttling,
// and returns the DOM after its scripts have run: for stores whose pages
// show their products only with JavaScript.
func Render(ctx context.Context, url string, o Options) (string, error) {
	if err := o.browser(); err != nil {
		return "", err
	}
	if o.Timeout <= 0 {
		o.Timeout = 10 * time.Second
	}
	give, err := take(ctx)
	if err != nil {
		return "", err
	}
	defer give()
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(ctx, o.flags()...)
	defer cancelAlloc()
	tab, cancelTab := chromedp.NewContext(allocCtx)
	defer cancelTab()
	if err := chromedp.Do(tab); err != nil {
		return "", fmt.Errorf("%w: starting Chromium: %v", ErrNoBrowser, err)
	}
	nctx, cancel := context.WithTimeout(tab, o.Timeout)
	defer cancel()
	if err := chromedp.Do(nctx, chromedp.Navigate(url), chromedp.Sleep(time.Second)); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return "", fmt.Errorf("loading %s: %w", url, err)
	}
	rctx, rcancel := context.WithTimeout(tab, 3*time.Second)
	defer rcancel()
	return chromedp.Run(rctx, chromedp.Evaluate[string](`document.documentElement.outerHTML`))
}
