package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"uplift.dev/review/domain"
	"uplift.dev/review/internal/analysis"
	"uplift.dev/review/internal/analysis/lab"
	"uplift.dev/review/internal/analysis/words"
	"uplift.dev/review/internal/analysis/write"
)

// Exit statuses.
const (
	exitOK        = 0
	exitUnder     = 1 // the score is under --fail-under
	exitUsage     = 2 // bad arguments, or a site that cannot be read
	reviewTimeout = 2 * time.Minute
	labTimeout    = 90 * time.Second
)

const usage = `usage: review [--json] [--fail-under N] [--allow-loopback] URL

Reviews a store website: the score out of 100, where every point went, what
to fix, and Lighthouse's verdict for each SEO check that matches one of its
audits. Exit status 1 when the score is under --fail-under.
`

// run is the whole command, apart from the process: arguments in, text
// out, an exit status back, so tests drive it directly.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("reviewcli", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, usage); fs.PrintDefaults() }
	asJSON := fs.Bool("json", false, "print the review as one JSON object")
	failUnder := fs.Int("fail-under", 0, "exit with status 1 when the score is under `N` (0-100)")
	loopback := fs.Bool("allow-loopback", false, "allow a site on 127.0.0.1 or ::1 (a local theme preview); private addresses stay refused")
	withLab := fs.Bool("lab", true, "measure LCP, CLS, FCP and TBT in Chromium (a phone, slow 4G, median of 3 runs)")
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "review: give exactly one URL")
		fs.Usage()
		return exitUsage
	}
	if *failUnder < 0 || *failUnder > 100 {
		fmt.Fprintln(stderr, "review: --fail-under must be between 0 and 100")
		return exitUsage
	}
	ctx, cancel := context.WithTimeout(ctx, reviewTimeout)
	defer cancel()
	// With the browser at hand (--lab), a catalogue drawn by JavaScript is
	// read from the rendered page too.
	a := analysis.New(analysis.Options{AllowLoopback: *loopback, RenderJS: *withLab})
	res, err := a.Analyze(ctx, fs.Arg(0), nil, nil)
	if err != nil {
		msg := err.Error()
		if !*loopback && errors.Is(err, analysis.ErrUnreadable) && (strings.Contains(msg, ": 127.") || strings.Contains(msg, ": ::1")) {
			msg += " (a local preview needs --allow-loopback)"
		}
		fmt.Fprintln(stderr, "review:", msg)
		return exitUsage
	}
	out := toReport(res)
	if *withLab {
		// The browser's requests go through the guarded fetcher's proxy.
		lctx, lcancel := context.WithTimeout(ctx, labTimeout)
		r, err := a.Lab(lctx, res.Review.SiteURL, lab.Options{})
		lcancel()
		switch {
		case err == nil:
			out.Speed.Lab = &r
			out.Speed.Note = "Lab metrics: median of " + words.Plural(len(r.Runs), "run", "runs") + " (up to 3 within 12 s) in Chromium as a phone on slow 4G with a 4x slower CPU, scored on Lighthouse's curves and weights; INP is the lab's estimate (the longest task a tap could meet), rated but not weighed."
		case errors.Is(err, lab.ErrNoBrowser):
			out.Speed.Note = "Chromium was not found, so lab metrics were not measured (set CHROME_PATH)."
		default:
			out.Speed.Note = "Lab metrics could not be measured: " + err.Error()
		}
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			fmt.Fprintln(stderr, "review:", err)
			return exitUsage
		}
	} else {
		writeText(stdout, out)
	}
	if out.Score < *failUnder {
		if !*asJSON {
			fmt.Fprintf(stdout, "\nScore %d is under %d.\n", out.Score, *failUnder)
		}
		return exitUnder
	}
	return exitOK
}

