package auth

import (
	"context"
	"crypto/sha256"
	"sync"
	"time"

	"uplift.dev/platform/clock"
)

// RevocationCheckTTL is how long a verified token is believed without asking
// Firebase again, and so the longest a revoked session (a deleted user, an
// email change, a disabled account) keeps working on one service replica.
// A token is never believed past its own expiry.
const RevocationCheckTTL = 30 * time.Second

// CacheSize bounds the verified tokens a Cache keeps: about 200 bytes each,
// so some 2 MB at most.
const CacheSize = 10_000

// Cache remembers what a Verifier accepted, for at most ttl and never past
// the token's own expiry, so a busy session costs one revocation check (a
// call to Firebase) per ttl instead of one per request. Tokens are kept only
// as SHA-256 hashes. Refusals are not remembered. Safe for concurrent use.
type Cache struct {
	next Verifier
	ttl  time.Duration
	max  int
	now  clock.Clock

	mu      sync.Mutex
	entries map[[sha256.Size]byte]cached
}

type cached struct {
	claims  Claims
	expires time.Time
}

// NewCache wraps next; ttl <= 0 means RevocationCheckTTL, max <= 0 CacheSize.
// now is the service's clock (nil: the wall clock), the one its verifier
// judges expiry by, so a token leaves the cache when it expires.
func NewCache(next Verifier, ttl time.Duration, max int, now clock.Clock) *Cache {
	if ttl <= 0 {
		ttl = RevocationCheckTTL
	}
	if max <= 0 {
		max = CacheSize
	}
	return &Cache{next: next, ttl: ttl, max: max, now: now, entries: map[[sha256.Size]byte]cached{}}
}

// Verify implements Verifier.
func (c *Cache) Verify(ctx context.Context, idToken string) (Claims, error) {
	key := sha256.Sum256([]byte(idToken))
	now := c.now.Now()
	c.mu.Lock()
	e, ok := c.entries[key]
	if ok && now.Before(e.expires) {
		c.mu.Unlock()
		return e.claims, nil
	}
	if ok {
		delete(c.entries, key)
	}
	c.mu.Unlock()

	claims, err := c.next.Verify(ctx, idToken)
	if err != nil {
		return Claims{}, err
	}
	expires := now.Add(c.ttl)
	if !claims.ExpiresAt.IsZero() && claims.ExpiresAt.Before(expires) {
		expires = claims.ExpiresAt
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.entries) >= c.max {
		c.evict(now)
	}
	c.entries[key] = cached{claims: claims, expires: expires}
	return claims, nil
}

// evict drops the expired entries, and if none had expired, any one: the
// cache is an optimisation, and a dropped token is only checked again.
func (c *Cache) evict(now time.Time) {
	for k, e := range c.entries {
		if !now.Before(e.expires) {
			delete(c.entries, k)
		}
	}
	for k := range c.entries {
		if len(c.entries) < c.max {
			return
		}
		delete(c.entries, k)
	}
}

// Len is the number of tokens remembered, for tests and metrics.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries)
}
