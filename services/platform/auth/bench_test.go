package auth_test

import (
	"context"
	"testing"
	"time"

	"uplift.dev/platform/auth"
	"uplift.dev/platform/auth/testkeys"
)

// BenchmarkTokenCheck is what each service spends on a call's token: the
// claims cache's hit (a SHA-256 of the token and a map lookup) beside a
// full check on every call (RS256 signature and claims, with the
// revocation lookup answered from memory, so Firebase's round trip is not
// even counted). This is the figure behind keeping the check in every
// service rather than trusting the gateway (docs/security.md, "Tokens").
func BenchmarkTokenCheck(b *testing.B) {
	f := newFixture(b)
	now := time.Now()
	tok, err := f.keys.Sign(testkeys.Token{ProjectID: project, UID: "alice", Email: "alice@example.com",
		IssuedAt: now, ExpiresAt: now.Add(time.Hour)})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.Run("baseline=verify-every-call", func(b *testing.B) {
		for b.Loop() {
			if _, err := f.v.Verify(ctx, tok); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("product=claims-cache", func(b *testing.B) {
		c := auth.NewCache(f.v, 0, 0, nil)
		for b.Loop() {
			if _, err := c.Verify(ctx, tok); err != nil {
				b.Fatal(err)
			}
		}
	})
}
