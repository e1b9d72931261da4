package events_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"go.opentelemetry.io/otel"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	eventsv1 "uplift.dev/proto/gen/uplift/events/v1"

	"uplift.dev/platform/events"
	"uplift.dev/platform/natstest"
	"uplift.dev/platform/tracing"
)

var tracedWelcome = events.Declare("digest", "digest-traced", events.SubjectUserCreated)

// TestTraceCrossesTheOutbox: an event enqueued inside a span is published
// by the relay in a span that is its child, and the consumer's span is the
// relay's child, with the consumer's handler running in it; what the
// handler enqueues carries the consumer's span on. Without the stored
// traceparent or the message headers, the consumer starts a trace of its
// own and this fails.
func TestTraceCrossesTheOutbox(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	spans := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(spans))
	prev := otel.GetTracerProvider()
	otel.SetTracerProvider(tp)
	defer otel.SetTracerProvider(prev)

	pool := outboxDB(t, "traced")
	nc, js, err := events.Connect(ctx, natstest.StartWithStream(t), "test")
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()

	reqCtx, request := tp.Tracer("test").Start(ctx, "request")
	if err := pgx.BeginFunc(reqCtx, pool, func(tx pgx.Tx) error {
		return events.Enqueue(reqCtx, tx, events.SubjectUserCreated, &eventsv1.UserCreated{UserId: "u1"})
	}); err != nil {
		t.Fatal(err)
	}
	request.End()
	relay := &events.Relay{Pool: pool, JS: js, Log: quiet}
	if n, err := relay.RelayOnce(ctx); err != nil || n != 1 {
		t.Fatalf("relay: %d, %v", n, err)
	}

	handled := make(chan trace.SpanContext, 1)
	bus := events.Bus{JS: js, Pool: pool, Log: quiet}
	go func() {
		_ = events.On(bus, tracedWelcome, func(ctx context.Context, tx pgx.Tx, _ *eventsv1.UserCreated, _ events.Meta) error {
			// The consumer's own event, written in its span.
			if err := events.Enqueue(ctx, tx, events.SubjectCategoryUpdated, &eventsv1.CategoryUpdated{}); err != nil {
				return err
			}
			handled <- trace.SpanContextFromContext(ctx)
			return nil
		})(ctx)
	}()
	var inHandler trace.SpanContext
	select {
	case inHandler = <-handled:
	case <-time.After(10 * time.Second):
		t.Fatal("the event was not handled")
	}
	// The handler reports before its transaction commits; cancelling
	// first would roll the consumer's event back.
	var stored *string
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		err := pool.QueryRow(context.Background(), `SELECT traceparent FROM outbox WHERE subject = $1`,
			events.SubjectCategoryUpdated).Scan(&stored)
		if err == nil {
			break
		}
		if !errors.Is(err, pgx.ErrNoRows) || time.Now().After(deadline) {
			t.Fatalf("the consumer's event: %v", err)
		}
	}
	cancel()

	byName := map[string]tracetest.SpanStub{}
	deadline := time.Now().Add(5 * time.Second)
	for len(byName) < 3 && time.Now().Before(deadline) {
		for _, s := range spans.GetSpans() {
			byName[s.Name] = s
		}
		time.Sleep(20 * time.Millisecond)
	}
	root, publish, process := byName["request"], byName["publish "+events.SubjectUserCreated], byName["process digest-traced"]
	want := root.SpanContext.TraceID()
	if publish.SpanContext.TraceID() != want || publish.Parent.SpanID() != root.SpanContext.SpanID() {
		t.Errorf("publish span %v (parent %v), want a child of the request %v", publish.SpanContext, publish.Parent, root.SpanContext)
	}
	if publish.SpanKind != trace.SpanKindProducer {
		t.Errorf("publish span kind %v", publish.SpanKind)
	}
	if process.SpanContext.TraceID() != want || process.Parent.SpanID() != publish.SpanContext.SpanID() {
		t.Errorf("process span %v (parent %v), want a child of the publish %v", process.SpanContext, process.Parent, publish.SpanContext)
	}
	if inHandler.SpanID() != process.SpanContext.SpanID() {
		t.Errorf("the handler ran in span %v, want the consumer's %v", inHandler, process.SpanContext)
	}
	if stored == nil {
		t.Fatal("the consumer's event was stored with no traceparent")
	}
	childCtx := tracing.WithTraceParent(context.Background(), *stored)
	if sc := trace.SpanContextFromContext(childCtx); sc.TraceID() != want || sc.SpanID() != process.SpanContext.SpanID() {
		t.Errorf("the consumer's event stored traceparent %q, want the consumer's span in trace %v", *stored, want)
	}
}
