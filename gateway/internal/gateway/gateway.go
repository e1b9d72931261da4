// Package gateway is Uplift's REST front door: one grpc-gateway mux for every
// service, plus what REST needs and gRPC does not — CORS for the web origin,
// the bearer token passed through, body limits, refusal of malformed paths
// and query strings, JSON errors with the right status, the website-score
// limit, health and the OpenAPI document. Its metrics are served on a
// separate internal address, never on the public port.
package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"github.com/nats-io/nats.go"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"

	"uplift.dev/proto/categoryaccess"
	billingv1 "uplift.dev/proto/gen/uplift/billing/v1"
	categoriesv1 "uplift.dev/proto/gen/uplift/categories/v1"
	digestv1 "uplift.dev/proto/gen/uplift/digest/v1"
	storesv1 "uplift.dev/proto/gen/uplift/stores/v1"
	studiov1 "uplift.dev/proto/gen/uplift/studio/v1"
	usersv1 "uplift.dev/proto/gen/uplift/users/v1"

	"uplift.dev/gateway/bus"
	"uplift.dev/gateway/internal/openapi"
	"uplift.dev/platform/buildinfo"
	"uplift.dev/platform/events"
	"uplift.dev/platform/grpcclient"
	"uplift.dev/platform/grpcerr"
	"uplift.dev/platform/mtls"
	"uplift.dev/platform/pagesec"
	"uplift.dev/platform/profiling"
	"uplift.dev/platform/tracing"
)

// Options configure the gateway.
type Options struct {
	// Backends maps a service name to its gRPC address. users, categories,
	// billing and stores serve REST; every backend is checked by /healthz.
	Backends map[string]string
	// TLS is the gateway's certificate for mutual TLS to the services; nil
	// dials plaintext (local mode).
	TLS *mtls.Source
	// AllowedOrigins may call from a browser (CORS). No wildcard.
	AllowedOrigins []string
	// MaxBodyBytes bounds a request body.
	MaxBodyBytes int64
	// MaxWebhookBytes bounds a Stripe or Shopify webhook body; 0 means 1 MiB.
	MaxWebhookBytes int64
	// MaxImportBytes bounds an order-export import body; 0 means 64 MiB.
	MaxImportBytes int64
	// WebURL is the web app, where expired Shopify links send the browser.
	WebURL string
	Log    *slog.Logger
	// NATSURL is where the live report events come from and where the
	// replicas share their rate limits; empty makes /events answer 503
	// (the web falls back to polling) and keeps the limits in this process.
	NATSURL string
	// NATSOptions add the gateway's NATS credentials and TLS.
	NATSOptions []nats.Option
	// EventTrust checks that a report event was signed by a service that
	// may publish it (events.Publishers); nil believes any (tests' plain NATS).
	EventTrust *events.Trust
	// EventsHeartbeat is how often an idle event stream sends a comment; 0 means 15 s.
	EventsHeartbeat time.Duration
	// EventStreamsPerUser bounds the live report streams one user holds open
	// at once in this process; 0 means DefaultEventStreamsPerUser.
	EventStreamsPerUser int
	// WebsiteScorePerMinute limits public website checks per client IP; 0 means 10.
	WebsiteScorePerMinute int
	// SignUpsPerHour limits sign-ups (POST internal/users) per client IP;
	// 0 means 20.
	SignUpsPerHour int
	// RecoveryCodesPerHour limits recovery code tries (POST
	// internal/users/useRecoveryCode) per client IP; 0 means 10.
	RecoveryCodesPerHour int
	// PasswordResetsPerHour limits password resets (POST
	// internal/users/resetPassword) per client IP; 0 means 10.
	PasswordResetsPerHour int
	// TrustedProxies are the proxies (ingress, load balancer) whose
	// X-Forwarded-For is believed when they are the connection's peer;
	// empty trusts nobody and the peer is the client.
	TrustedProxies []netip.Prefix
	// Metrics receives the request metrics; nil keeps them in a registry of
	// New's own that nothing serves (tests). Run serves it on MetricsAddr.
	Metrics *prometheus.Registry
	// MetricsAddr is Run's internal address for /metrics; empty serves none.
	// The public address never serves metrics.
	MetricsAddr string
	// ReadTimeout bounds how long Run waits for a request's headers and
	// body; 0 means 15 s.
	ReadTimeout time.Duration
	// ConnsPerBackend is how many gRPC connections the gateway keeps to
	// each backend, used in turn; 0 means DefaultConnsPerBackend.
	ConnsPerBackend int
	// DrainDelay is how long Run keeps serving after ctx ends while
	// /healthz answers 503, so the load balancer stops sending requests
	// before the listener closes; 0 stops at once.
	DrainDelay time.Duration
	// AllowedHosts are the Host header values served (ParseAllowedHosts);
	// others get 421, except on /healthz. Empty: New serves every name, Run
	// serves LocalHosts on its own port.
	AllowedHosts []string
}

