// Package tracing is the one place a program's OpenTelemetry traces are set
// up: a tracer provider that exports over OTLP/HTTP when
// OTEL_EXPORTER_OTLP_ENDPOINT is set (and a no-op one, which costs nothing,
// when it is not), W3C tracecontext propagation either way, and a shutdown
// that flushes what is buffered. program.Command calls Start for every
// service, worker and the gateway, so no program sets tracing up by itself.
//
// It also carries a span's context across the places OpenTelemetry's own
// instrumentation does not reach: a stored traceparent (an outbox row, a
// queued email) and NATS message headers.
package tracing

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"
)

// Settings are OpenTelemetry's standard variables, the subset Uplift reads.
// Unset endpoints leave tracing off: ids still propagate (a request's
// traceparent reaches the services and their logs) but nothing is recorded
// or sent.
type Settings struct {
	// Endpoint is the collector's OTLP/HTTP base URL, e.g.
	// http://127.0.0.1:4318; spans go to its /v1/traces.
	Endpoint string `env:"OTEL_EXPORTER_OTLP_ENDPOINT"`
	// TracesEndpoint, when set, is the full traces URL and wins over Endpoint.
	TracesEndpoint string `env:"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"`
	// ServiceName names the program in the trace store; unset, its binary name.
	ServiceName string `env:"OTEL_SERVICE_NAME"`
	// Sampler and SamplerArg are OTEL_TRACES_SAMPLER's names (always_on,
	// always_off, traceidratio and their parentbased_ forms) and the ratio.
	Sampler    string `env:"OTEL_TRACES_SAMPLER" default:"parentbased_always_on"`
	SamplerArg string `env:"OTEL_TRACES_SAMPLER_ARG"`
	// Disabled is OTEL_SDK_DISABLED=true: off whatever the endpoint.
	Disabled bool `env:"OTEL_SDK_DISABLED"`
}

// On reports whether s exports spans.
func (s Settings) On() bool {
	return !s.Disabled && (s.Endpoint != "" || s.TracesEndpoint != "")
}

// Start installs the global tracer provider and propagator for the program
// name and returns the function that flushes and stops it. Off (s.On
// false), the provider is a no-op and shutdown does nothing.
func Start(ctx context.Context, name string, s Settings, log *slog.Logger) (shutdown func(context.Context) error, err error) {
	otel.SetTextMapPropagator(Propagator)
	if !s.On() {
		on.Store(false)
		otel.SetTracerProvider(noop.NewTracerProvider())
		return func(context.Context) error { return nil }, nil
	}
	sampler, err := parseSampler(s.Sampler, s.SamplerArg)
	if err != nil {
		return nil, err
	}
	url := s.TracesEndpoint
	if url == "" {
		url = strings.TrimSuffix(s.Endpoint, "/") + "/v1/traces"
	}
	exp, err := otlptracehttp.New(ctx, otlptracehttp.WithEndpointURL(url))
	if err != nil {
		return nil, fmt.Errorf("OTEL_EXPORTER_OTLP_ENDPOINT: %w", err)
	}
	service := s.ServiceName
	if service == "" {
		service = name
	}
	res, err := resource.New(ctx, resource.WithAttributes(attribute.String("service.name", service)))
	if err != nil {
		return nil, fmt.Errorf("tracing: resource: %w", err)
	}
	tp := sdktrace.NewTracerProvider(
		sdktrace.WithSampler(sampler),
		sdktrace.WithResource(res),
		// A second between exports rather than the default five: the
		// local stack's viewer and its test see a request's spans soon.
		sdktrace.WithBatcher(exp, sdktrace.WithBatchTimeout(time.Second)),
	)
	otel.SetTracerProvider(tp)
	on.Store(true)
	log.Info("tracing on", "endpoint", url, "sampler", s.Sampler, "service_name", service)
	return tp.Shutdown, nil
}

