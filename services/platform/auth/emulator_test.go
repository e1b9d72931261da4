package auth_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	fbauth "firebase.google.com/go/v4/auth"

	"uplift.dev/platform/auth"
	"uplift.dev/platform/firebasetest"
)

// TestEmulatorRevocation runs FirebaseVerifier against the Auth emulator:
// a session whose refresh tokens were revoked (as an email change does) and
// a deleted user's token are refused. The emulator supports the check
// (tokensValidAfterTime); the SDK made it even for plain VerifyIDToken in
// emulator mode, which is why the local stack never showed finding 4.
func TestEmulatorRevocation(t *testing.T) {
	t.Parallel()
	client := firebasetest.Client(t)
	v := auth.FirebaseVerifier{Client: client}
	ctx := context.Background()
	signIn := func(name string) (string, string) {
		t.Helper()
		email := fmt.Sprintf("%s-%d@revocation.test", name, time.Now().UnixNano())
		u, err := client.CreateUser(ctx, (&fbauth.UserToCreate{}).Email(email).Password("secret123"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = client.DeleteUser(context.Background(), u.UID) })
		tok := firebasetest.SignInWithPassword(t, email, "secret123")
		if c, err := v.Verify(ctx, tok); err != nil || c.UID != u.UID || c.ExpiresAt.Before(time.Now()) {
			t.Fatalf("fresh token: %+v %v", c, err)
		}
		return u.UID, tok
	}

	uid, tok := signIn("revoked")
	time.Sleep(1100 * time.Millisecond) // revocation is kept in whole seconds
	if err := client.RevokeRefreshTokens(ctx, uid); err != nil {
		t.Fatal(err)
	}
	if c, err := v.Verify(ctx, tok); err == nil || errors.Is(err, auth.ErrCheckUnavailable) {
		t.Fatalf("revoked session: %+v %v", c, err)
	}

	uid, tok = signIn("deleted")
	if err := client.DeleteUser(ctx, uid); err != nil {
		t.Fatal(err)
	}
	if c, err := v.Verify(ctx, tok); err == nil || errors.Is(err, auth.ErrCheckUnavailable) {
		t.Fatalf("deleted user: %+v %v", c, err)
	}
}
