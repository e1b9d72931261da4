package events

import (
	"context"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"uplift.dev/platform/tracing"
)

// How an event's trace crosses the bus: Enqueue stores the writer's
// traceparent with the outbox row; the relay starts a producer span as its
// child and puts that span's context in the message's headers (traceparent,
// beside the signature, which does not cover it: a forged one can only
// misfile a trace); each consumer starts its span as the child of the
// headers' context, and what it enqueues in turn carries its span on.

// startPublish starts the relay's span for one outbox row, the child of
// the row's traceparent, and writes its context into msg's headers.
func startPublish(ctx context.Context, traceparent, id string, msg *nats.Msg) trace.Span {
	ctx = tracing.WithTraceParent(ctx, traceparent)
	ctx, span := tracing.Tracer().Start(ctx, "publish "+msg.Subject, trace.WithSpanKind(trace.SpanKindProducer),
		trace.WithAttributes(messaging(msg.Subject, id)...))
	tracing.Inject(ctx, msg.Header)
	return span
}

// startConsume starts a consumer's span for msg, the child of the span
// that published it.
func startConsume(ctx context.Context, durable, id string, msg jetstream.Msg) (context.Context, trace.Span) {
	ctx = tracing.Extract(ctx, msg.Headers())
	return tracing.Tracer().Start(ctx, "process "+durable, trace.WithSpanKind(trace.SpanKindConsumer),
		trace.WithAttributes(append(messaging(msg.Subject(), id), attribute.String("messaging.consumer.group.name", durable))...))
}

// messaging are OpenTelemetry's messaging attributes for a NATS event.
func messaging(subject, id string) []attribute.KeyValue {
	return []attribute.KeyValue{
		attribute.String("messaging.system", "nats"),
		attribute.String("messaging.destination.name", subject),
		attribute.String("messaging.message.id", id),
	}
}

// endFailed marks span as failed with err (it is ended by its caller).
func endFailed(span trace.Span, err error) {
	span.RecordError(err)
	span.SetStatus(codes.Error, err.Error())
}
