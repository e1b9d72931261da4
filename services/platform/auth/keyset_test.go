package auth_test

import (
	"context"
	"errors"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	fbauth "firebase.google.com/go/v4/auth"

	"uplift.dev/platform/auth"
	"uplift.dev/platform/auth/testkeys"
	"uplift.dev/platform/clock"
)

const project = "demo-keyset"

// users is the Firebase user store as the revocation check sees it.
type users struct {
	mu      sync.Mutex
	records map[string]*fbauth.UserRecord
	lookups atomic.Int32
}

func (u *users) GetUser(_ context.Context, uid string) (*fbauth.UserRecord, error) {
	u.lookups.Add(1)
	u.mu.Lock()
	defer u.mu.Unlock()
	r, ok := u.records[uid]
	if !ok {
		return nil, errors.New("no user record found for the given identifier")
	}
	cp := *r
	return &cp, nil
}

func (u *users) set(uid string, f func(*fbauth.UserRecord)) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.records[uid] == nil {
		u.records[uid] = &fbauth.UserRecord{UserInfo: &fbauth.UserInfo{UID: uid}}
	}
	f(u.records[uid])
}

type fixture struct {
	keys  *testkeys.Keys
	users *users
	v     auth.KeySetVerifier
}

func newFixture(t testing.TB) *fixture {
	t.Helper()
	keys, err := testkeys.New()
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(keys.Handler())
	t.Cleanup(srv.Close)
	u := &users{records: map[string]*fbauth.UserRecord{}}
	u.set("alice", func(*fbauth.UserRecord) {})
	v, err := auth.NewTestCertsVerifier(project, "127.0.0.1:9099", srv.URL, u)
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{keys: keys, users: u, v: v}
}