// report is the --json output.
type report struct {
	URL      string           `json:"url"`
	Score    int              `json:"score"`
	Band     string           `json:"band"`
	Checks   []check          `json:"checks"`
	Findings []finding        `json:"findings"`
	Notes    []finding        `json:"notes"`
	Summary  string           `json:"summary"`
	Insights []insight        `json:"insights"`
	Ideas    []write.IdeaText `json:"ideas"`
	Speed    speed            `json:"speed"`
}

type check struct {
	ID         string      `json:"id"`
	Group      string      `json:"group"`
	Earned     int         `json:"earned"`
	Weight     int         `json:"weight"`
	Lighthouse *lighthouse `json:"lighthouse,omitempty"`
}

type lighthouse struct {
	Audit string `json:"audit"`
	Pass  bool   `json:"pass"`
}

type finding struct {
	ID         string `json:"id"`
	Check      string `json:"check"`
	Group      string `json:"group"`
	Title      string `json:"title"`
	URL        string `json:"url"`
	Element    string `json:"element"`
	Why        string `json:"why"`
	Fix        string `json:"fix"`
	PointsLost int    `json:"pointsLost"`
	// Places are every page or resource the issue was found on, when more
	// than one (the first is url and element).
	Places []place `json:"places,omitempty"`
}

type place struct {
	URL     string `json:"url"`
	Element string `json:"element"`
	Fix     string `json:"fix,omitempty"`
}

type insight struct {
	Text     string `json:"text"`
	Evidence string `json:"evidence"`
}

// speed is the speed group of the review and, with --lab, the lab
// metrics from a real browser (null when not measured, the note says why).
type speed struct {
	Earned int         `json:"earned"`
	Weight int         `json:"weight"`
	Lab    *lab.Result `json:"lab"`
	Note   string      `json:"note"`
}

func toReport(res domain.Analysis) report {
	rv := res.Review
	out := report{URL: rv.SiteURL, Score: rv.Score, Band: string(domain.BandOf(rv.Score)), Summary: res.Summary,
		Checks: []check{}, Findings: []finding{}, Notes: []finding{}, Insights: []insight{}, Ideas: []write.IdeaText{},
		Speed: speed{Note: "Measured from the page's HTML and file headers; lab metrics were not asked for (--lab=false)."}}
	for _, c := range rv.Checks {
		ck := check{ID: c.Check, Group: c.Group, Earned: c.Earned, Weight: c.Weight}
		if c.Lighthouse != nil {
			ck.Lighthouse = &lighthouse{Audit: c.Lighthouse.Audit, Pass: c.Lighthouse.Pass}
		}
		out.Checks = append(out.Checks, ck)
		if c.Group == domain.GroupSpeed {
			out.Speed.Earned += c.Earned
			out.Speed.Weight += c.Weight
		}
	}
	conv := func(f domain.Finding) finding {
		out := finding{ID: f.ID, Check: f.Check, Group: f.Group, Title: f.Title, URL: f.URL, Element: f.Element, Why: f.Why, Fix: f.Fix, PointsLost: f.PointsLost}
		for _, p := range f.Places {
			out.Places = append(out.Places, place{URL: p.URL, Element: p.Element, Fix: p.Fix})
		}
		return out
	}
	for _, f := range rv.Findings {
		out.Findings = append(out.Findings, conv(f))
	}
	// Most points first: what to fix first.
	slices.SortStableFunc(out.Findings, func(a, b finding) int { return b.PointsLost - a.PointsLost })
	for _, f := range rv.Notes {
		out.Notes = append(out.Notes, conv(f))
	}
	for _, in := range res.Insights {
		out.Insights = append(out.Insights, insight{Text: in.Text, Evidence: in.Evidence})
	}
	for _, i := range res.Ideas {
		out.Ideas = append(out.Ideas, write.IdeaText{Title: i.Title, WhyNow: i.WhyNow, Channel: i.Channel, SubjectLine: i.SubjectLine,
			Body: i.Body, Products: append([]string{}, i.Products...), Timing: i.Timing})
	}
	return out
}

