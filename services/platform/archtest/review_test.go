package archtest

import (
	"sort"
	"strconv"
	"strings"
	"testing"
)

// TestReviewEngineStandsAlone: the website-review engine was a floor of
// categories, reading categories' domain from the inside, then a module
// categories linked. As a service of its own it imports no other service,
// and other services reach it only by its events and RPCs: outside it,
// nothing but categories imports its module, and then only its domain
// (the review's vocabulary, which categories stores its reports in).
func TestReviewEngineStandsAlone(t *testing.T) {
	var bad []string
	reviewFiles := 0
	for _, f := range serviceFiles(t) {
		owner := f.path[:strings.Index(f.path, "/")]
		if owner == "review" {
			reviewFiles++
		}
		for _, spec := range f.ast.Imports {
			p, _ := strconv.Unquote(spec.Path.Value)
			switch {
			case owner == "review":
				for _, s := range serviceNames(t) {
					if s != "review" && (p == "uplift.dev/"+s || strings.HasPrefix(p, "uplift.dev/"+s+"/")) {
						bad = append(bad, f.at(spec)+": the review service imports "+p)
					}
				}
			case strings.HasPrefix(p, "uplift.dev/review/") && (owner != "categories" || p != "uplift.dev/review/domain"):
				bad = append(bad, f.at(spec)+": "+owner+" links the review service ("+p+"); it is reached by events and RPCs")
			}
		}
	}
	sort.Strings(bad)
	if reviewFiles == 0 {
		t.Fatal("no Go files under services/review; is this test still looking in the right place?")
	}
	if len(bad) > 0 {
		t.Errorf("%d imports across the review engine's edge:\n%s", len(bad), strings.Join(bad, "\n"))
	}
}
