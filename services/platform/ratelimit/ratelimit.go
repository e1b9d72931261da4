// Package ratelimit is a token bucket per client, kept in a NATS JetStream
// key-value bucket that every gateway replica shares, so N replicas give a
// client the limit once, not N times.
//
// A bucket's state is read and written with compare-and-set on the KV
// entry's revision: two replicas taking the same client's last token at
// once cannot both win. When NATS cannot be asked (down, slow, the bucket
// not made yet) a limiter falls back to buckets in its own process: the
// limit then holds per replica (up to N times it across N), which keeps
// sign-ups and website checks working through a NATS outage without
// making them unlimited. Failing closed would stop every sign-up while
// NATS is away; failing wide open would turn the website check into a free
// crawler for the length of the outage.
package ratelimit

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"uplift.dev/platform/clock"
)

// Bucket is the KV bucket that holds every limit's client buckets.
const Bucket = "ratelimits"

// MaxPeriod is the longest period a limit may refill over: the KV bucket
// forgets an entry this long after its last write, when a token bucket of
// any limit has refilled.
const MaxPeriod = time.Hour

// storeTimeout bounds one round trip to NATS, so an unreachable store
// costs a limited call this long at most before the local fallback.
const storeTimeout = 500 * time.Millisecond

// ClientSubjects are the NATS subjects a program that limits needs to
// publish to: the bucket's stream info (to open it), its direct gets and
// its writes. Nothing else of JetStream.
func ClientSubjects() []string {
	return []string{
		"$JS.API.STREAM.INFO.KV_" + Bucket,
		"$JS.API.DIRECT.GET.KV_" + Bucket + ".>",
		"$KV." + Bucket + ".>",
	}
}

// EnsureBuckets makes or updates the KV bucket (the admin's job: see
// natsauth.SetUp), kept on replicas servers.
func EnsureBuckets(ctx context.Context, js jetstream.JetStream, replicas int) error {
	if _, err := js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{
		Bucket:      Bucket,
		Description: "per-client rate limits (token buckets) shared by the gateway replicas",
		TTL:         MaxPeriod,
		Storage:     jetstream.FileStorage,
		Replicas:    max(replicas, 1),
	}); err != nil {
		return fmt.Errorf("nats: key-value bucket %s: %w", Bucket, err)
	}
	return nil
}

// Limiter is one limit: capacity tokens per client, refilled at capacity
// per period.
type Limiter struct {
	name     string
	capacity float64
	period   time.Duration
	js       jetstream.JetStream
	log      *slog.Logger
	now      clock.Clock
	local    *local

	mu sync.Mutex
	kv jetstream.KeyValue
}