// writeText prints the review for a person reading a terminal or a CI log.
func writeText(w io.Writer, r report) {
	fmt.Fprintf(w, "%s\nScore %d/100 (%s)\n\n", r.URL, r.Score, r.Band)
	for _, g := range []string{domain.GroupSearch, domain.GroupSpeed, domain.GroupMobile, domain.GroupTrust, domain.GroupConversion} {
		earned, weight := 0, 0
		for _, c := range r.Checks {
			if c.Group == g {
				earned, weight = earned+c.Earned, weight+c.Weight
			}
		}
		fmt.Fprintf(w, "  %-11s %2d/%d\n", g, earned, weight)
	}
	if l := r.Speed.Lab; l != nil && !l.Median.Painted {
		fmt.Fprintf(w, "\nLab speed %d/100: the page painted nothing in %.0f s as a phone on slow 4G (median of %s).\n",
			l.Score, l.Median.FCP/1000, words.Plural(len(l.Runs), "run", "runs"))
	} else if l != nil {
		m := l.Median
		fmt.Fprintf(w, "\nLab speed %d/100 (median of %s, phone on slow 4G):\n  LCP %.1f s (%s) %s\n  CLS %.2f (%s) %s\n  FCP %.1f s (%s)\n  Speed Index %.1f s (%s)\n  TBT %.0f ms (%s)\n  INP (lab estimate) %.0f ms (%s)\n  %d KB transferred\n",
			l.Score, words.Plural(len(l.Runs), "run", "runs"), m.LCP/1000, l.Ratings["lcp"], m.LCPElement, m.CLS, l.Ratings["cls"], strings.Join(m.Shifted, ", "),
			m.FCP/1000, l.Ratings["fcp"], m.SpeedIndex/1000, words.FirstNonEmpty(l.Ratings["si"], "not read"), m.TBT, l.Ratings["tbt"], m.INP, l.Ratings["inp"], m.Bytes>>10)
	} else {
		fmt.Fprintf(w, "\n%s\n", r.Speed.Note)
	}
	fmt.Fprintln(w, "\nLighthouse SEO audits:")
	for _, c := range r.Checks {
		if c.Lighthouse != nil {
			fmt.Fprintf(w, "  %-18s %s\n", c.Lighthouse.Audit, map[bool]string{true: "pass", false: "FAIL"}[c.Lighthouse.Pass])
		}
	}
	if len(r.Findings) == 0 {
		fmt.Fprintln(w, "\nNothing to fix.")
	} else {
		fmt.Fprintf(w, "\nTo fix (%d), most points first:\n", len(r.Findings))
	}
	for _, f := range r.Findings {
		if len(f.Places) == 0 {
			fmt.Fprintf(w, "\n- %s (−%d, %s)\n  %s\n  %s\n  Why: %s\n  Fix: %s\n", f.Title, f.PointsLost, f.Check, f.URL, f.Element, f.Why, f.Fix)
			continue
		}
		fmt.Fprintf(w, "\n- %s (−%d, %s)\n  Why: %s\n  Fix: %s\n", f.Title, f.PointsLost, f.Check, f.Why, f.Fix)
		for _, p := range f.Places {
			fmt.Fprintf(w, "  · %s  %s\n", p.URL, p.Element)
			if p.Fix != "" {
				fmt.Fprintf(w, "    %s\n", p.Fix)
			}
		}
	}
	if len(r.Notes) > 0 {
		fmt.Fprintf(w, "\nNotes (no points lost):\n")
		for _, n := range r.Notes {
			fmt.Fprintf(w, "- %s: %s\n", n.Title, n.URL)
		}
	}
	if r.Summary != "" {
		fmt.Fprintf(w, "\nSummary: %s\n", r.Summary)
	}
	if len(r.Ideas) > 0 {
		fmt.Fprintln(w, "\nCampaign ideas:")
		for _, i := range r.Ideas {
			fmt.Fprintf(w, "- %s (%s): %s\n", i.Title, i.Channel, i.Timing)
		}
	}
}
