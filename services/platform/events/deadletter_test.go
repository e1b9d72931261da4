package events_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	eventsv1 "uplift.dev/proto/gen/uplift/events/v1"

	"uplift.dev/platform/events"
	"uplift.dev/platform/natstest"
	"uplift.dev/platform/pgtest"
	"uplift.dev/platform/postgres"
)

// A poison event (one its consumer fails every time) is delivered
// MaxDeliveries times, then moves to consumer_dead_letters with its error,
// is counted, and is not delivered again; the events behind it go on.
func TestAPoisonEventIsDeadLetteredAfterMaxDeliveries(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pool := pgtest.Pool(t, "svc")
	if err := postgres.Migrate(ctx, pool, events.Migrations()); err != nil {
		t.Fatal(err)
	}
	nc, js, err := events.Connect(ctx, natstest.StartWithStream(t), "test")
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	for _, id := range []string{"poison", "fine"} {
		if err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
			return events.Enqueue(ctx, tx, events.SubjectUserCreated, &eventsv1.UserCreated{UserId: id})
		}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := (&events.Relay{Pool: pool, JS: js, Log: quiet}).RelayOnce(ctx); err != nil {
		t.Fatal(err)
	}

	reg := prometheus.NewRegistry()
	metrics := events.NewConsumerMetrics(reg, "users")
	bus := events.Bus{JS: js, Pool: pool, Log: quiet, Metrics: metrics, MaxDeliveries: 4, RetryBase: 20 * time.Millisecond}
	var poisonTries, fine atomic.Int32
	go func() {
		_ = events.Consume(ctx, bus, usersBilling.Durable, events.SubjectUserCreated,
			func(_ context.Context, _ pgx.Tx, m jetstream.Msg) error {
				if strings.Contains(string(m.Data()), "poison") {
					poisonTries.Add(1)
					return errors.New("cannot apply: the user's plan is missing")
				}
				fine.Add(1)
				return nil
			})
	}()
	deadline := time.Now().Add(15 * time.Second)
	var deliveries int
	var cause string
	for {
		err := pool.QueryRow(ctx, `SELECT deliveries, error FROM consumer_dead_letters WHERE consumer = $1`,
			usersBilling.Durable).Scan(&deliveries, &cause)
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no dead letter after %d tries: %v", poisonTries.Load(), err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if deliveries != 4 || !strings.Contains(cause, "plan is missing") {
		t.Fatalf("dead letter: %d deliveries, error %q; want 4 and the handler's error", deliveries, cause)
	}
	time.Sleep(500 * time.Millisecond) // would be 8 more tries at the last delay
	if n := poisonTries.Load(); n != 4 {
		t.Fatalf("the poison event was tried %d times, want 4 and no more", n)
	}
	if fine.Load() != 1 {
		t.Fatalf("the event behind it was handled %d times, want 1", fine.Load())
	}
	if got := testutil.ToFloat64(metrics.DeadLetters(usersBilling.Durable)); got != 1 {
		t.Fatalf("event_dead_letters_total = %v, want 1", got)
	}
}

// Prune removes published outbox rows and processed message ids past their
// keeping time, and keeps what is unpublished or recent.
func TestPruneRemovesOnlyWhatIsPastKeeping(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := pgtest.Pool(t, "svc")
	if err := postgres.Migrate(ctx, pool, events.Migrations()); err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 3, 29, 1, 30, 0, 0, time.UTC) // the night Europe's clocks go forward
	old := now.Add(-events.KeepPublished - time.Hour)
	if _, err := pool.Exec(ctx, `INSERT INTO outbox (id, subject, payload, created_at, published_at) VALUES
		(gen_random_uuid(), 's', '', $1, $1),              -- published long ago: pruned
		(gen_random_uuid(), 's', '', $1, NULL),            -- never published: kept
		(gen_random_uuid(), 's', '', $2, $2)`, // published lately: kept
		old, now.Add(-time.Hour)); err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(ctx, `INSERT INTO processed_messages (consumer, message_id, processed_at) VALUES
		('c', 'old', $1), ('c', 'within-stream-age', $2), ('c', 'new', $3)`,
		now.Add(-events.KeepProcessed-time.Minute), now.Add(-events.StreamMaxAge), now); err != nil {
		t.Fatal(err)
	}
	outbox, processed, err := events.Prune(ctx, pool, now)
	if err != nil || outbox != 1 || processed != 1 {
		t.Fatalf("pruned %d outbox rows and %d processed ids (%v), want 1 and 1", outbox, processed, err)
	}
	var left int
	_ = pool.QueryRow(ctx, `SELECT count(*) FROM processed_messages WHERE message_id = 'within-stream-age'`).Scan(&left)
	if left != 1 {
		t.Fatal("a message id the stream could still redeliver was pruned")
	}
}
