// Package buildinfo says which release of a program is running: the
// version its service was tagged with and the commit it was built from,
// set at link time by the image build (deploy/containers/images.sh, from
// deploy/version.sh), so a log line or a scrape names what runs. The
// local build (`make build`) leaves them unset ("dev"): stamping each
// commit there would relink every binary on every change.
package buildinfo

import (
	"cmp"
	"runtime"

	"github.com/prometheus/client_golang/prometheus"
)

// Set with -ldflags "-X uplift.dev/platform/buildinfo.version=…
// -X uplift.dev/platform/buildinfo.revision=…". Variables, not constants:
// the linker can only set strings that are variables.
var version, revision string

// Version is the program's release, e.g. v1.4.0 or v1.4.0-3-g1a2b3c4d5e6f
// (three commits to its service's paths since that tag); "dev" when the
// build did not say.
func Version() string { return cmp.Or(version, "dev") }

// Revision is the commit the program was built from (with -dirty when the
// tree had changes), "unknown" when the build did not say.
func Revision() string { return cmp.Or(revision, "unknown") }

// Collector is uplift_build_info: one series, always 1, labelled with the
// version, the revision and the Go version, so a dashboard can tell which
// copies run which release during a rolling deploy.
func Collector() prometheus.Collector {
	g := prometheus.NewGauge(prometheus.GaugeOpts{
		Name:        "uplift_build_info",
		Help:        "The running program's release: version, revision and Go version (always 1).",
		ConstLabels: prometheus.Labels{"version": Version(), "revision": Revision(), "goversion": runtime.Version()},
	})
	g.Set(1)
	return g
}
