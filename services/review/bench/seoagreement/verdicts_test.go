package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestVerdictsRoundTrip(t *testing.T) {
	in := "page\tseo\taudits\n" +
		"a.html\t0.75\tdocument-title=1,meta-description=0,canonical=1\n" +
		"b.html\t1\tdocument-title=1\n"
	v, scores, err := readVerdicts(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if !v["a.html"]["canonical"] || v["a.html"]["meta-description"] || scores["a.html"] != "0.75" {
		t.Fatalf("read %v %v", v, scores)
	}
	var out bytes.Buffer
	if err := writeVerdicts(&out, v, scores); err != nil {
		t.Fatal(err)
	}
	// Audits are written in the table's order, not the file's.
	want := "page\tseo\taudits\n" +
		"a.html\t0.75\tdocument-title=1,meta-description=0,canonical=1\n" +
		"b.html\t1\tdocument-title=1\n"
	if out.String() != want {
		t.Errorf("wrote\n%s\nwant\n%s", out.String(), want)
	}
}

func TestReadVerdictsRejectsBadRows(t *testing.T) {
	for _, in := range []string{
		"h\nx.html\t1\n",
		"h\nx.html\t1\tdocument-title=yes\n",
	} {
		if _, _, err := readVerdicts(strings.NewReader(in)); err == nil {
			t.Errorf("%q: no error", in)
		}
	}
}

func TestCompare(t *testing.T) {
	review := verdicts{
		"a.html": {"document-title": true, "canonical": false, "hreflang": true},
		"b.html": {"document-title": false},
	}
	// An audit missing from Lighthouse's row was not applicable: a pass.
	lh := verdicts{
		"a.html": {"document-title": true},
		"b.html": {"document-title": false},
	}
	byAudit, diffs := compare(review, lh)
	if got := byAudit["document-title"]; got != (tally{2, 2}) {
		t.Errorf("document-title %+v", got)
	}
	if got := byAudit["hreflang"]; got != (tally{1, 1}) {
		t.Errorf("hreflang %+v", got)
	}
	if len(diffs) != 1 || diffs[0] != (disagreement{"a.html", "canonical", false, true}) {
		t.Errorf("diffs %+v", diffs)
	}
	var out bytes.Buffer
	printTable(&out, byAudit, diffs, 2)
	for _, want := range []string{"| canonical | 0 | 1 | 0.0 |", "3 of 4 verdicts agree (75.0%)", "a.html  canonical: review FAIL, Lighthouse pass"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, out.String())
		}
	}
}
