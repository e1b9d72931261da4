package events_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/prometheus/client_golang/prometheus"
	"google.golang.org/protobuf/proto"

	eventsv1 "uplift.dev/proto/gen/uplift/events/v1"

	"uplift.dev/platform/events"
	"uplift.dev/platform/natstest"
	"uplift.dev/platform/pgtest"
	"uplift.dev/platform/postgres"
)

func outboxDB(t *testing.T, name string) *pgxpool.Pool {
	t.Helper()
	pool := pgtest.Pool(t, name)
	if err := postgres.Migrate(context.Background(), pool, events.Migrations()); err != nil {
		t.Fatal(err)
	}
	return pool
}

func enqueueUsers(t *testing.T, pool *pgxpool.Pool, ids ...string) {
	t.Helper()
	ctx := context.Background()
	for _, id := range ids {
		if err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
			return events.Enqueue(ctx, tx, events.SubjectUserCreated, &eventsv1.UserCreated{UserId: id})
		}); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Millisecond) // distinct created_at, so the order is the test's
	}
}

func counts(t *testing.T, pool *pgxpool.Pool) (pending, dead int) {
	t.Helper()
	if err := pool.QueryRow(context.Background(), `SELECT
		(SELECT count(*) FROM outbox WHERE published_at IS NULL), (SELECT count(*) FROM outbox_dead_letters)`).Scan(&pending, &dead); err != nil {
		t.Fatal(err)
	}
	return pending, dead
}

// TestOversizedEventIsDeadLettered: an event larger than NATS takes (a
// real nats-server, whose max_payload is 1 MiB) used to stop the relay at
// that row for good, and with it every event after it. Now it moves to the
// dead letters, with an error in the log and a count on /metrics, and the
// events after it are published, in order.
func TestOversizedEventIsDeadLettered(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := outboxDB(t, "deadletter")
	nc, js, err := events.Connect(ctx, natstest.StartWithStream(t), "test")
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	huge := strings.Repeat("x", 2<<20)
	enqueueUsers(t, pool, "before", huge, "after-1", "after-2")

	var logs bytes.Buffer
	reg := prometheus.NewRegistry()
	relay := &events.Relay{Pool: pool, JS: js, Log: slog.New(slog.NewJSONHandler(&logs, nil)), Metrics: events.NewRelayMetrics(reg)}
	n, err := relay.RelayOnce(ctx)
	if err != nil || n != 3 {
		t.Fatalf("relay: %d published, %v; want the 3 small events", n, err)
	}
	if pending, dead := counts(t, pool); pending != 0 || dead != 1 {
		t.Fatalf("%d pending, %d dead letters; want 0 and 1", pending, dead)
	}
	var subject, why string
	var size int
	if err := pool.QueryRow(ctx, `SELECT subject, length(payload), error FROM outbox_dead_letters`).Scan(&subject, &size, &why); err != nil {
		t.Fatal(err)
	}
	if subject != events.SubjectUserCreated || size < 2<<20 || !strings.Contains(why, "maximum payload") {
		t.Fatalf("dead letter %s, %d bytes, %q", subject, size, why)
	}
	if got := deadLetterCounts(t, reg); len(got) != 1 || got[events.SubjectUserCreated] != 1 {
		t.Fatalf("outbox_dead_letters_total: %v, want 1 for %s", got, events.SubjectUserCreated)
	}
	if !strings.Contains(logs.String(), `"level":"ERROR"`) || !strings.Contains(logs.String(), "dead-lettered") {
		t.Fatalf("no error logged: %s", logs.String())
	}

	got := consumeUsers(t, js, pool, 3)
	if strings.Join(got, ",") != "before,after-1,after-2" {
		t.Fatalf("consumed %v", got)
	}
}

