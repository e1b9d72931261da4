package auth

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	fbauth "firebase.google.com/go/v4/auth"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"uplift.dev/platform/clock"
)

// productionSDK behaves like the Admin SDK outside emulator mode:
// VerifyIDToken checks only the token itself (signature, expiry), so a
// revoked session or a deleted user's token still passes it; only
// VerifyIDTokenAndCheckRevoked looks the user up.
type productionSDK struct {
	mu      sync.Mutex
	tokens  map[string]*fbauth.Token
	revoked map[string]bool // by uid: refresh tokens revoked (email change, sign-out everywhere)
	deleted map[string]bool // by uid
	down    bool            // the user lookup fails (Firebase unreachable)
	checks  int             // user lookups made
}

func newProductionSDK() *productionSDK {
	return &productionSDK{tokens: map[string]*fbauth.Token{}, revoked: map[string]bool{}, deleted: map[string]bool{}}
}

func (f *productionSDK) issue(tok, uid string, expires time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.tokens[tok] = &fbauth.Token{UID: uid, Expires: expires.Unix(),
		Claims: map[string]any{"email": uid + "@example.com", "email_verified": true, "admin": uid == "admin"}}
}

func (f *productionSDK) VerifyIDToken(_ context.Context, tok string) (*fbauth.Token, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	t, ok := f.tokens[tok]
	if !ok {
		return nil, errors.New("ID token has invalid signature")
	}
	return t, nil
}

func (f *productionSDK) VerifyIDTokenAndCheckRevoked(ctx context.Context, tok string) (*fbauth.Token, error) {
	t, err := f.VerifyIDToken(ctx, tok)
	if err != nil {
		return nil, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.checks++
	switch {
	case f.down:
		return nil, fmt.Errorf("get user: %w", context.DeadlineExceeded)
	case f.deleted[t.UID]:
		return nil, errors.New("no user exists with the uid")
	case f.revoked[t.UID]:
		return nil, errors.New("ID token has been revoked")
	}
	return t, nil
}

// TestFirebaseVerifierRefusesRevokedSessions: in production a deleted user's token, or one from a session that an email
// change ended, must be refused, not accepted until it expires (an hour).
func TestFirebaseVerifierRefusesRevokedSessions(t *testing.T) {
	sdk := newProductionSDK()
	exp := time.Now().Add(time.Hour).Truncate(time.Second)
	sdk.issue("tok-alice", "alice", exp)
	sdk.issue("tok-bob", "bob", exp)
	sdk.issue("tok-carol", "carol", exp)
	v := FirebaseVerifier{Client: sdk}
	ctx := context.Background()

	c, err := v.Verify(ctx, "tok-alice")
	if err != nil || c.UID != "alice" || c.Email != "alice@example.com" || !c.EmailVerified || !c.ExpiresAt.Equal(exp) {
		t.Fatalf("valid token: %+v %v", c, err)
	}
	sdk.revoked["bob"] = true
	if c, err := v.Verify(ctx, "tok-bob"); err == nil {
		t.Fatalf("a revoked session was accepted: %+v", c)
	} else if errors.Is(err, ErrCheckUnavailable) {
		t.Fatalf("a revoked session is a bad token, not an outage: %v", err)
	}
	sdk.deleted["carol"] = true
	if c, err := v.Verify(ctx, "tok-carol"); err == nil {
		t.Fatalf("a deleted user's token was accepted: %+v", c)
	}
	sdk.down = true
	if _, err := v.Verify(ctx, "tok-alice"); !errors.Is(err, ErrCheckUnavailable) {
		t.Fatalf("lookup failed: err = %v, want ErrCheckUnavailable", err)
	}
}

// TestCacheStopsARevokedSessionWithinTheTTL: a verified token is believed
// for RevocationCheckTTL without asking Firebase again, then checked again,
// so revoking a session takes effect within the TTL; a token is never
// believed past its own expiry, and the cache stays bounded.
func TestCacheStopsARevokedSessionWithinTheTTL(t *testing.T) {
	sdk := newProductionSDK()
	start := time.Unix(1_800_000_000, 0)
	now := clock.NewManual(start)
	sdk.issue("tok-alice", "alice", start.Add(time.Hour))
	sdk.issue("tok-short", "shorty", start.Add(10*time.Second))
	c := NewCache(FirebaseVerifier{Client: sdk}, 0, 3, now.Clock())
	ctx := context.Background()
	verify := func(tok string) error {
		t.Helper()
		_, err := c.Verify(ctx, tok)
		return err
	}

	for range 5 {
		if err := verify("tok-alice"); err != nil {
			t.Fatal(err)
		}
	}
	if sdk.checks != 1 {
		t.Fatalf("%d revocation checks for one token within the TTL, want 1", sdk.checks)
	}
	sdk.revoked["alice"] = true
	now.Advance(RevocationCheckTTL - time.Second)
	if err := verify("tok-alice"); err != nil {
		t.Fatalf("within the TTL the cached verdict stands: %v", err)
	}
	now.Advance(time.Second)
	if err := verify("tok-alice"); err == nil {
		t.Fatal("a revoked session still worked after the TTL")
	}
	if err := verify("tok-alice"); err == nil {
		t.Fatal("a refusal must not be cached as a success")
	}

	// A token that expires before the TTL is not believed past its expiry.
	now.Set(start)
	if err := verify("tok-short"); err != nil {
		t.Fatal(err)
	}
	checks := sdk.checks
	now.Set(start.Add(10*time.Second - time.Nanosecond))
	if err := verify("tok-short"); err != nil || sdk.checks != checks {
		t.Fatalf("a token was checked again before its expiry: %v, %d checks", err, sdk.checks-checks)
	}
	now.Set(start.Add(10 * time.Second))
	_ = verify("tok-short")
	if sdk.checks != checks+1 {
		t.Fatal("a token was answered from the cache at its expiry")
	}

	for i := range 10 {
		tok := fmt.Sprintf("tok-%d", i)
		sdk.issue(tok, fmt.Sprintf("user-%d", i), now.Now().Add(time.Hour))
		if err := verify(tok); err != nil {
			t.Fatal(err)
		}
	}
	if n := c.Len(); n > 3 {
		t.Fatalf("cache holds %d tokens, bound is 3", n)
	}
}

func TestLookupOutageIsUnavailableNotSignedOut(t *testing.T) {
	sdk := newProductionSDK()
	sdk.issue("tok", "alice", time.Now().Add(time.Hour))
	sdk.down = true
	icpt := UnaryInterceptor(FirebaseVerifier{Client: sdk}, nil)
	ctx := metadata.NewIncomingContext(context.Background(), metadata.Pairs("authorization", "Bearer tok"))
	_, err := icpt(ctx, nil, &grpc.UnaryServerInfo{FullMethod: "/svc/Private"}, func(context.Context, any) (any, error) {
		t.Fatal("the call ran without a checked token")
		return nil, nil
	})
	if status.Code(err) != codes.Unavailable {
		t.Fatalf("code %v, want Unavailable: the session is not known to be bad", status.Code(err))
	}
}
