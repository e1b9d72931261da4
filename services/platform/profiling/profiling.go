// Package profiling mounts Go's profiles (net/http/pprof) on a mux. Only
// the internal metrics addresses mount it — never a public port — since a
// profile shows the code's hot paths and can take seconds of CPU.
package profiling

import (
	"net/http"
	"net/http/pprof"
)

// Mount serves /debug/pprof/ (index, heap, goroutine, allocs, …),
// /debug/pprof/profile (CPU) and /debug/pprof/trace on mux.
func Mount(mux *http.ServeMux) {
	mux.HandleFunc("GET /debug/pprof/", pprof.Index)
	mux.HandleFunc("GET /debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("GET /debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("GET /debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("GET /debug/pprof/trace", pprof.Trace)
}
