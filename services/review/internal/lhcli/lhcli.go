// Package lhcli runs Google Lighthouse's command line on a page, for the
// measurements that put the website review beside Lighthouse (the review
// benchmark and the seoagreement tool). It is never part of a review.
package lhcli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// ChromeFlags are the flags Chromium needs on the build machines.
const ChromeFlags = "--headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update --disable-sync --no-first-run"

// SEO is Lighthouse's SEO category on one page.
type SEO struct {
	// Pass holds each binary audit's verdict.
	Pass map[string]bool
	// NotApplicable names the audits Lighthouse could not apply; its score
	// counts them as passed.
	NotApplicable map[string]bool
	// Score is the category's score (0–1), nil when Lighthouse gave none.
	Score *float64
}

// RunSEO runs bin (Lighthouse's CLI) on url in the Chromium at chrome.
func RunSEO(ctx context.Context, bin, chrome, url string) (SEO, error) {
	tmp, err := os.MkdirTemp("", "lighthouse-")
	if err != nil {
		return SEO{}, err
	}
	defer os.RemoveAll(tmp)
	out := filepath.Join(tmp, "lh.json")
	cmd := exec.CommandContext(ctx, bin, url, "--only-categories=seo", "--output=json", "--output-path="+out, "--quiet",
		"--chrome-flags="+ChromeFlags)
	cmd.Env = append(os.Environ(), "CHROME_PATH="+chrome)
	if msg, err := cmd.CombinedOutput(); err != nil {
		return SEO{}, fmt.Errorf("lighthouse: %v\n%s", err, msg)
	}
	raw, err := os.ReadFile(out)
	if err != nil {
		return SEO{}, err
	}
	return parseSEO(raw)
}

func parseSEO(raw []byte) (SEO, error) {
	var rep struct {
		RuntimeError *struct{ Message string } `json:"runtimeError"`
		Categories   map[string]struct {
			Score *float64 `json:"score"`
		} `json:"categories"`
		Audits map[string]struct {
			Score *float64 `json:"score"`
			Mode  string   `json:"scoreDisplayMode"`
		} `json:"audits"`
	}
	if err := json.Unmarshal(raw, &rep); err != nil {
		return SEO{}, fmt.Errorf("lighthouse: unreadable report: %w", err)
	}
	if rep.RuntimeError != nil {
		return SEO{}, fmt.Errorf("lighthouse: %s", rep.RuntimeError.Message)
	}
	s := SEO{Pass: map[string]bool{}, NotApplicable: map[string]bool{}, Score: rep.Categories["seo"].Score}
	for id, a := range rep.Audits {
		switch {
		case a.Mode == "binary" && a.Score != nil:
			s.Pass[id] = *a.Score == 1
		case a.Mode == "notApplicable":
			s.NotApplicable[id] = true
		}
	}
	return s, nil
}
