package buildinfo

import (
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
)

// What the linker sets is what the log and the metric say; unset, they
// say so rather than print an empty label.
func TestTheLinkedReleaseIsWhatTheMetricSays(t *testing.T) {
	defer func(v, r string) { version, revision = v, r }(version, revision)
	for _, tc := range []struct{ version, revision, wantV, wantR string }{
		{"", "", "dev", "unknown"},
		{"v1.4.0-3-g1a2b3c4d5e6f", "1a2b3c4d5e6f7a8b9c0d1a2b3c4d5e6f7a8b9c0d-dirty", "v1.4.0-3-g1a2b3c4d5e6f", "1a2b3c4d5e6f7a8b9c0d1a2b3c4d5e6f7a8b9c0d-dirty"},
	} {
		version, revision = tc.version, tc.revision
		if Version() != tc.wantV || Revision() != tc.wantR {
			t.Errorf("linked %q %q: Version %q Revision %q, want %q %q", tc.version, tc.revision, Version(), Revision(), tc.wantV, tc.wantR)
		}
		reg := prometheus.NewPedanticRegistry()
		reg.MustRegister(Collector())
		want := `version="` + tc.wantV + `"`
		families, err := reg.Gather()
		if err != nil {
			t.Fatal(err)
		}
		if n := testutil.CollectAndCount(Collector()); n != 1 {
			t.Errorf("uplift_build_info has %d series, want 1", n)
		}
		var got string
		for _, l := range families[0].GetMetric()[0].GetLabel() {
			got += l.GetName() + `="` + l.GetValue() + `" `
		}
		if !strings.Contains(got, want) || !strings.Contains(got, `revision="`+tc.wantR+`"`) {
			t.Errorf("uplift_build_info labels %s, want %s and revision %s", got, want, tc.wantR)
		}
	}
}