// New makes the limit called name (a NATS subject token: letters, digits,
// '-' and '_'). With js nil it keeps its buckets in this process only
// (one replica, or a test).
func New(name string, capacity int, period time.Duration, js jetstream.JetStream, log *slog.Logger) (*Limiter, error) {
	if capacity < 1 || period <= 0 || period > MaxPeriod {
		return nil, fmt.Errorf("ratelimit %s: want capacity ≥ 1 and a period up to %v, got %d per %v", name, MaxPeriod, capacity, period)
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	l := &Limiter{name: name, capacity: float64(capacity), period: period, js: js, log: log, now: clock.Real}
	l.local = &local{l: l, buckets: map[string]state{}}
	return l, nil
}

// state is one client's bucket: tokens left as of last.
type state struct {
	tokens float64
	last   time.Time
}

// refill is s as of now.
func (l *Limiter) refill(s state, now time.Time) state {
	if s.last.IsZero() {
		return state{tokens: l.capacity, last: now}
	}
	gained := float64(now.Sub(s.last)) / float64(l.period) * l.capacity
	return state{tokens: min(l.capacity, max(0, s.tokens+gained)), last: now}
}

// spend takes a token from s, or says how long until there is one.
func (l *Limiter) spend(s state) (state, bool, time.Duration) {
	if s.tokens < 1 {
		return s, false, time.Duration((1 - s.tokens) / l.capacity * float64(l.period))
	}
	s.tokens--
	return s, true, 0
}

// Take takes a token from client's bucket; when it is empty, wait is how
// long until the next token.
func (l *Limiter) Take(ctx context.Context, client string) (ok bool, wait time.Duration) {
	if l.js != nil {
		ok, wait, err := l.takeShared(ctx, client)
		if err == nil {
			return ok, wait
		}
		l.log.Warn("rate limit store unreachable; limiting in this replica only", "limit", l.name, "err", err)
	}
	return l.local.take(client)
}

func (l *Limiter) store(ctx context.Context) (jetstream.KeyValue, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.kv == nil {
		kv, err := l.js.KeyValue(ctx, Bucket)
		if err != nil {
			return nil, err
		}
		l.kv = kv
	}
	return l.kv, nil
}

func (l *Limiter) takeShared(ctx context.Context, client string) (bool, time.Duration, error) {
	ctx, cancel := context.WithTimeout(ctx, storeTimeout)
	defer cancel()
	kv, err := l.store(ctx)
	if err != nil {
		return false, 0, err
	}
	// Subject tokens may not hold ':' or '/' (an IPv6 /64), hence base64.
	key := l.name + "." + base64.RawURLEncoding.EncodeToString([]byte(client))
	for attempt := 0; ; attempt++ {
		if attempt > 0 {
			// Another replica wrote this client's bucket between our read
			// and write (Create on a key that exists, Update on an old
			// revision; R>1 streams report the latter apart): read again,
			// after a pause that keeps the writers from meeting again.
			select {
			case <-time.After(rand.N(2 * time.Millisecond * time.Duration(attempt))):
			case <-ctx.Done():
				// A client whose calls keep colliding is sending many at
				// once: the store works, so refuse rather than fall back.
				return false, time.Duration(float64(l.period) / l.capacity), nil
			}
		}
		var s state
		var rev uint64
		e, err := kv.Get(ctx, key)
		switch {
		case err == nil:
			s, rev = decode(e.Value()), e.Revision()
		case !errors.Is(err, jetstream.ErrKeyNotFound):
			return false, 0, err
		}
		next, ok, wait := l.spend(l.refill(s, l.now()))
		if !ok {
			return false, wait, nil
		}
		if rev == 0 {
			_, err = kv.Create(ctx, key, encode(next))
		} else {
			_, err = kv.Update(ctx, key, encode(next), rev)
		}
		if err == nil {
			return true, 0, nil
		}
		if !errors.Is(err, jetstream.ErrKeyExists) && !errors.Is(err, jetstream.ErrKeyRevisionMismatch) {
			return false, 0, err
		}
	}
}

func encode(s state) []byte {
	b := make([]byte, 16)
	binary.BigEndian.PutUint64(b, math.Float64bits(s.tokens))
	binary.BigEndian.PutUint64(b[8:], uint64(s.last.UnixNano()))
	return b
}

// decode reads an entry; anything unreadable is a full bucket, as a
// missing one is.
func decode(b []byte) state {
	if len(b) != 16 {
		return state{}
	}
	return state{
		tokens: math.Float64frombits(binary.BigEndian.Uint64(b)),
		last:   time.Unix(0, int64(binary.BigEndian.Uint64(b[8:]))),
	}
}

// local is the fallback: the buckets in this process.
type local struct {
	l       *Limiter
	mu      sync.Mutex
	buckets map[string]state
	seen    int
}

func (c *local) take(client string) (bool, time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.l.now()
	c.seen++
	if c.seen%1024 == 0 {
		// Forget buckets that have refilled, so memory stays bounded by
		// the clients of the last period.
		for k, s := range c.buckets {
			if now.Sub(s.last) > c.l.period {
				delete(c.buckets, k)
			}
		}
	}
	next, ok, wait := c.l.spend(c.l.refill(c.buckets[client], now))
	c.buckets[client] = next
	return ok, wait
}
