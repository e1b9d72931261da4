package tracing

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/trace"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// Without an endpoint tracing is off: the provider records nothing, and a
// caller's traceparent still passes through (and back in traceresponse).
func TestOffWithoutAnEndpoint(t *testing.T) {
	stop, err := Start(context.Background(), "users", Settings{Sampler: "parentbased_always_on"}, quiet)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = stop(context.Background()) }()
	_, span := otel.Tracer("t").Start(context.Background(), "x")
	if span.IsRecording() || span.SpanContext().IsValid() {
		t.Errorf("tracing off recorded a span: %v", span.SpanContext())
	}
	const tp = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
	var seen string
	h := HTTPHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { seen = TraceParent(r.Context()) }), "test")
	req := httptest.NewRequest(http.MethodPost, "/internal/users", nil)
	req.Header.Set("traceparent", tp)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if seen != tp || rec.Header().Get("traceresponse") != tp {
		t.Errorf("the handler saw %q and answered %q, want the caller's %q", seen, rec.Header().Get("traceresponse"), tp)
	}
}

// With an endpoint every span is recorded (the sampler permitting), a child
// of the caller's, and the answer names the request's own span.
func TestOnWithAnEndpoint(t *testing.T) {
	stop, err := Start(context.Background(), "gateway", Settings{Endpoint: "http://127.0.0.1:1", Sampler: "parentbased_always_on"}, quiet)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = stop(context.Background())
		_, _ = Start(context.Background(), "gateway", Settings{}, quiet) // off again for the next test
	}()
	var inner trace.SpanContext
	h := HTTPHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		inner = trace.SpanContextFromContext(r.Context())
	}), "test")
	req := httptest.NewRequest(http.MethodGet, "/x", nil)
	req.Header.Set("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if inner.TraceID().String() != "4bf92f3577b34da6a3ce929d0e0e4736" || inner.SpanID().String() == "00f067aa0ba902b7" {
		t.Errorf("the request's span %v is not a new child in the caller's trace", inner)
	}
	if got := rec.Header().Get("traceresponse"); !strings.Contains(got, inner.SpanID().String()) {
		t.Errorf("traceresponse %q, want the request's span %s", got, inner.SpanID())
	}
}

func TestSamplerNames(t *testing.T) {
	for _, c := range []struct {
		name, arg string
		ok        bool
	}{
		{"", "", true}, {"always_on", "", true}, {"always_off", "", true}, {"traceidratio", "0.25", true},
		{"parentbased_traceidratio", "1", true}, {"parentbased_always_off", "", true}, {"PARENTBASED_ALWAYS_ON", "", true},
		{"sometimes", "", false}, {"traceidratio", "2", false}, {"traceidratio", "half", false},
	} {
		if _, err := parseSampler(c.name, c.arg); (err == nil) != c.ok {
			t.Errorf("%q %q: %v", c.name, c.arg, err)
		}
	}
}

// TraceParent and WithTraceParent are each other's inverse; a malformed
// stored value is no parent at all.
func TestStoredTraceParent(t *testing.T) {
	const tp = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
	if got := TraceParent(WithTraceParent(context.Background(), tp)); got != tp {
		t.Errorf("round trip: %q", got)
	}
	for _, bad := range []string{"", "00-zz-00f067aa0ba902b7-01", "garbage"} {
		if sc := trace.SpanContextFromContext(WithTraceParent(context.Background(), bad)); sc.IsValid() {
			t.Errorf("%q gave a parent %v", bad, sc)
		}
	}
}