// maxResponseBytes bounds a backend's answer; gRPC's default of 4 MiB is
// smaller than a studio download.
const maxResponseBytes = 64 << 20

// registrars mount each service's REST rules on the mux.
var registrars = map[string]func(context.Context, *runtime.ServeMux, grpc.ClientConnInterface) error{
	"users": func(ctx context.Context, mux *runtime.ServeMux, cc grpc.ClientConnInterface) error {
		return usersv1.RegisterUsersServiceHandlerClient(ctx, mux, usersv1.NewUsersServiceClient(cc))
	},
	"categories": func(ctx context.Context, mux *runtime.ServeMux, cc grpc.ClientConnInterface) error {
		return categoriesv1.RegisterCategoriesServiceHandlerClient(ctx, mux, categoriesv1.NewCategoriesServiceClient(cc))
	},
	"digest": func(ctx context.Context, mux *runtime.ServeMux, cc grpc.ClientConnInterface) error {
		return digestv1.RegisterDigestServiceHandlerClient(ctx, mux, digestv1.NewDigestServiceClient(cc))
	},
	"billing": func(ctx context.Context, mux *runtime.ServeMux, cc grpc.ClientConnInterface) error {
		return billingv1.RegisterBillingServiceHandlerClient(ctx, mux, billingv1.NewBillingServiceClient(cc))
	},
	"stores": func(ctx context.Context, mux *runtime.ServeMux, cc grpc.ClientConnInterface) error {
		return storesv1.RegisterStoresServiceHandlerClient(ctx, mux, storesv1.NewStoresServiceClient(cc))
	},
	"studio": func(ctx context.Context, mux *runtime.ServeMux, cc grpc.ClientConnInterface) error {
		return studiov1.RegisterStudioServiceHandlerClient(ctx, mux, studiov1.NewStudioServiceClient(cc))
	},
}

// DefaultConnsPerBackend is how many connections the gateway keeps to each
// backend when Options.ConnsPerBackend is 0 (grpcclient.Pool).
const DefaultConnsPerBackend = 4

