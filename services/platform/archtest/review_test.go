package archtest

import (
	"sort"
	"strconv"
	"strings"
	"testing"
)

// TestReviewEngineStandsAlone: the website-review engine was a floor of
// categories, reading categories' domain from the inside. As its own
// module it imports no service, so it can be run, tested and deployed
// without one; and only categories, which still links it, imports it.
func TestReviewEngineStandsAlone(t *testing.T) {
	services := []string{"users", "categories", "billing", "digest", "stores", "studio"}
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
				for _, s := range services {
					if p == "uplift.dev/"+s || strings.HasPrefix(p, "uplift.dev/"+s+"/") {
						bad = append(bad, f.at(spec)+": the review engine imports "+p)
					}
				}
			case strings.HasPrefix(p, "uplift.dev/review/") && owner != "categories":
				bad = append(bad, f.at(spec)+": "+owner+" links the review engine ("+p+"); only categories does, until it is reached by events and RPCs")
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
