package tracing

import (
	"net/http"
	"strings"

	"go.opentelemetry.io/contrib/instrumentation/google.golang.org/grpc/otelgrpc"
	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	"google.golang.org/grpc/stats"
)

// traced leaves out the calls no one follows in a trace: gRPC health
// (every balancer's watch, every probe) and server reflection. Left in,
// they would be most of the spans and none of the requests.
func traced(info *stats.RPCTagInfo) bool {
	return !strings.HasPrefix(info.FullMethodName, "/grpc.health.") &&
		!strings.HasPrefix(info.FullMethodName, "/grpc.reflection.")
}

// GRPCServerHandler is the stats handler grpcserver installs: a server span
// per call, the child of the caller's span (from the call's traceparent
// metadata).
func GRPCServerHandler() stats.Handler {
	return otelgrpc.NewServerHandler(otelgrpc.WithPropagators(Propagator), otelgrpc.WithFilter(traced))
}

// GRPCClientHandler is the stats handler grpcclient dials with: a client
// span per call, its context sent on in the call's metadata.
func GRPCClientHandler() stats.Handler {
	return otelgrpc.NewClientHandler(otelgrpc.WithPropagators(Propagator), otelgrpc.WithFilter(traced))
}

// HTTPHandler wraps a program's public HTTP handler (the gateway's): a
// server span per request, the child of the browser's traceparent when it
// sends one, named by its method and path, and a traceresponse header (W3C Trace
// Context level 2) on the answer, so a client can find its request's trace.
//
// Probes (/healthz and below) are not traced: they would be most of the
// spans and none of the requests.
func HTTPHandler(h http.Handler, operation string) http.Handler {
	return otelhttp.NewHandler(traceResponse(h), operation,
		otelhttp.WithPropagators(Propagator),
		otelhttp.WithFilter(func(r *http.Request) bool { return !strings.HasPrefix(r.URL.Path, "/healthz") }),
		otelhttp.WithSpanNameFormatter(func(_ string, r *http.Request) string { return r.Method + " " + r.URL.Path }))
}

// traceResponse writes the request's trace id and span id before the
// handler answers, when there is a span (a no-op one that only carries a
// browser's traceparent counts: the id is still the browser's).
func traceResponse(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if tp := TraceParent(r.Context()); tp != "" {
			w.Header().Set("traceresponse", tp)
		}
		h.ServeHTTP(w, r)
	})
}