// New builds the gateway handler. Close releases its backend connections.
func New(ctx context.Context, o Options) (http.Handler, func(), error) {
	mux := runtime.NewServeMux(
		runtime.WithErrorHandler(writeError),
		runtime.WithRoutingErrorHandler(routingError),
		// A form POST must not reach a GET rule (grpc-gateway's "path length
		// fallback" and X-HTTP-Method-Override): the web never sends one, and
		// it is a second way into calls that are meant to be GETs only.
		runtime.WithDisablePathLengthFallback(),
		runtime.WithDisableHTTPMethodOverride(),
		runtime.WithMarshalerOption(runtime.MIMEWildcard, presenceJSON{&runtime.JSONPb{
			MarshalOptions:   protojson.MarshalOptions{EmitUnpopulated: true},
			UnmarshalOptions: protojson.UnmarshalOptions{DiscardUnknown: true},
		}}),
	)
	nc, js, err := connectNATS(o)
	if err != nil {
		return nil, nil, err
	}
	conns := map[string]*grpcclient.Pool{}
	// probes ask each backend's health for operators. They do not leave a
	// NOT_SERVING copy as the routes' connections do, so that
	// /healthz/backends can say NOT_SERVING rather than UNREACHABLE.
	probes := map[string]*grpc.ClientConn{}
	closeAll := func() {
		for _, c := range conns {
			_ = c.Close()
		}
		for _, c := range probes {
			_ = c.Close()
		}
		if nc != nil {
			nc.Close()
		}
	}
	names := make([]string, 0, len(o.Backends))
	for name := range o.Backends {
		names = append(names, name)
	}
	slices.Sort(names)
	limits, err := newRPCLimits(o, js)
	if err != nil {
		closeAll()
		return nil, nil, err
	}
	for _, name := range names {
		n := o.ConnsPerBackend
		if n <= 0 {
			n = DefaultConnsPerBackend
		}
		var dial []grpc.DialOption
		if o.TLS != nil {
			dial = append(dial, grpcclient.TLS(o.TLS))
		}
		conn, err := grpcclient.NewPool(o.Backends[name], n, append(dial, grpc.WithChainUnaryInterceptor(forwardClient, limits.intercept),
			// studio downloads carry whole images (a 3840 px cut-out PNG)
			grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(maxResponseBytes)))...)
		if err != nil {
			closeAll()
			return nil, nil, fmt.Errorf("backend %s: %w", name, err)
		}
		conns[name] = conn
		if probes[name], err = grpcclient.New(o.Backends[name], append(dial, grpc.WithDisableHealthCheck())...); err != nil {
			closeAll()
			return nil, nil, fmt.Errorf("backend %s: %w", name, err)
		}
		if reg, ok := registrars[name]; ok {
			if err := reg(ctx, mux, conn); err != nil {
				closeAll()
				return nil, nil, fmt.Errorf("register %s: %w", name, err)
			}
		}
	}

	reg := o.Metrics
	if reg == nil {
		reg = prometheus.NewRegistry()
	}
	requests := prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "http_request_duration_seconds", Help: "REST requests by method (a standard one, else OTHER) and status.",
		Buckets: prometheus.DefBuckets,
	}, []string{"method", "code"})
	if err := reg.Register(requests); err != nil {
		closeAll()
		return nil, nil, fmt.Errorf("metrics: %w", err)
	}

	root := http.NewServeMux()
	if o.MaxImportBytes <= 0 {
		o.MaxImportBytes = 64 << 20
	}
	root.Handle("/", limitBodies(o.MaxBodyBytes, o.MaxImportBytes, mux))
	if conn, ok := conns["categories"]; ok {
		access := categoryaccess.New(conn, categoryaccess.Options{})
		if nc != nil {
			stop := listenForAccess(nc, o.EventTrust, o.Log, access)
			closeConns := closeAll
			closeAll = func() { stop(); closeConns() }
		}
		root.HandleFunc("GET /events/categories/{categoryId}", reportStream(nc, o.EventTrust, access, o.EventsHeartbeat, o.EventStreamsPerUser, o.Log))
	}
	root.HandleFunc("GET /healthz", ready)
	root.HandleFunc("GET /healthz/backends", backendHealth(names, probes))
	root.HandleFunc("GET /openapi.json", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(openapi.Document)
	})
	maxWebhook := o.MaxWebhookBytes
	if maxWebhook <= 0 {
		maxWebhook = 1 << 20
	}
	if conn, ok := conns["billing"]; ok {
		root.HandleFunc("POST /webhooks/stripe", stripeWebhook(billingv1.NewBillingServiceClient(conn), maxWebhook))
	}
	if conn, ok := conns["stores"]; ok {
		web := o.WebURL
		if web == "" {
			web = "http://localhost:3000"
		}
		stores := storesv1.NewStoresServiceClient(conn)
		mountShopify(root, stores, web, maxWebhook)
		mountWooCommerce(root, stores, web, maxWebhook)
		mountGA4(root, stores, web)
		root.Handle("POST "+importPattern, limitBodies(o.MaxBodyBytes, o.MaxImportBytes, importOrders(mux, stores)))
	}
	if conn, ok := conns["digest"]; ok {
		web := o.WebURL
		if web == "" {
			web = "http://localhost:3000"
		}
		mountEmail(root, digestv1.NewDigestServiceClient(conn), web)
	}
	mountSession(root, o.AllowedOrigins)
	hosts, err := newHostList(o.AllowedHosts)
	if err != nil {
		closeAll()
		return nil, nil, fmt.Errorf("allowed hosts: %w", err)
	}
	// The request's span is outermost, so every log line and backend call
	// of the request is in its trace (tracing.HTTPHandler).
	h := tracing.HTTPHandler(pagesec.NoSniff(recoverer(o.Log, withClient(o.TrustedProxies, observe(o.Log, requests,
		checkHost(hosts, cors(o.AllowedOrigins, checkTarget(root))))))), "gateway")
	return h, closeAll, nil
}