// on says Start installed an exporting provider: the instrumentation made
// after it (HTTPHandler, the gRPC options) records spans. Off, it only
// passes a caller's trace context on, which costs a header lookup, where
// the OpenTelemetry handlers with a no-op provider still cost about 80
// allocations and 6 KiB per request through the gateway.
var on atomic.Bool

// parseSampler reads OTEL_TRACES_SAMPLER and its argument.
func parseSampler(name, arg string) (sdktrace.Sampler, error) {
	name = strings.ToLower(name)
	ratio := 1.0
	if strings.HasSuffix(name, "traceidratio") && arg != "" {
		r, err := strconv.ParseFloat(arg, 64)
		if err != nil || r < 0 || r > 1 {
			return nil, fmt.Errorf("OTEL_TRACES_SAMPLER_ARG: %q is not a ratio between 0 and 1", arg)
		}
		ratio = r
	}
	switch name {
	case "always_on":
		return sdktrace.AlwaysSample(), nil
	case "always_off":
		return sdktrace.NeverSample(), nil
	case "traceidratio":
		return sdktrace.TraceIDRatioBased(ratio), nil
	case "", "parentbased_always_on":
		return sdktrace.ParentBased(sdktrace.AlwaysSample()), nil
	case "parentbased_always_off":
		return sdktrace.ParentBased(sdktrace.NeverSample()), nil
	case "parentbased_traceidratio":
		return sdktrace.ParentBased(sdktrace.TraceIDRatioBased(ratio)), nil
	}
	return nil, errors.New("OTEL_TRACES_SAMPLER: " + strconv.Quote(name) +
		" is none of always_on, always_off, traceidratio, parentbased_always_on, parentbased_always_off, parentbased_traceidratio")
}

// Propagator is W3C tracecontext and baggage: what the gateway reads from a
// browser's request and every hop passes on. The kit's instrumentation uses
// it directly, so propagation does not hang on the global one being set
// (a test's server, made without Start, propagates too).
var Propagator propagation.TextMapPropagator = propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{})

// Tracer is the kit's tracer for the spans it makes itself (the outbox
// relay, consumers); what it records goes to the global provider.
func Tracer() trace.Tracer { return otel.Tracer("uplift.dev/platform") }

// TraceParent is the W3C traceparent of the span in ctx, "" without one:
// what a stored event or email keeps so its later work joins the trace.
func TraceParent(ctx context.Context) string {
	c := propagation.MapCarrier{}
	propagation.TraceContext{}.Inject(ctx, c)
	return c["traceparent"]
}

// WithTraceParent returns ctx with the remote span that traceparent names
// as its parent; a malformed or empty one leaves ctx as it is.
func WithTraceParent(ctx context.Context, traceparent string) context.Context {
	if traceparent == "" {
		return ctx
	}
	return propagation.TraceContext{}.Extract(ctx, propagation.MapCarrier{"traceparent": traceparent})
}

// Headers carries span context in a case-sensitive header map such as
// nats.Header (whose Get does not canonicalise, unlike http.Header), with
// the W3C names as written: traceparent, tracestate, baggage.
type Headers map[string][]string

// Get implements propagation.TextMapCarrier.
func (h Headers) Get(key string) string {
	if v := h[key]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// Set implements propagation.TextMapCarrier.
func (h Headers) Set(key, value string) { h[key] = []string{value} }

// Keys implements propagation.TextMapCarrier.
func (h Headers) Keys() []string {
	keys := make([]string, 0, len(h))
	for k := range h {
		keys = append(keys, k)
	}
	return keys
}

// Inject writes ctx's span context into h (a message's headers).
func Inject(ctx context.Context, h map[string][]string) {
	Propagator.Inject(ctx, Headers(h))
}

// Extract returns ctx with the span context h carries as the remote parent.
func Extract(ctx context.Context, h map[string][]string) context.Context {
	return Propagator.Extract(ctx, Headers(h))
}
