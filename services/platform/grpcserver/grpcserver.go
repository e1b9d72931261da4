// Package grpcserver runs a service's gRPC server the same way everywhere:
// panic recovery, structured access logs, Prometheus metrics, error messages
// cut to a bounded length, Go profiles on the internal metrics port, mutual
// TLS (mtls), backends admitted by their grants, token auth (revocation
// checked, verdicts cached for auth.RevocationCheckTTL), refusal of input no
// service can store (NUL bytes, invalid UTF-8, text over its kind's bound),
// a trace span per call (tracing), gRPC health, an internal port with /metrics, /healthz, and plaintext gRPC
// health and server reflection, and a graceful stop.
package grpcserver

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"runtime/debug"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/keepalive"
	"google.golang.org/grpc/reflection"
	reflectionpb "google.golang.org/grpc/reflection/grpc_reflection_v1"
	"google.golang.org/grpc/status"

	"uplift.dev/platform/auth"
	"uplift.dev/platform/buildinfo"
	"uplift.dev/platform/clock"
	"uplift.dev/platform/mtls"
	"uplift.dev/platform/profiling"
	"uplift.dev/platform/tracing"
)

// Options describe one service's server.
type Options struct {
	// Name is the service name used in logs, metrics and health.
	Name string
	// Addr is the gRPC listen address, e.g. "127.0.0.1:9001".
	Addr string
	// MetricsAddr is the internal port: /metrics and /healthz over HTTP,
	// and gRPC health and server reflection in plaintext HTTP/2 (the
	// kubelet's grpc probe and grpcurl cannot present a client
	// certificate); empty disables it.
	MetricsAddr string
	// TLS, when set, makes the gRPC port mutual TLS: a client certificate
	// from its CA is required. nil serves plaintext (local mode only:
	// service.Base decides).
	TLS *mtls.Source
	// Backends are the backends this service answers and what each may
	// call (auth.Grants); a backend not named is refused every method.
	Backends auth.Grants
	Log      *slog.Logger
	Verifier auth.Verifier
	// Clock is the service's clock; the claims cache judges a token's
	// expiry by it. nil is the wall clock.
	Clock clock.Clock
	// Public lists full method names that anonymous callers may use.
	Public []string
	// Register adds the service implementations to the server.
	Register func(*grpc.Server)
	// Ready, if set, is called with the bound gRPC address once serving.
	Ready func(addr string)
	// ShutdownGrace bounds how long in-flight calls may finish.
	ShutdownGrace time.Duration
	// DrainDelay is how long the server keeps serving after it is told to
	// stop, reporting NOT_SERVING meanwhile, so that callers' balancers
	// (their health checks, Kubernetes' readiness probe) take it out of
	// rotation before it refuses anything. 0 stops at once.
	DrainDelay time.Duration
	// MaxConnectionAge is how long a caller's connection lives before the
	// server asks it to reconnect (gRPC spreads the moment by ±10 %), so
	// that copies started later get their share; 0 means
	// DefaultMaxConnectionAge.
	MaxConnectionAge time.Duration
	// MaxRecvMsgBytes raises gRPC's 4 MiB request limit for a service that
	// takes large bodies (order exports); 0 keeps the default.
	MaxRecvMsgBytes int
	// Metrics holds a service's own metrics (e.g. emails sent), served on
	// /metrics beside the platform's; nil when it has none.
	Metrics prometheus.Gatherer
}

// DefaultMaxConnectionAge: a new copy gets its share of every caller
// within about five minutes.
const DefaultMaxConnectionAge = 5 * time.Minute

// maxConnectionAgeGrace lets the calls on an aged connection finish; an
// order import streams for up to three minutes.
const maxConnectionAgeGrace = 5 * time.Minute