// TestRefusedEventWaitsThenDeadLetters: an event JetStream keeps refusing
// holds the events after it (it may yet pass, and order matters) until it
// was refused MaxRefusals times over RefusingFor; then it goes to the dead
// letters and the rest are published.
func TestRefusedEventWaitsThenDeadLetters(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := outboxDB(t, "refused")
	_, js, err := events.Connect(ctx, natstest.StartWithStream(t), "test")
	if err != nil {
		t.Fatal(err)
	}
	enqueueUsers(t, pool, "refused", "next")
	pub := &refusingPublisher{js: js, refuse: "refused"}
	relay := &events.Relay{Pool: pool, JS: pub, Log: quiet, MaxRefusals: 3, RefusingFor: time.Hour}
	for round := 1; round <= 4; round++ {
		if n, err := relay.RelayOnce(ctx); err != nil || n != 0 {
			t.Fatalf("round %d: %d published, %v; want the refused one to hold the next", round, n, err)
		}
		if pending, dead := counts(t, pool); pending != 2 || dead != 0 {
			t.Fatalf("round %d (refused for less than RefusingFor): %d pending, %d dead letters", round, pending, dead)
		}
	}
	relay.RefusingFor = time.Millisecond
	if n, err := relay.RelayOnce(ctx); err != nil || n != 1 {
		t.Fatalf("after 5 refusals over RefusingFor: %d published, %v", n, err)
	}
	var attempts int
	if err := pool.QueryRow(ctx, `SELECT attempts FROM outbox_dead_letters`).Scan(&attempts); err != nil || attempts != 5 {
		t.Fatalf("dead letter: %d attempts, %v", attempts, err)
	}
	if got := consumeUsers(t, js, pool, 1); got[0] != "next" {
		t.Fatalf("consumed %v", got)
	}
}

// refusingPublisher answers for JetStream with an error, as a stream out of
// space does, for the user id refuse.
type refusingPublisher struct {
	js     jetstream.JetStream
	refuse string
}

func (p *refusingPublisher) PublishMsg(ctx context.Context, m *nats.Msg, o ...jetstream.PublishOpt) (*jetstream.PubAck, error) {
	var ev eventsv1.UserCreated
	if proto.Unmarshal(m.Data, &ev) == nil && ev.GetUserId() == p.refuse {
		return nil, errors.Join(errors.New("nats"), &jetstream.APIError{Code: 503, ErrorCode: 10023, Description: "insufficient resources"})
	}
	return p.js.PublishMsg(ctx, m, o...)
}

// consumeUsers reads n UserCreated events from the stream, in order.
func consumeUsers(t *testing.T, js jetstream.JetStream, pool *pgxpool.Pool, n int) []string {
	t.Helper()
	got := make(chan string, 10)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		_ = events.Consume(ctx, events.Bus{JS: js, Pool: pool, Log: quiet}, "relay-test", events.SubjectUserCreated,
			func(_ context.Context, _ pgx.Tx, m jetstream.Msg) error {
				var ev eventsv1.UserCreated
				if err := proto.Unmarshal(m.Data(), &ev); err != nil {
					return err
				}
				got <- ev.GetUserId()
				return nil
			})
	}()
	var out []string
	timeout := time.After(10 * time.Second)
	for len(out) < n {
		select {
		case id := <-got:
			out = append(out, id)
		case <-timeout:
			t.Fatalf("only %v consumed", out)
		}
	}
	return out
}

// deadLetterCounts reads outbox_dead_letters_total from reg: each subject
// with a count above zero, and every subject is there from the start.
func deadLetterCounts(t *testing.T, reg *prometheus.Registry) map[string]float64 {
	t.Helper()
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	for _, f := range families {
		if f.GetName() != "outbox_dead_letters_total" {
			continue
		}
		if len(f.GetMetric()) != len(events.Publishers) {
			t.Errorf("%d series, want one per subject (%d)", len(f.GetMetric()), len(events.Publishers))
		}
		for _, m := range f.GetMetric() {
			if v := m.GetCounter().GetValue(); v > 0 {
				out[m.GetLabel()[0].GetValue()] = v
			}
		}
	}
	return out
}
