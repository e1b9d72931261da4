package ratelimit

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"uplift.dev/platform/clock"
)

// startNATS is an embedded JetStream server with the limits bucket made
// (as the admin's SetUp makes it).
func startNATS(t *testing.T) *server.Server {
	t.Helper()
	s, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: -1, JetStream: true, StoreDir: t.TempDir(), NoLog: true, NoSigs: true})
	if err != nil {
		t.Fatal(err)
	}
	go s.Start()
	if !s.ReadyForConnections(10 * time.Second) {
		t.Fatal("nats not ready")
	}
	t.Cleanup(s.Shutdown)
	if err := EnsureBuckets(context.Background(), replicaJS(t, s.ClientURL()), 1); err != nil {
		t.Fatal(err)
	}
	return s
}

// replicaJS is one gateway replica's own connection.
func replicaJS(t *testing.T, url string) jetstream.JetStream {
	t.Helper()
	nc, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	return js
}

func newLimiter(t *testing.T, capacity int, period time.Duration, js jetstream.JetStream, now *clock.Manual) *Limiter {
	t.Helper()
	l, err := New("test", capacity, period, js, nil)
	if err != nil {
		t.Fatal(err)
	}
	l.now = now.Clock()
	return l
}

// TestTokenBucketRefills: capacity tokens at once, then one per
// period/capacity, in the shared store and in the local fallback alike;
// each client has a bucket of its own.
func TestTokenBucketRefills(t *testing.T) {
	t.Parallel()
	url := startNATS(t).ClientURL()
	for name, js := range map[string]jetstream.JetStream{"shared": replicaJS(t, url), "local": nil} {
		t.Run(name, func(t *testing.T) {
			// Across the night Europe's clocks go forward (UTC is steady).
			now := clock.NewManual(time.Date(2026, 3, 29, 0, 59, 45, 0, time.UTC))
			l := newLimiter(t, 2, time.Minute, js, now)
			ctx := context.Background()
			take := func(client string) bool { ok, _ := l.Take(ctx, client); return ok }
			if !take("a") || !take("a") || take("a") {
				t.Fatal("a bucket of 2 should allow exactly 2")
			}
			if _, wait := l.Take(ctx, "a"); wait != 30*time.Second {
				t.Fatalf("wait %v, want 30s for the next token", wait)
			}
			if !take("2001:db8::/64") {
				t.Fatal("another client has its own bucket")
			}
			now.Advance(30 * time.Second) // half a minute refills one token
			if !take("a") || take("a") {
				t.Fatal("refill wrong")
			}
			now.Advance(time.Hour) // a long pause refills to capacity, no more
			if !take("a") || !take("a") || take("a") {
				t.Fatal("a refilled bucket should hold its capacity")
			}
		})
	}
}

// TestReplicasShareOneBucket: two replicas, each with its own connection,
// taking the same client's tokens at once from eight goroutines grant the
// capacity exactly once between them (compare-and-set on the entry), where
// buckets in each replica's memory granted it once per replica.
func TestReplicasShareOneBucket(t *testing.T) {
	t.Parallel()
	url := startNATS(t).ClientURL()
	now := clock.NewManual(time.Now())
	replicas := []*Limiter{
		newLimiter(t, 10, time.Hour, replicaJS(t, url), now),
		newLimiter(t, 10, time.Hour, replicaJS(t, url), now),
	}
	var granted atomic.Int32
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for range 5 {
				if ok, _ := replicas[g%2].Take(context.Background(), "198.51.100.7"); ok {
					granted.Add(1)
				}
			}
		})
	}
	wg.Wait()
	if n := granted.Load(); n != 10 {
		t.Fatalf("granted %d of 40 tries across two replicas, want 10", n)
	}
}

// TestStoreDownFallsBackToThisReplica: with NATS gone the limit still
// holds, per replica (neither every call refused nor every call let
// through), and each refused call is answered within the store timeout.
func TestStoreDownFallsBackToThisReplica(t *testing.T) {
	t.Parallel()
	s := startNATS(t)
	l := newLimiter(t, 3, time.Minute, replicaJS(t, s.ClientURL()), clock.NewManual(time.Now()))
	if ok, _ := l.Take(context.Background(), "a"); !ok {
		t.Fatal("first take refused")
	}
	s.Shutdown()
	began := time.Now()
	granted := 0
	for range 5 {
		if ok, _ := l.Take(context.Background(), "a"); ok {
			granted++
		}
	}
	if granted != 3 {
		t.Fatalf("granted %d of 5 with the store down, want 3 (this replica's own bucket)", granted)
	}
	if took := time.Since(began); took > 5*storeTimeout+time.Second {
		t.Fatalf("5 takes with the store down took %v", took)
	}
}

func TestNewRefusesALimitTheBucketCannotHold(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		capacity int
		period   time.Duration
	}{{0, time.Minute}, {5, 0}, {5, 2 * MaxPeriod}} {
		if _, err := New("x", c.capacity, c.period, nil, nil); err == nil {
			t.Errorf("New accepted %d per %v", c.capacity, c.period)
		}
	}
}
