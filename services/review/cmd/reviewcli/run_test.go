package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"uplift.dev/review/internal/analysis/lab/labtest"
)

// store serves a small store: a home page with a few real problems (no
// meta description, a "click here" link, an image without alt text).
func store(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!doctype html><html lang="en"><head><title>Juniper Candle Co. – Hand-poured soy candles</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head><body>
<h1>Hand-poured soy candles</h1><img src="/hero.jpg"><a href="/about">click here</a>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Fig Leaf","offers":{"price":"28","priceCurrency":"USD"}}</script>
</body></html>`)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func runCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(context.Background(), args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestJSONHasEveryFieldAndLighthouseVerdicts(t *testing.T) {
	srv := store(t)
	code, out, errOut := runCLI(t, "--json", "--lab=false", "--allow-loopback", srv.URL)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	for _, k := range []string{"score", "band", "checks", "findings", "summary", "insights", "ideas", "speed"} {
		if _, ok := got[k]; !ok {
			t.Errorf("JSON lacks %q", k)
		}
	}
	var r report
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	verdicts := map[string]bool{}
	sum := 0
	for _, c := range r.Checks {
		if c.ID == "" || c.Group == "" || c.Weight <= 0 || c.Earned < 0 || c.Earned > c.Weight {
			t.Errorf("bad check %+v", c)
		}
		sum += c.Earned
		if c.Lighthouse != nil {
			verdicts[c.Lighthouse.Audit] = c.Lighthouse.Pass
		}
	}
	if sum != r.Score {
		t.Errorf("checks earn %d, score %d", sum, r.Score)
	}
	want := map[string]bool{"document-title": true, "meta-description": false, "link-text": false, "image-alt": false,
		"crawlable-anchors": true, "is-crawlable": true, "hreflang": true, "http-status-code": true, "canonical": true}
	for audit, pass := range want {
		if got, ok := verdicts[audit]; !ok || got != pass {
			t.Errorf("lighthouse %s = %v (present %v), want %v", audit, got, ok, pass)
		}
	}
	if r.Band == "" || r.Summary == "" || len(r.Ideas) < 3 || len(r.Findings) == 0 {
		t.Errorf("incomplete review: band %q, summary %q, %d ideas, %d findings", r.Band, r.Summary, len(r.Ideas), len(r.Findings))
	}
	if !strings.Contains(string(got["speed"]), `"lab": null`) {
		t.Errorf("speed should say lab metrics are not measured: %s", got["speed"])
	}
}

func TestFailUnderSetsTheExitStatus(t *testing.T) {
	srv := store(t)
	code, out, _ := runCLI(t, "--lab=false", "--fail-under", "100", "--allow-loopback", srv.URL)
	if code != exitUnder || !strings.Contains(out, "is under 100") {
		t.Errorf("exit %d under --fail-under 100:\n%s", code, out)
	}
	code, out, _ = runCLI(t, "--lab=false", "--fail-under", "1", "--allow-loopback", srv.URL)
	if code != exitOK || !strings.Contains(out, "Score ") || !strings.Contains(out, "link-text") {
		t.Errorf("exit %d under --fail-under 1:\n%s", code, out)
	}
}

func TestLoopbackOnlyWhenAllowed(t *testing.T) {
	srv := store(t)
	code, _, errOut := runCLI(t, srv.URL)
	if code != exitUsage || !strings.Contains(errOut, "--allow-loopback") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	// --allow-loopback opens loopback only: private addresses stay refused.
	code, _, errOut = runCLI(t, "--allow-loopback", "http://10.0.0.1/")
	if code != exitUsage || !strings.Contains(errOut, "not a public internet address") {
		t.Errorf("private address: exit %d, stderr %q", code, errOut)
	}
}

func TestBadArguments(t *testing.T) {
	for _, args := range [][]string{{}, {"a", "b"}, {"--fail-under", "x", "u"}, {"--fail-under", "101", "u"}, {"--nope", "u"}, {"ftp://shop.example/"}} {
		if code, _, errOut := runCLI(t, args...); code != exitUsage || errOut == "" {
			t.Errorf("%q: exit %d, stderr %q", args, code, errOut)
		}
	}
}

func TestLabMetricsInTheJSON(t *testing.T) {
	labtest.Chromium(t)
	srv := store(t)
	code, out, errOut := runCLI(t, "--json", "--allow-loopback", srv.URL)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r report
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	// Up to 3 runs, as many as fit in the lab's time budget.
	if r.Speed.Lab == nil || len(r.Speed.Lab.Runs) < 1 || len(r.Speed.Lab.Runs) > 3 || r.Speed.Lab.Median.FCP <= 0 || r.Speed.Lab.Score <= 0 {
		t.Errorf("lab metrics missing: %+v (%s)", r.Speed.Lab, r.Speed.Note)
	}
	// Speed Index is read from the frames: at or after the first paint.
	if m := r.Speed.Lab.Median; m.SpeedIndex < m.FCP || r.Speed.Lab.Ratings["si"] == "" || r.Speed.Lab.Ratings["inp"] == "" {
		t.Errorf("Speed Index %.0f ms against FCP %.0f ms, ratings %v", m.SpeedIndex, m.FCP, r.Speed.Lab.Ratings)
	}
	if strings.Contains(r.Speed.Note, "not measured") {
		t.Errorf("the note says something is not measured: %s", r.Speed.Note)
	}
}
