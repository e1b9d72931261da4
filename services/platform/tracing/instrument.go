package tracing

import (
	"context"
	"net/http"
	"strings"

	"go.opentelemetry.io/contrib/instrumentation/google.golang.org/grpc/otelgrpc"
	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/stats"
)

// traced leaves out the calls no one follows in a trace: gRPC health
// (every balancer's watch, every probe) and server reflection. Left in,
// they would be most of the spans and none of the requests.
func traced(info *stats.RPCTagInfo) bool {
	return !strings.HasPrefix(info.FullMethodName, "/grpc.health.") &&
		!strings.HasPrefix(info.FullMethodName, "/grpc.reflection.")
}

// GRPCServerOption is what grpcserver installs. Tracing on (Start with an
// endpoint, before the server is made): otelgrpc's stats handler, a server
// span per call, the child of the caller's span (from the call's
// traceparent metadata). Off: only the caller's traceparent is taken into
// the context, so the trace id still reaches the logs and the calls the
// handler makes, at the cost of one metadata lookup.
func GRPCServerOption() grpc.ServerOption {
	if on.Load() {
		return grpc.StatsHandler(otelgrpc.NewServerHandler(otelgrpc.WithPropagators(Propagator), otelgrpc.WithFilter(traced)))
	}
	return grpc.ChainUnaryInterceptor(func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, next grpc.UnaryHandler) (any, error) {
		return next(fromMetadata(ctx), req)
	})
}

// GRPCStreamServerOption is GRPCServerOption's stream half when tracing is
// off (nil when on: the stats handler covers streams too).
func GRPCStreamServerOption() grpc.ServerOption {
	if on.Load() {
		return nil
	}
	return grpc.ChainStreamInterceptor(func(srv any, ss grpc.ServerStream, _ *grpc.StreamServerInfo, next grpc.StreamHandler) error {
		if ctx := fromMetadata(ss.Context()); ctx != ss.Context() {
			ss = &streamWithContext{ServerStream: ss, ctx: ctx}
		}
		return next(srv, ss)
	})
}

// GRPCDialOption is what grpcclient dials with. On: otelgrpc's stats
// handler, a client span per call, its context sent in the call's
// metadata. Off: the context's span (a caller's traceparent) is passed on
// in the metadata, nothing is recorded.
func GRPCDialOption() grpc.DialOption {
	if on.Load() {
		return grpc.WithStatsHandler(otelgrpc.NewClientHandler(otelgrpc.WithPropagators(Propagator), otelgrpc.WithFilter(traced)))
	}
	return grpc.WithChainUnaryInterceptor(func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		return invoker(toMetadata(ctx), method, req, reply, cc, opts...)
	})
}

// GRPCStreamDialOption is GRPCDialOption's stream half when tracing is off.
func GRPCStreamDialOption() grpc.DialOption {
	if on.Load() {
		return grpc.EmptyDialOption{}
	}
	return grpc.WithChainStreamInterceptor(func(ctx context.Context, desc *grpc.StreamDesc, cc *grpc.ClientConn, method string, streamer grpc.Streamer, opts ...grpc.CallOption) (grpc.ClientStream, error) {
		return streamer(toMetadata(ctx), desc, cc, method, opts...)
	})
}

// fromMetadata takes an incoming call's traceparent (and tracestate) into ctx.
func fromMetadata(ctx context.Context) context.Context {
	md, _ := metadata.FromIncomingContext(ctx)
	tp := md.Get("traceparent")
	if len(tp) == 0 {
		return ctx
	}
	c := propagation.MapCarrier{"traceparent": tp[0]}
	if ts := md.Get("tracestate"); len(ts) > 0 {
		c["tracestate"] = ts[0]
	}
	return propagation.TraceContext{}.Extract(ctx, c)
}

// toMetadata puts ctx's span context on the outgoing call.
func toMetadata(ctx context.Context) context.Context {
	if !trace.SpanContextFromContext(ctx).IsValid() {
		return ctx
	}
	c := propagation.MapCarrier{}
	propagation.TraceContext{}.Inject(ctx, c)
	kv := make([]string, 0, 4)
	for k, v := range c {
		kv = append(kv, k, v)
	}
	return metadata.AppendToOutgoingContext(ctx, kv...)
}

type streamWithContext struct {
	grpc.ServerStream
	ctx context.Context
}

func (s *streamWithContext) Context() context.Context { return s.ctx }

// HTTPHandler wraps a program's public HTTP handler (the gateway's). On: a
// server span per request (otelhttp), the child of the browser's
// traceparent when it sends one, named by its method and path. Off: only
// the browser's traceparent is taken into the request's context. Either
// way the answer carries a traceresponse header (W3C Trace Context level
// 2) when there is a trace, so a client can find its request's trace.
//
// Probes (/healthz and below) are not traced: they would be most of the
// spans and none of the requests.
func HTTPHandler(h http.Handler, operation string) http.Handler {
	if !on.Load() {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("traceparent") != "" {
				r = r.WithContext(Propagator.Extract(r.Context(), propagation.HeaderCarrier(r.Header)))
			}
			traceResponse(h).ServeHTTP(w, r)
		})
	}
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