func (f *fixture) sign(t *testing.T, tok testkeys.Token) string {
	t.Helper()
	if tok.ProjectID == "" {
		tok.ProjectID = project
	}
	s, err := f.keys.Sign(tok)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestKeySetVerifierChecksTokensLikeTheSDK(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	now := time.Now().Truncate(time.Second)
	good := f.sign(t, testkeys.Token{UID: "alice", Email: "alice@example.com", Uplifter: true, IssuedAt: now.Add(-time.Minute), ExpiresAt: now.Add(time.Hour)})
	c, err := f.v.Verify(ctx, good)
	if err != nil || c.UID != "alice" || c.Email != "alice@example.com" || !c.EmailVerified || !c.Uplifter || c.Admin || !c.ExpiresAt.Equal(now.Add(time.Hour)) {
		t.Fatalf("good token: %+v %v", c, err)
	}

	other, err := testkeys.New() // same key id, another key: a forged token
	if err != nil {
		t.Fatal(err)
	}
	forged, err := other.Sign(testkeys.Token{ProjectID: project, UID: "alice", IssuedAt: now, ExpiresAt: now.Add(time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	parts := strings.Split(good, ".")
	bad := map[string]string{
		"forged signature": forged,
		"other project":    f.sign(t, testkeys.Token{ProjectID: "demo-other", UID: "alice", IssuedAt: now, ExpiresAt: now.Add(time.Hour)}),
		"expired":          f.sign(t, testkeys.Token{UID: "alice", IssuedAt: now.Add(-2 * time.Hour), ExpiresAt: now.Add(-time.Hour)}),
		"issued later":     f.sign(t, testkeys.Token{UID: "alice", IssuedAt: now.Add(time.Hour), ExpiresAt: now.Add(2 * time.Hour)}),
		"no subject":       f.sign(t, testkeys.Token{UID: "", IssuedAt: now, ExpiresAt: now.Add(time.Hour)}),
		"unknown user":     f.sign(t, testkeys.Token{UID: "mallory", IssuedAt: now, ExpiresAt: now.Add(time.Hour)}),
		"alg none":         "eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0." + parts[1] + ".",
		"garbage":          "not-a-token",
	}
	for name, tok := range bad {
		if c, err := f.v.Verify(ctx, tok); err == nil {
			t.Errorf("%s: accepted as %+v", name, c)
		} else if errors.Is(err, auth.ErrCheckUnavailable) {
			t.Errorf("%s: a bad token is not an outage: %v", name, err)
		}
	}

	f.users.set("alice", func(r *fbauth.UserRecord) { r.Disabled = true })
	if _, err := f.v.Verify(ctx, good); err == nil {
		t.Error("a disabled user's token was accepted")
	}
	f.users.set("alice", func(r *fbauth.UserRecord) { r.Disabled = false; r.TokensValidAfterMillis = now.UnixMilli() })
	if _, err := f.v.Verify(ctx, good); err == nil {
		t.Error("a token issued before the revocation was accepted")
	}
	fresh := f.sign(t, testkeys.Token{UID: "alice", IssuedAt: now, ExpiresAt: now.Add(time.Hour)})
	if _, err := f.v.Verify(ctx, fresh); err != nil {
		t.Errorf("a token issued after the revocation: %v", err)
	}
}

func TestKeySetUnreachableIsUnavailable(t *testing.T) {
	f := newFixture(t)
	srv := httptest.NewServer(f.keys.Handler())
	srv.Close()
	v, err := auth.NewTestCertsVerifier(project, "127.0.0.1:9099", srv.URL, f.users)
	if err != nil {
		t.Fatal(err)
	}
	tok := f.sign(t, testkeys.Token{UID: "alice", IssuedAt: time.Now(), ExpiresAt: time.Now().Add(time.Hour)})
	if _, err := v.Verify(context.Background(), tok); !errors.Is(err, auth.ErrCheckUnavailable) {
		t.Fatalf("err = %v, want ErrCheckUnavailable", err)
	}
}

// The local key set is for the benchmark stack only: a production project,
// a stack without the emulator or a key set off loopback is refused.
func TestTestCertsAreRefusedOutsideALocalDemoStack(t *testing.T) {
	for _, c := range []struct{ project, emulator, url string }{
		{"uplift-prod", "127.0.0.1:9099", "http://127.0.0.1:1/certs"},
		{"demo-uplift", "", "http://127.0.0.1:1/certs"},
		{"demo-uplift", "127.0.0.1:9099", "http://203.0.113.7/certs"},
		{"demo-uplift", "127.0.0.1:9099", "https://www.googleapis.com/robot/v1/metadata/x509/x"},
		{"demo-uplift", "127.0.0.1:9099", "file:///etc/passwd"},
	} {
		if _, err := auth.NewTestCertsVerifier(c.project, c.emulator, c.url, &users{}); !errors.Is(err, auth.ErrTestCertsNotLocal) {
			t.Errorf("%+v: err = %v", c, err)
		}
	}
}

// TestCacheRefusesRevokedAndExpiredTokensWithinItsBound, on the real clock:
// with the claims cache in front (a short TTL so the test is quick), a
// revoked session is refused at most one TTL after the revocation, and a
// token is never answered from the cache after it expires.
func TestCacheRefusesRevokedAndExpiredTokensWithinItsBound(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	const ttl = 400 * time.Millisecond
	c := auth.NewCache(f.v, ttl, 100, nil)
	now := time.Now()
	tok := f.sign(t, testkeys.Token{UID: "alice", IssuedAt: now.Add(-2 * time.Second), ExpiresAt: now.Add(time.Hour)})
	if _, err := c.Verify(ctx, tok); err != nil {
		t.Fatal(err)
	}
	lookups := f.users.lookups.Load()
	if _, err := c.Verify(ctx, tok); err != nil || f.users.lookups.Load() != lookups {
		t.Fatalf("within the TTL the verdict comes from the cache: %v, %d lookups", err, f.users.lookups.Load()-lookups)
	}
	revokedAt := time.Now()
	f.users.set("alice", func(r *fbauth.UserRecord) { r.TokensValidAfterMillis = time.Now().Truncate(time.Second).UnixMilli() })
	for {
		_, err := c.Verify(ctx, tok)
		if err != nil {
			break
		}
		if time.Since(revokedAt) > ttl+100*time.Millisecond {
			t.Fatalf("revoked session still accepted %v after the revocation (bound %v)", time.Since(revokedAt), ttl)
		}
		time.Sleep(20 * time.Millisecond)
	}

	// A token that expires in 2 s, checked under a TTL longer than that.
	long := auth.NewCache(f.v, time.Minute, 100, nil)
	f.users.set("bob", func(*fbauth.UserRecord) {})
	issued := time.Now().Truncate(time.Second)
	short := f.sign(t, testkeys.Token{UID: "bob", IssuedAt: issued, ExpiresAt: issued.Add(2 * time.Second)})
	if _, err := long.Verify(ctx, short); err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Until(issued.Add(2*time.Second)) + 10*time.Millisecond)
	if c, err := long.Verify(ctx, short); err == nil {
		t.Fatalf("an expired token was accepted from the cache: %+v", c)
	}
}

// The same on fixed clocks, several dates apart: the cache and the
// verifier read one clock, so the bound is exact to the second.
func TestCacheBoundOnAFixedClock(t *testing.T) {
	for _, start := range []time.Time{
		time.Date(2026, 3, 29, 0, 59, 50, 0, time.UTC), // the hour Europe's clocks go forward
		time.Date(2027, 1, 1, 0, 0, 0, 0, time.FixedZone("UTC+14", 14*3600)),
		time.Date(2030, 10, 27, 1, 59, 59, 0, time.UTC),
	} {
		f := newFixture(t)
		now := clock.NewManual(start)
		f.v.Now = now.Clock()
		c := auth.NewCache(f.v, 0, 100, now.Clock())
		ctx := context.Background()
		tok := f.sign(t, testkeys.Token{UID: "alice", IssuedAt: start.Add(-time.Minute), ExpiresAt: start.Add(45 * time.Second)})
		if _, err := c.Verify(ctx, tok); err != nil {
			t.Fatal(start, err)
		}
		f.users.set("alice", func(r *fbauth.UserRecord) { r.TokensValidAfterMillis = start.UnixMilli() })
		now.Set(start.Add(auth.RevocationCheckTTL - time.Second))
		if _, err := c.Verify(ctx, tok); err != nil {
			t.Fatalf("%v: inside the TTL the cached verdict stands: %v", start, err)
		}
		now.Set(start.Add(auth.RevocationCheckTTL))
		if _, err := c.Verify(ctx, tok); err == nil {
			t.Fatalf("%v: a revoked token was accepted at the TTL", start)
		}

		f.users.set("alice", func(r *fbauth.UserRecord) { r.TokensValidAfterMillis = 0 })
		now.Set(start.Add(40 * time.Second))
		if _, err := c.Verify(ctx, tok); err != nil {
			t.Fatal(start, err)
		}
		now.Set(start.Add(45 * time.Second)) // the token's own expiry, inside a fresh TTL
		if _, err := c.Verify(ctx, tok); err == nil {
			t.Fatalf("%v: a token was accepted at its expiry", start)
		}
	}
}