// Run serves until ctx ends, then drains and stops.
func Run(ctx context.Context, o Options) error {
	if o.ShutdownGrace == 0 {
		o.ShutdownGrace = 10 * time.Second
	}
	if o.MaxConnectionAge == 0 {
		o.MaxConnectionAge = DefaultMaxConnectionAge
	}
	public := make(map[string]bool, len(o.Public))
	for _, m := range o.Public {
		public[m] = true
	}
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}), buildinfo.Collector())
	m := newMetrics(reg)

	serverOpts := []grpc.ServerOption{grpc.KeepaliveParams(keepalive.ServerParameters{
		MaxConnectionAge: o.MaxConnectionAge, MaxConnectionAgeGrace: maxConnectionAgeGrace,
	}),
		// A span per call (or, tracing off, the caller's trace context),
		// before every interceptor, so the access log and everything the
		// handler logs carry the call's trace id.
		tracing.GRPCServerOption(),
	}
	if o := tracing.GRPCStreamServerOption(); o != nil {
		serverOpts = append(serverOpts, o)
	}
	if o.MaxRecvMsgBytes > 0 {
		serverOpts = append(serverOpts, grpc.MaxRecvMsgSize(o.MaxRecvMsgBytes))
	}
	if o.TLS != nil {
		serverOpts = append(serverOpts, grpc.Creds(credentials.NewTLS(o.TLS.ServerConfig())))
	}
	backendUnary, backendStream, err := auth.BackendInterceptors(o.Backends, o.Log)
	if err != nil {
		return err
	}
	// Each token is checked with Firebase (revocation included) at most
	// once per auth.RevocationCheckTTL.
	verifier := auth.NewCache(o.Verifier, auth.RevocationCheckTTL, auth.CacheSize, o.Clock)
	srv := grpc.NewServer(append(serverOpts, grpc.ChainUnaryInterceptor(
		recovery(o.Log),
		observe(o.Log, m),
		clipErrors(),
		backendUnary,
		auth.UnaryInterceptor(verifier, public),
		checkInput(),
	), grpc.ChainStreamInterceptor(
		recoveryStream(o.Log),
		observeStream(o.Log, m),
		clipErrorsStream(),
		backendStream,
		auth.StreamInterceptor(verifier, public),
		checkInputStream(),
	))...)
	hs := health.NewServer()
	// Health stays on the gRPC port too: callers' balancers ask it there
	// (grpcclient's health check), over their mutual TLS.
	healthpb.RegisterHealthServer(srv, hs)
	o.Register(srv)

	lis, err := net.Listen("tcp", o.Addr)
	if err != nil {
		return fmt.Errorf("listen %s: %w", o.Addr, err)
	}
	var httpSrv *http.Server
	if o.MetricsAddr != "" {
		mux := http.NewServeMux()
		gather := prometheus.Gatherers{reg}
		if o.Metrics != nil {
			gather = append(gather, o.Metrics)
		}
		mux.Handle("GET /metrics", promhttp.HandlerFor(gather, promhttp.HandlerOpts{}))
		profiling.Mount(mux)
		mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
			resp, err := hs.Check(r.Context(), &healthpb.HealthCheckRequest{})
			if err != nil || resp.GetStatus() != healthpb.HealthCheckResponse_SERVING {
				http.Error(w, "not serving", http.StatusServiceUnavailable)
				return
			}
			_, _ = w.Write([]byte("ok\n"))
		})
		internal := internalServer(srv, hs)
		defer internal.Stop()
		httpSrv = &http.Server{Addr: o.MetricsAddr, Handler: internalHandler(internal, mux), ReadHeaderTimeout: 5 * time.Second}
		httpSrv.Protocols = new(http.Protocols)
		httpSrv.Protocols.SetHTTP1(true)
		httpSrv.Protocols.SetUnencryptedHTTP2(true)
		mlis, err := net.Listen("tcp", o.MetricsAddr)
		if err != nil {
			lis.Close()
			return fmt.Errorf("listen %s: %w", o.MetricsAddr, err)
		}
		go func() {
			if err := httpSrv.Serve(mlis); err != nil && !errors.Is(err, http.ErrServerClosed) {
				o.Log.Error("metrics server stopped", "err", err)
			}
		}()
	}

	hs.SetServingStatus("", healthpb.HealthCheckResponse_SERVING)
	hs.SetServingStatus(o.Name, healthpb.HealthCheckResponse_SERVING)
	o.Log.Info("serving", "grpc", lis.Addr().String(), "metrics", o.MetricsAddr)
	if o.Ready != nil {
		o.Ready(lis.Addr().String())
	}

	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(lis) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	// Leave the balancers' rotation first, keep serving what still arrives
	// while they notice, then let in-flight calls finish.
	hs.Shutdown()
	o.Log.Info("draining", "for", o.DrainDelay.String())
	select {
	case err := <-errc:
		return err
	case <-time.After(o.DrainDelay):
	}
	o.Log.Info("shutting down")
	stopped := make(chan struct{})
	go func() { srv.GracefulStop(); close(stopped) }()
	select {
	case <-stopped:
	case <-time.After(o.ShutdownGrace):
		srv.Stop()
	}
	if httpSrv != nil {
		sctx, cancel := context.WithTimeout(context.Background(), o.ShutdownGrace)
		defer cancel()
		_ = httpSrv.Shutdown(sctx)
	}
	return nil
}

