package events_test

import (
	"context"
	"fmt"
	"net"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"google.golang.org/protobuf/proto"

	eventsv1 "uplift.dev/proto/gen/uplift/events/v1"

	"uplift.dev/platform/events"
	"uplift.dev/platform/pgtest"
	"uplift.dev/platform/postgres"
)

// TestNATSOutage: NATS goes away while a service keeps committing events
// (one every 50 ms) and comes back with its store. Every event is delivered
// and applied exactly once, none dead-lettered: the outbox holds what could not be published,
// JetStream drops a publish it already has, and the consumer records each
// message id in the transaction of its effect. `make chaos` keeps NATS down
// for 60 s; `make test` for 3 s.
func TestNATSOutage(t *testing.T) {
	t.Parallel()
	down := 3 * time.Second
	if os.Getenv("UPLIFT_CHAOS") != "" {
		down = 60 * time.Second
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pool := pgtest.Pool(t, "outage")
	if err := postgres.Migrate(ctx, pool, events.Migrations()); err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(ctx, `CREATE TABLE applied (user_id text PRIMARY KEY, times int NOT NULL)`); err != nil {
		t.Fatal(err)
	}

	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	opts := &server.Options{Host: "127.0.0.1", Port: port, JetStream: true, StoreDir: t.TempDir(), NoLog: true, NoSigs: true}
	startNATS := func() *server.Server {
		s, err := server.NewServer(opts)
		if err != nil {
			t.Fatal(err)
		}
		go s.Start()
		if !s.ReadyForConnections(10 * time.Second) {
			t.Fatal("nats not ready")
		}
		return s
	}
	ns := startNATS()
	t.Cleanup(func() { ns.Shutdown() })

	adm, err := nats.Connect(ns.ClientURL())
	if err != nil {
		t.Fatal(err)
	}
	admJS, _ := jetstream.New(adm)
	if err := events.EnsureStream(ctx, admJS, 1); err != nil {
		t.Fatal(err)
	}
	adm.Close()
	nc, js, err := events.Connect(ctx, ns.ClientURL(), "outage-test")
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	relay := &events.Relay{Pool: pool, JS: js, Log: quiet, Poll: 200 * time.Millisecond}
	go func() { _ = relay.Run(ctx) }()
	go func() {
		_ = events.Consume(ctx, events.Bus{JS: js, Pool: pool, Log: quiet}, "outage-consumer", events.SubjectUserCreated,
			func(ctx context.Context, tx pgx.Tx, m jetstream.Msg) error {
				var ev eventsv1.UserCreated
				if err := proto.Unmarshal(m.Data(), &ev); err != nil {
					return err
				}
				_, err := tx.Exec(ctx, `INSERT INTO applied (user_id, times) VALUES ($1, 1)
					ON CONFLICT (user_id) DO UPDATE SET times = applied.times + 1`, ev.GetUserId())
				return err
			})
	}()

	// A service keeps working: an event committed every 50 ms throughout.
	var committed atomic.Int64
	stopWriting := make(chan struct{})
	writerDone := make(chan struct{})
	go func() {
		defer close(writerDone)
		for i := 0; ; i++ {
			select {
			case <-stopWriting:
				return
			case <-time.After(50 * time.Millisecond):
			}
			if err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
				return events.Enqueue(ctx, tx, events.SubjectUserCreated, &eventsv1.UserCreated{UserId: fmt.Sprintf("u%d", i)})
			}); err != nil {
				t.Error(err)
				return
			}
			committed.Add(1)
		}
	}()

	time.Sleep(2 * time.Second)
	ns.Shutdown()
	ns.WaitForShutdown()
	wentDown := committed.Load()
	time.Sleep(down)
	duringOutage := committed.Load() - wentDown
	ns = startNATS()
	cameBack := time.Now()
	time.Sleep(2 * time.Second)
	close(stopWriting)
	<-writerDone
	total := committed.Load()

	deadline := time.Now().Add(60 * time.Second)
	var applied, twice int64
	for {
		if err := pool.QueryRow(ctx, `SELECT count(*), count(*) FILTER (WHERE times > 1) FROM applied`).Scan(&applied, &twice); err != nil {
			t.Fatal(err)
		}
		if applied == total || time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Logf("NATS down %s: %d events committed (%d during the outage), %d applied, %d applied twice; all applied %s after NATS came back (committing went on 2 s after it)",
		down, total, duringOutage, applied, twice, time.Since(cameBack).Round(100*time.Millisecond))
	if duringOutage == 0 {
		t.Fatal("no event was committed during the outage: the test proves nothing")
	}
	if applied != total || twice != 0 {
		t.Fatalf("%d committed, %d applied, %d applied more than once", total, applied, twice)
	}
	// An outage is something to wait out, never a reason to give up on an event.
	var dead int
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM outbox_dead_letters`).Scan(&dead); err != nil || dead != 0 {
		t.Fatalf("%d events dead-lettered during the outage (%v)", dead, err)
	}
}
