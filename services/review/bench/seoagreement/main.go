// Command seoagreement measures how often the website review reaches
// Lighthouse's verdict on Lighthouse's SEO audits, on a folder of saved
// pages: each page is served from loopback, Lighthouse 13's SEO category and
// the review CLI judge the same address, and the verdicts are compared
// audit by audit. Lighthouse's verdicts are kept in the folder's
// lighthouse-seo.tsv (the corpus's format), so a second run after a change
// to the review needs no browser unless -refresh is given.
//
//	make seo-agreement DIR=/path/to/pages
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"uplift.dev/review/internal/lhcli"
)

func main() {
	dir := flag.String("dir", "", "folder of saved pages (*.html); Lighthouse's verdicts are read from and written to its lighthouse-seo.tsv")
	reviewBin := flag.String("review", ".bin/reviewcli", "the review CLI")
	lhBin := flag.String("lighthouse", "services/review/bench/node_modules/.bin/lighthouse", "Lighthouse's CLI")
	chrome := flag.String("chrome", "/usr/bin/chromium", "Chromium for Lighthouse")
	refresh := flag.Bool("refresh", false, "run Lighthouse again on every page, not only on pages lighthouse-seo.tsv lacks")
	min := flag.Float64("min", 0, "exit with status 1 when the agreement is under `PERCENT`")
	flag.Parse()
	if *dir == "" {
		fmt.Fprintln(os.Stderr, "seoagreement: give -dir")
		os.Exit(2)
	}
	if err := run(*dir, *reviewBin, *lhBin, *chrome, *refresh, *min); err != nil {
		fmt.Fprintln(os.Stderr, "seoagreement:", err)
		os.Exit(1)
	}
}

var errUnder = errors.New("agreement under the minimum")

func run(dir, reviewBin, lhBin, chrome string, refresh bool, min float64) error {
	pages, err := filepath.Glob(filepath.Join(dir, "*.html"))
	if err != nil || len(pages) == 0 {
		return fmt.Errorf("no *.html pages in %s", dir)
	}
	sort.Strings(pages)
	tsv := filepath.Join(dir, "lighthouse-seo.tsv")
	lh, scores := verdicts{}, map[string]string{}
	if f, err := os.Open(tsv); err == nil {
		lh, scores, err = readVerdicts(f)
		f.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", tsv, err)
		}
	}
	review := verdicts{}
	changed := false
	for _, path := range pages {
		name := filepath.Base(path)
		body, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		url, stop, err := serve(body)
		if err != nil {
			return err
		}
		if _, ok := lh[name]; !ok || refresh {
			fmt.Fprintf(os.Stderr, "lighthouse %s\n", name)
			v, score, err := lighthouseSEO(lhBin, chrome, url)
			if err != nil {
				stop()
				return fmt.Errorf("%s: %w", name, err)
			}
			lh[name], scores[name], changed = v, score, true
		}
		review[name], err = reviewVerdicts(reviewBin, url)
		stop()
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	if changed {
		f, err := os.Create(tsv)
		if err != nil {
			return err
		}
		if err := writeVerdicts(f, lh, scores); err != nil {
			f.Close()
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
	}
	byAudit, diffs := compare(review, lh)
	printTable(os.Stdout, byAudit, diffs, len(pages))
	var all tally
	for _, t := range byAudit {
		all.agree += t.agree
		all.total += t.total
	}
	if pct(all) < min {
		return fmt.Errorf("%w: %.1f%% < %.1f%%", errUnder, pct(all), min)
	}
	return nil
}

// serve serves body at / on a loopback port, as a store would serve its
// page, and 404 elsewhere (Lighthouse asks for /robots.txt).
func serve(body []byte) (string, func(), error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	srv := &http.Server{ReadHeaderTimeout: 5 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(body)
	})}
	go srv.Serve(ln)
	return "http://" + ln.Addr().String() + "/", func() { srv.Close() }, nil
}

// lighthouseSEO runs Lighthouse's SEO category on url in headless
// Chromium: each binary audit's verdict (a not-applicable audit is left
// out) and the category's score.
func lighthouseSEO(bin, chrome, url string) (map[string]bool, string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	seo, err := lhcli.RunSEO(ctx, bin, chrome, url)
	if err != nil {
		return nil, "", err
	}
	v := map[string]bool{}
	for _, a := range audits {
		if pass, ok := seo.Pass[a]; ok {
			v[a] = pass
		}
	}
	score := ""
	if s := seo.Score; s != nil {
		score = strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.2f", *s), "0"), ".")
	}
	return v, score, nil
}

// reviewVerdicts runs the review CLI on url without the browser metrics
// and returns the verdict of each check that matches a Lighthouse audit.
func reviewVerdicts(bin, url string) (map[string]bool, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--json", "--allow-loopback", "--lab=false", url)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var exit *exec.ExitError
	// Status 1 is a score under --fail-under, which is not asked for here;
	// anything else is a review that did not run.
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) {
		return nil, fmt.Errorf("review: %v: %s", err, stderr.String())
	}
	var rep struct {
		Checks []struct {
			Lighthouse *struct {
				Audit string `json:"audit"`
				Pass  bool   `json:"pass"`
			} `json:"lighthouse"`
		} `json:"checks"`
	}
	if err := json.Unmarshal(out, &rep); err != nil {
		return nil, fmt.Errorf("review --json: %w", err)
	}
	v := map[string]bool{}
	for _, c := range rep.Checks {
		if c.Lighthouse != nil {
			v[c.Lighthouse.Audit] = c.Lighthouse.Pass
		}
	}
	return v, nil
}