// unavailableRouteMessage answers a call whose backend is down or
// restarting: only that backend's routes fail, with 503 and Retry-After
// (unavailableRetryAfter seconds), and the rest of the API keeps working.
const (
	unavailableRouteMessage = "This part of Uplift is not available right now. Please try again in a moment."
	unavailableRetryAfter   = "5"
)

// errorBody is every error response: a message for people, the gRPC code
// for programs and, for a refused input, which field each message is about,
// so a form can show it under that field.
type errorBody struct {
	Message string       `json:"message"`
	Code    int          `json:"code"`
	Fields  []fieldError `json:"fields,omitempty"`
}

// fieldError is one field violation: the request's JSON field name and
// what is wrong with it, for people.
type fieldError struct {
	Field   string `json:"field"`
	Message string `json:"message"`
}

// writeJSONError writes the error body. The message is cut to
// grpcerr.MaxMessageRunes: one that quotes the request (a JSON decoding
// error, a service's validation) must not send it back whole.
func writeJSONError(w http.ResponseWriter, httpStatus int, code codes.Code, msg string, fields ...fieldError) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(httpStatus)
	_ = json.NewEncoder(w).Encode(errorBody{Message: grpcerr.Clip(msg), Code: int(code), Fields: fields})
}

// fieldErrors are an InvalidArgument status's field violations, each
// message cut as the body's is. Other statuses name no fields.
func fieldErrors(st *status.Status) []fieldError {
	if st.Code() != codes.InvalidArgument {
		return nil
	}
	var out []fieldError
	for _, d := range st.Details() {
		br, ok := d.(*errdetails.BadRequest)
		if !ok {
			continue
		}
		for _, v := range br.GetFieldViolations() {
			if v.GetField() != "" {
				out = append(out, fieldError{Field: grpcerr.Clip(v.GetField()), Message: grpcerr.Clip(v.GetDescription())})
			}
		}
	}
	return out
}

// writeError maps a gRPC status to HTTP. Messages of server-side failures are
// replaced, so addresses, SQL or stacks never reach a client.
func writeError(_ context.Context, _ *runtime.ServeMux, _ runtime.Marshaler, w http.ResponseWriter, r *http.Request, err error) {
	st := status.Convert(err)
	msg := st.Message()
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig) || strings.Contains(msg, "http: request body too large"):
		writeJSONError(w, http.StatusRequestEntityTooLarge, codes.InvalidArgument, "The request body is too large.")
		return
	case errors.Is(err, os.ErrDeadlineExceeded) || strings.HasSuffix(msg, os.ErrDeadlineExceeded.Error()):
		// The body did not arrive within the read timeout; grpc-gateway
		// reports it as InvalidArgument with the connection's addresses.
		writeJSONError(w, http.StatusRequestTimeout, codes.DeadlineExceeded, slowBodyMessage)
		return
	case st.Code() == codes.InvalidArgument && strings.HasPrefix(msg, "proto:"):
		msg = "The request body is not valid JSON for this call: " + strings.TrimSpace(strings.TrimPrefix(msg, "proto:"))
	case st.Code() == codes.Unimplemented:
		msg = "This feature is not available yet."
	case st.Code() == codes.Unavailable:
		msg = unavailableRouteMessage
		w.Header().Set("Retry-After", unavailableRetryAfter)
	case st.Code() == codes.Internal || st.Code() == codes.Unknown || st.Code() == codes.DataLoss:
		msg = "Something went wrong on our side. Please try again."
	}
	for _, d := range st.Details() {
		if ri, ok := d.(*errdetails.RetryInfo); ok && ri.GetRetryDelay() != nil {
			w.Header().Set("Retry-After", strconv.Itoa(int(max(1, ri.GetRetryDelay().AsDuration().Round(time.Second)/time.Second))))
		}
	}
	writeJSONError(w, runtime.HTTPStatusFromCode(st.Code()), st.Code(), msg, fieldErrors(st)...)
}

