package main

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strings"
)

// audits are Lighthouse's binary SEO audits the review reaches a verdict
// on, in the order the table prints them.
var audits = []string{"document-title", "meta-description", "http-status-code", "link-text",
	"crawlable-anchors", "is-crawlable", "hreflang", "canonical", "image-alt"}

// verdicts is page → audit → pass. An audit absent from a page's row was
// not applicable, which Lighthouse scores as a pass.
type verdicts map[string]map[string]bool

// readVerdicts reads the lighthouse-seo.tsv format: a header, then
// "page<TAB>seo score<TAB>audit=1,audit=0,...". It keeps the score column
// so the file can be written back as it was.
func readVerdicts(r io.Reader) (verdicts, map[string]string, error) {
	out, scores := verdicts{}, map[string]string{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	first := true
	for sc.Scan() {
		if first {
			first = false
			continue
		}
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) != 3 {
			return nil, nil, fmt.Errorf("line %q: want 3 tab-separated columns", sc.Text())
		}
		row := map[string]bool{}
		for _, kv := range strings.Split(cols[2], ",") {
			k, v, ok := strings.Cut(kv, "=")
			if !ok || (v != "0" && v != "1") {
				return nil, nil, fmt.Errorf("page %s: %q is not audit=0 or audit=1", cols[0], kv)
			}
			row[k] = v == "1"
		}
		out[cols[0]], scores[cols[0]] = row, cols[1]
	}
	return out, scores, sc.Err()
}

// writeVerdicts writes v in the format readVerdicts reads, pages sorted.
func writeVerdicts(w io.Writer, v verdicts, scores map[string]string) error {
	if _, err := fmt.Fprintln(w, "page\tseo\taudits"); err != nil {
		return err
	}
	pages := make([]string, 0, len(v))
	for p := range v {
		pages = append(pages, p)
	}
	sort.Strings(pages)
	for _, p := range pages {
		var kv []string
		for _, a := range audits {
			if pass, ok := v[p][a]; ok {
				kv = append(kv, a+"="+map[bool]string{true: "1", false: "0"}[pass])
			}
		}
		if _, err := fmt.Fprintf(w, "%s\t%s\t%s\n", p, scores[p], strings.Join(kv, ",")); err != nil {
			return err
		}
	}
	return nil
}

// disagreement is one audit on one page where the two verdicts differ.
type disagreement struct {
	page, audit        string
	review, lighthouse bool
}

// tally is the agreement on one audit across the pages.
type tally struct{ agree, total int }

// compare sets the review's verdicts beside Lighthouse's, audit by audit:
// only audits the review reported on a page count.
func compare(review, lh verdicts) (map[string]tally, []disagreement) {
	byAudit := map[string]tally{}
	var diffs []disagreement
	pages := make([]string, 0, len(review))
	for p := range review {
		pages = append(pages, p)
	}
	sort.Strings(pages)
	for _, p := range pages {
		for _, a := range audits {
			ours, ok := review[p][a]
			if !ok {
				continue
			}
			theirs, ok := lh[p][a]
			if !ok {
				theirs = true
			}
			t := byAudit[a]
			t.total++
			if ours == theirs {
				t.agree++
			} else {
				diffs = append(diffs, disagreement{p, a, ours, theirs})
			}
			byAudit[a] = t
		}
	}
	return byAudit, diffs
}

// printTable writes the agreement per audit, the total, then each
// disagreement with both verdicts.
func printTable(w io.Writer, byAudit map[string]tally, diffs []disagreement, pages int) {
	word := map[bool]string{true: "pass", false: "FAIL"}
	fmt.Fprintf(w, "| audit | agree | pages | %% |\n|---|---:|---:|---:|\n")
	var all tally
	for _, a := range audits {
		t, ok := byAudit[a]
		if !ok {
			continue
		}
		all.agree += t.agree
		all.total += t.total
		fmt.Fprintf(w, "| %s | %d | %d | %.1f |\n", a, t.agree, t.total, pct(t))
	}
	fmt.Fprintf(w, "| **all** | %d | %d | %.1f |\n", all.agree, all.total, pct(all))
	fmt.Fprintf(w, "\n%d pages, %d of %d verdicts agree (%.1f%%)\n", pages, all.agree, all.total, pct(all))
	if len(diffs) > 0 {
		fmt.Fprintln(w, "\ndisagreements:")
	}
	for _, d := range diffs {
		fmt.Fprintf(w, "  %s  %s: review %s, Lighthouse %s\n", d.page, d.audit, word[d.review], word[d.lighthouse])
	}
}

func pct(t tally) float64 {
	if t.total == 0 {
		return 100
	}
	return 100 * float64(t.agree) / float64(t.total)
}
