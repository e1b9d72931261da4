package events

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/prometheus/client_golang/prometheus"
)

// DefaultMaxDeliveries is how many times a consumer is given one event
// before the event moves to consumer_dead_letters (Bus.MaxDeliveries). The
// delays between tries grow from 2 s to 5 min (retryDelay), so an event is
// retried for about 80 minutes:
// longer than a dependency's usual outage (a mail relay, another service),
// short enough that a poison event stops costing a try every 2 s. While
// the database is away nothing is dead-lettered: the dead letter is written
// there, so the event is retried until it can be.
const DefaultMaxDeliveries = 20

// retryDelay is the wait before the next delivery after delivered failed
// ones: base (2 s when 0), doubling each time, at most 5 minutes.
func retryDelay(base time.Duration, delivered uint64) time.Duration {
	d := cmp.Or(base, 2*time.Second)
	for n := uint64(1); n < delivered && d < 5*time.Minute; n++ {
		d *= 2
	}
	return min(d, 5*time.Minute)
}

// ConsumerMetrics count what a service's consumers gave up on.
type ConsumerMetrics struct {
	deadLetters *prometheus.CounterVec
}

// NewConsumerMetrics registers event_dead_letters_total{consumer} with reg,
// each of service's consumers from zero so that an alert on an increase
// sees the first one.
func NewConsumerMetrics(reg prometheus.Registerer, service string) *ConsumerMetrics {
	m := &ConsumerMetrics{deadLetters: prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "event_dead_letters_total",
		Help: "Events a consumer failed to handle MaxDeliveries times, moved to consumer_dead_letters.",
	}, []string{"consumer"})}
	for _, c := range ConsumersOf(service) {
		m.deadLetters.WithLabelValues(c.Durable)
	}
	reg.MustRegister(m.deadLetters)
	return m
}

// failed answers a delivery that the handler could not apply: another try
// after a growing delay, or, at the Bus.MaxDeliveries-th, the dead letters.
func (b Bus) failed(ctx context.Context, durable, id string, msg jetstream.Msg, cause error) {
	var n uint64 = 1
	meta, err := msg.Metadata()
	if err == nil {
		n = meta.NumDelivered
	}
	if n < uint64(cmp.Or(b.MaxDeliveries, DefaultMaxDeliveries)) {
		b.Log.WarnContext(ctx, "event handling failed; will retry", "consumer", durable, "subject", msg.Subject(), "id", id,
			"delivery", n, "retry_in", retryDelay(b.RetryBase, n).String(), "err", cause)
		_ = msg.NakWithDelay(retryDelay(b.RetryBase, n))
		return
	}
	if err := b.deadLetter(ctx, durable, id, msg, n, cause); err != nil {
		b.Log.WarnContext(ctx, "event handling failed and its dead letter could not be written; will retry", "consumer", durable,
			"subject", msg.Subject(), "id", id, "err", cause, "dead_letter_err", err)
		_ = msg.NakWithDelay(retryDelay(b.RetryBase, n))
		return
	}
	b.Log.ErrorContext(ctx, "event dead-lettered: its consumer failed it every time; fix the cause, then send it again (docs/operations.md, 'Dead letters on the consuming side')",
		"consumer", durable, "subject", msg.Subject(), "id", id, "deliveries", n, "err", cause)
	if b.Metrics != nil {
		b.Metrics.deadLetters.WithLabelValues(durable).Inc()
	}
	_ = msg.Term()
}

func (b Bus) deadLetter(ctx context.Context, durable, id string, msg jetstream.Msg, deliveries uint64, cause error) error {
	headers, err := json.Marshal(msg.Headers())
	if err != nil {
		return fmt.Errorf("headers: %w", err)
	}
	_, err = b.Pool.Exec(context.WithoutCancel(ctx), `INSERT INTO consumer_dead_letters
		(consumer, message_id, subject, headers, payload, deliveries, error) VALUES ($1, $2, $3, $4, $5, $6, $7)
		ON CONFLICT (consumer, message_id) DO UPDATE SET deliveries = EXCLUDED.deliveries, error = EXCLUDED.error, failed_at = now()`,
		durable, id, msg.Subject(), headers, msg.Data(), int(deliveries), cause.Error())
	return err
}

// DeadLetters is consumer's dead-letter counter, for tests and dashboards.
func (m *ConsumerMetrics) DeadLetters(consumer string) prometheus.Counter {
	return m.deadLetters.WithLabelValues(consumer)
}