// internalServer answers gRPC health and describes srv's services by
// server reflection. Reflection is here and not on the gRPC port: it
// tells the API's shape to whoever asks, which is for operators, not for
// every caller holding a certificate.
func internalServer(srv *grpc.Server, hs *health.Server) *grpc.Server {
	internal := grpc.NewServer()
	healthpb.RegisterHealthServer(internal, hs)
	reflectionpb.RegisterServerReflectionServer(internal, reflection.NewServerV1(reflection.ServerOptions{Services: srv}))
	return internal
}

// internalHandler sends gRPC (HTTP/2 with a gRPC content type) to the
// internal gRPC server and the rest to mux.
func internalHandler(internal *grpc.Server, mux http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ProtoMajor == 2 && strings.HasPrefix(r.Header.Get("Content-Type"), "application/grpc") {
			internal.ServeHTTP(w, r)
			return
		}
		mux.ServeHTTP(w, r)
	})
}

type metrics struct {
	handled  *prometheus.CounterVec
	duration *prometheus.HistogramVec
}

func newMetrics(reg prometheus.Registerer) *metrics {
	m := &metrics{
		handled: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "grpc_server_handled_total", Help: "RPCs completed, by method and status code.",
		}, []string{"method", "code"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "grpc_server_handling_seconds", Help: "RPC latency by method.",
			Buckets: prometheus.DefBuckets,
		}, []string{"method"}),
	}
	reg.MustRegister(m.handled, m.duration)
	return m
}

// slowCall is how long a call may take before its log line is written at
// info level even when it succeeded.
const slowCall = time.Second

// observe counts and times every call and logs it: failures at info (error
// for server faults), successes at debug unless slower than slowCall.
func observe(log *slog.Logger, m *metrics) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, next grpc.UnaryHandler) (any, error) {
		start := time.Now()
		resp, err := next(ctx, req)
		code := status.Code(err)
		elapsed := time.Since(start)
		m.handled.WithLabelValues(info.FullMethod, code.String()).Inc()
		m.duration.WithLabelValues(info.FullMethod).Observe(elapsed.Seconds())
		level := slog.LevelInfo
		switch {
		case code == codes.Internal || code == codes.Unknown || code == codes.DataLoss:
			level = slog.LevelError
		case code == codes.OK && elapsed < slowCall:
			// Every call is counted above; a line per fast success at info
			// cost a measurable share of the read path's CPU.
			level = slog.LevelDebug
		}
		if !log.Enabled(ctx, level) {
			return resp, err
		}
		attrs := []any{"method", info.FullMethod, "code", code.String(), "ms", elapsed.Milliseconds()}
		if err != nil {
			attrs = append(attrs, "err", err.Error())
		}
		log.Log(ctx, level, "rpc", attrs...)
		return resp, err
	}
}

// recovery turns a panic into Internal with no detail for the caller; the
// stack goes to the log only.
func recovery(log *slog.Logger) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, next grpc.UnaryHandler) (resp any, err error) {
		defer func() {
			if r := recover(); r != nil {
				log.ErrorContext(ctx, "panic in handler", "method", info.FullMethod, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
				err = status.Error(codes.Internal, "internal error")
			}
		}()
		return next(ctx, req)
	}
}