func routingError(_ context.Context, _ *runtime.ServeMux, _ runtime.Marshaler, w http.ResponseWriter, _ *http.Request, httpStatus int) {
	switch httpStatus {
	case http.StatusMethodNotAllowed:
		writeJSONError(w, httpStatus, codes.Unimplemented, "This method is not allowed on this path.")
	case http.StatusNotFound:
		writeJSONError(w, httpStatus, codes.NotFound, "No such API path.")
	default:
		writeJSONError(w, httpStatus, codes.InvalidArgument, http.StatusText(httpStatus))
	}
}

// stripeWebhook passes Stripe's raw body and signature to billing, which
// verifies and applies the event. The body must reach billing byte for byte
// (the signature covers it), so it bypasses the grpc-gateway JSON mapping.
func stripeWebhook(billing billingv1.BillingServiceClient, max int64) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength > max {
			writeJSONError(w, http.StatusRequestEntityTooLarge, codes.InvalidArgument, "The request body is too large.")
			return
		}
		payload, err := io.ReadAll(http.MaxBytesReader(w, r.Body, max))
		if err != nil {
			writeBodyError(w, err)
			return
		}
		h := headerText{h: r.Header}
		req := &billingv1.HandleStripeWebhookRequest{Payload: payload, Signature: h.get("Stripe-Signature")}
		if h.refuse(w) {
			return
		}
		_, err = billing.HandleStripeWebhook(r.Context(), req)
		if err != nil {
			writeError(r.Context(), nil, nil, w, r, err)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"received":true}` + "\n"))
	}
}

// limitBody refuses bodies over max: at once when Content-Length says so,
// otherwise when reading passes the limit.
func limitBody(max int64, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if max > 0 {
			if r.ContentLength > max {
				writeJSONError(w, http.StatusRequestEntityTooLarge, codes.InvalidArgument, "The request body is too large.")
				return
			}
			r.Body = http.MaxBytesReader(w, r.Body, max)
		}
		next.ServeHTTP(w, r)
	})
}

// originSet is the web origins as a browser sends them (no trailing slash).
func originSet(origins []string) map[string]bool {
	allowed := map[string]bool{}
	for _, o := range origins {
		allowed[strings.TrimRight(o, "/")] = true
	}
	return allowed
}

// cors lets the configured web origins call with a bearer token. Other
// origins get no CORS headers, so browsers refuse them.
func cors(origins []string, next http.Handler) http.Handler {
	allowed := originSet(origins)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		origin := r.Header.Get("Origin")
		if origin != "" && allowed[origin] {
			h := w.Header()
			h.Set("Access-Control-Allow-Origin", origin)
			h.Add("Vary", "Origin")
			// The page may read which trace its call made (tracing.HTTPHandler).
			h.Set("Access-Control-Expose-Headers", "traceresponse")
			if r.URL.Path == refreshCookiePath {
				// The one route whose answer sets a cookie (session.go).
				h.Set("Access-Control-Allow-Credentials", "true")
			}
			if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
				h.Set("Access-Control-Allow-Methods", "GET, POST, PUT, PATCH, DELETE")
				// traceparent and tracestate: a web page that traces its
				// calls (W3C Trace Context) may send them.
				h.Set("Access-Control-Allow-Headers", "Authorization, Content-Type, traceparent, tracestate")
				h.Set("Access-Control-Max-Age", "600")
				w.WriteHeader(http.StatusNoContent)
				return
			}
		} else if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
			writeJSONError(w, http.StatusForbidden, codes.PermissionDenied, "This origin may not call the API.")
			return
		}
		next.ServeHTTP(w, r)
	})
}

// ready is the readiness probe: it answers for the gateway itself, which
// is ready once it serves HTTP. A backend that is down makes only its own
// routes answer 503 (writeError), so it must not take the whole API out of
// the load balancer; backendHealth reports the backends for operators.
func ready(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write([]byte(`{"status":"ok"}` + "\n"))
}

// backendHealth reports each backend's gRPC health (SERVING, NOT_SERVING or
// UNREACHABLE); 200 only when all serve, else 503 with status "degraded". For
// operators, dashboards and the local stack's start-up wait; not a probe.
func backendHealth(names []string, conns map[string]*grpc.ClientConn) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
		defer cancel()
		type result struct{ name, state string }
		results := make(chan result, len(names))
		for _, name := range names {
			go func() {
				resp, err := healthpb.NewHealthClient(conns[name]).Check(ctx, &healthpb.HealthCheckRequest{})
				state := "UNREACHABLE"
				if err == nil {
					state = resp.GetStatus().String()
				}
				results <- result{name, state}
			}()
		}
		body := struct {
			Status   string            `json:"status"`
			Services map[string]string `json:"services"`
		}{Status: "ok", Services: map[string]string{}}
		for range names {
			res := <-results
			body.Services[res.name] = res.state
			if res.state != healthpb.HealthCheckResponse_SERVING.String() {
				body.Status = "degraded"
			}
		}
		w.Header().Set("Content-Type", "application/json")
		if body.Status != "ok" {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
		_ = json.NewEncoder(w).Encode(body)
	}
}

type statusRecorder struct {
	http.ResponseWriter
	code int
}

func (s *statusRecorder) WriteHeader(code int) { s.code = code; s.ResponseWriter.WriteHeader(code) }

// Unwrap lets http.ResponseController reach the connection (read deadlines).
func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// Flush keeps streaming responses working through the recorder.
func (s *statusRecorder) Flush() {
	if f, ok := s.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// knownMethods are the label values of the method label; any other method
// (a client can send any token) is counted as OTHER, so requests cannot add
// series without bound.
var knownMethods = map[string]bool{
	http.MethodGet: true, http.MethodHead: true, http.MethodPost: true, http.MethodPut: true,
	http.MethodPatch: true, http.MethodDelete: true, http.MethodOptions: true,
	http.MethodConnect: true, http.MethodTrace: true,
}

func methodLabel(m string) string {
	if knownMethods[m] {
		return m
	}
	return "OTHER"
}

// slowLogAfter is how long a request may take before its log line is
// written at info level even when it succeeded.
const slowLogAfter = time.Second

// observe records each request's duration by method and status (both
// bounded) and logs it with the client's address; the path and method in the
// log are cut, as they are whatever the client sent. A request that
// answered below 500 within slowLogAfter is logged at debug only: at info,
// two synchronous JSON lines per call (here and in the service) were a
// measurable share of the read path's CPU, and the histogram
// already counts every request.
func observe(log *slog.Logger, h *prometheus.HistogramVec, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &statusRecorder{ResponseWriter: w, code: http.StatusOK}
		next.ServeHTTP(rec, r)
		elapsed := time.Since(start)
		h.WithLabelValues(methodLabel(r.Method), strconv.Itoa(rec.code)).Observe(elapsed.Seconds())
		level := slog.LevelDebug
		if rec.code >= 500 || elapsed >= slowLogAfter {
			level = slog.LevelInfo
		}
		if !healthPaths[r.URL.Path] && log.Enabled(r.Context(), level) {
			log.Log(r.Context(), level, "http", "method", grpcerr.Clip(r.Method), "path", grpcerr.Clip(r.URL.Path),
				"client", clientFrom(r.Context()), "status", rec.code, "ms", elapsed.Milliseconds())
		}
	})
}

func recoverer(log *slog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				log.ErrorContext(r.Context(), "panic in gateway", "panic", fmt.Sprint(v), "path", grpcerr.Clip(r.URL.Path))
				writeJSONError(w, http.StatusInternalServerError, codes.Internal, "Something went wrong on our side. Please try again.")
			}
		}()
		next.ServeHTTP(w, r)
	})
}

// Run serves the gateway on addr, and its metrics on o.MetricsAddr, until
// ctx ends, then shuts down gracefully. With no o.AllowedHosts it serves
// LocalHosts on the port it listens on.
func Run(ctx context.Context, addr string, o Options) error {
	if o.Metrics == nil {
		o.Metrics = prometheus.NewRegistry()
		o.Metrics.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}), buildinfo.Collector())
	}
	addrs := []string{addr}
	if o.MetricsAddr != "" {
		addrs = append(addrs, o.MetricsAddr)
	}
	listeners := make([]net.Listener, 0, len(addrs))
	closeListeners := func() {
		for _, l := range listeners {
			_ = l.Close()
		}
	}
	for _, a := range addrs {
		lis, err := net.Listen("tcp", a)
		if err != nil {
			closeListeners()
			return fmt.Errorf("listen %s: %w", a, err)
		}
		listeners = append(listeners, lis)
	}
	if len(o.AllowedHosts) == 0 {
		_, port, _ := net.SplitHostPort(listeners[0].Addr().String())
		o.AllowedHosts = LocalHosts(port)
	}
	h, closeConns, err := New(ctx, o)
	if err != nil {
		closeListeners()
		return err
	}
	defer closeConns()
	var draining atomic.Bool
	public := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/healthz" && draining.Load() {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = w.Write([]byte(`{"status":"draining"}` + "\n"))
			return
		}
		h.ServeHTTP(w, r)
	})
	servers := []*http.Server{publicServer(addr, public, o.ReadTimeout)}
	if o.MetricsAddr != "" {
		servers = append(servers, &http.Server{Addr: o.MetricsAddr, Handler: MetricsHandler(o.Metrics), ReadHeaderTimeout: 5 * time.Second})
	}
	errc := make(chan error, len(servers))
	for i, srv := range servers {
		go func() { errc <- srv.Serve(listeners[i]) }()
	}
	o.Log.Info("serving", "addr", addr, "metrics", o.MetricsAddr, "backends", o.Backends, "hosts", o.AllowedHosts)
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	draining.Store(true)
	o.Log.Info("draining", "for", o.DrainDelay.String())
	select {
	case err := <-errc:
		return err
	case <-time.After(o.DrainDelay):
	}
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, srv := range servers {
		if err := srv.Shutdown(sctx); err != nil {
			return err
		}
	}
	return nil
}

// MetricsHandler serves reg's metrics at GET /metrics and Go's profiles at
// /debug/pprof/, for the internal metrics address only.
func MetricsHandler(reg *prometheus.Registry) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	profiling.Mount(mux)
	return mux
}

// listenForAccess keeps this copy's cache of access answers true: it forgets
// an answer when its category or the caller's roles change, until stop.
func listenForAccess(nc *nats.Conn, trust *events.Trust, log *slog.Logger, access *categoryaccess.Checker) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for _, listen := range []func(context.Context) error{
		events.Listen(nc, trust, log, bus.CategoryAccess, access.OnCategoryUpdated),
		events.Listen(nc, trust, log, bus.RoleAccess, access.OnUserRoleChanged),
	} {
		wg.Go(func() {
			if err := listen(ctx); err != nil {
				log.Error("access cache: not listening; answers expire on their own", "err", err)
			}
		})
	}
	return func() { cancel(); wg.Wait() }
}

// AllLoopback reports whether every backend address (host:port, or a
// comma-separated list of copies) is on this machine: a local run.
func AllLoopback(backends map[string]string) bool {
	for _, addr := range backends {
		for _, a := range strings.Split(addr, ",") {
			host, _, err := net.SplitHostPort(strings.TrimSpace(a))
			if err != nil {
				return false
			}
			if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
				return false
			}
		}
	}
	return true
}
