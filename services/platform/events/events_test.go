package events_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"google.golang.org/protobuf/proto"

	eventsv1 "uplift.dev/proto/gen/uplift/events/v1"

	"uplift.dev/platform/events"
	"uplift.dev/platform/natstest"
	"uplift.dev/platform/pgtest"
	"uplift.dev/platform/postgres"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// flakyPublisher fails its first n publishes, like NATS being away.
type flakyPublisher struct {
	js    jetstream.JetStream
	fails int
}

func (f *flakyPublisher) PublishMsg(ctx context.Context, m *nats.Msg, o ...jetstream.PublishOpt) (*jetstream.PubAck, error) {
	if f.fails > 0 {
		f.fails--
		return nil, errors.New("nats unavailable")
	}
	return f.js.PublishMsg(ctx, m, o...)
}

func TestOutboxToConsumerExactlyOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := pgtest.Pool(t, "svc")
	if err := postgres.Migrate(ctx, pool, events.Migrations()); err != nil {
		t.Fatal(err)
	}
	nc, js, err := events.Connect(ctx, natstest.StartWithStream(t), "test")
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()

	// Two events committed, one rolled back: only the committed ones may leave.
	for _, id := range []string{"u1", "u2"} {
		if err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
			return events.Enqueue(ctx, tx, events.SubjectUserCreated, &eventsv1.UserCreated{UserId: id})
		}); err != nil {
			t.Fatal(err)
		}
	}
	_ = pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		_ = events.Enqueue(ctx, tx, events.SubjectUserCreated, &eventsv1.UserCreated{UserId: "rolled-back"})
		return errors.New("abort")
	})

	pub := &flakyPublisher{js: js, fails: 1}
	relay := &events.Relay{Pool: pool, JS: pub, Log: quiet}
	if n, _ := relay.RelayOnce(ctx); n != 0 {
		t.Fatalf("published %d while NATS was failing", n)
	}
	if n, err := relay.RelayOnce(ctx); err != nil || n != 2 {
		t.Fatalf("relay: n=%d err=%v", n, err)
	}
	if n, _ := relay.RelayOnce(ctx); n != 0 {
		t.Fatalf("relay published %d events twice", n)
	}

	// Publishing the same outbox row again (a crash before stamping) is
	// dropped by JetStream's duplicate window.
	var id string
	if err := pool.QueryRow(ctx, `SELECT id::text FROM outbox LIMIT 1`).Scan(&id); err != nil {
		t.Fatal(err)
	}
	ack, err := js.PublishMsg(ctx, &nats.Msg{Subject: events.SubjectUserCreated, Data: []byte("x")}, jetstream.WithMsgID(id))
	if err != nil || !ack.Duplicate {
		t.Fatalf("replay not dropped: %+v %v", ack, err)
	}

	got := make(chan string, 10)
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		_ = events.Consume(cctx, events.Bus{JS: js, Pool: pool, Log: quiet}, "test-consumer", events.SubjectUserCreated,
			func(_ context.Context, _ pgx.Tx, m jetstream.Msg) error {
				var ev eventsv1.UserCreated
				if err := proto.Unmarshal(m.Data(), &ev); err != nil {
					return err
				}
				got <- ev.GetUserId()
				return nil
			})
	}()
	seen := map[string]bool{}
	timeout := time.After(10 * time.Second)
	for len(seen) < 2 {
		select {
		case id := <-got:
			if seen[id] {
				t.Fatalf("%s handled twice", id)
			}
			seen[id] = true
		case <-timeout:
			t.Fatalf("events not consumed; got %v", seen)
		}
	}
	if seen["rolled-back"] {
		t.Fatal("a rolled-back event was published")
	}
}

func TestHandleOnceSkipsRepeats(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := pgtest.Pool(t, "svc")
	if err := postgres.Migrate(ctx, pool, events.Migrations()); err != nil {
		t.Fatal(err)
	}
	calls := 0
	for range 3 {
		if err := events.HandleOnce(ctx, pool, "c", "msg-1", func(pgx.Tx) error { calls++; return nil }); err != nil {
			t.Fatal(err)
		}
	}
	if calls != 1 {
		t.Fatalf("handler ran %d times", calls)
	}
	// A failed handler leaves no record, so the redelivery runs it again.
	_ = events.HandleOnce(ctx, pool, "c", "msg-2", func(pgx.Tx) error { return errors.New("boom") })
	ran := false
	_ = events.HandleOnce(ctx, pool, "c", "msg-2", func(pgx.Tx) error { ran = true; return nil })
	if !ran {
		t.Fatal("failed message was marked processed")
	}
}
