package main

import (
	"bytes"
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	usersv1 "uplift.dev/proto/gen/uplift/users/v1"

	"uplift.dev/platform/auth"
	"uplift.dev/platform/firebasetest"
	"uplift.dev/platform/grpcserver"
	"uplift.dev/platform/service"
	"uplift.dev/platform/servicetest"
	users "uplift.dev/users/internal/service"
	"uplift.dev/users/migrations"
)

// TestRevokedUplifterLosesTheTokenItHolds, on the Auth emulator: an uplifter's token, held after usersctl revokes the role,
// stops working for an uplifter-only call once the service's revocation
// check (the claims cache, auth.RevocationCheckTTL) looks again, instead
// of carrying the role until Firebase refreshes it (up to an hour). The
// service's clock is moved past the TTL rather than waited for.
func TestRevokedUplifterLosesTheTokenItHolds(t *testing.T) {
	ctx := context.Background()
	base := servicetest.Base(t)
	var ahead atomic.Int64 // how far the service's clock is ahead of the wall clock
	conn, _ := servicetest.Run(t, "users", base, migrations.FS,
		func(ctx context.Context, rt *service.Runtime) (grpcserver.Options, []func(context.Context) error, error) {
			rt.Clock = func() time.Time { return time.Now().Add(time.Duration(ahead.Load())) }
			return users.Wire(&users.Settings{Base: base, WebURL: "http://localhost:3000"})(ctx, rt)
		})
	client := usersv1.NewUsersServiceClient(conn)
	email := "up-" + uuid.NewString()[:8] + "@example.com"
	if _, err := client.CreateUser(ctx, &usersv1.CreateUserRequest{Email: email, Password: "secret12", SuppressWelcomeEmail: true}); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"DATABASE_URL": base.DatabaseURL, "FIREBASE_PROJECT_ID": base.FirebaseProjectID,
		"FIREBASE_AUTH_EMULATOR_HOST": base.FirebaseAuthEmulatorHost, "USER": "alice"}
	usersctl := func(cmd string) {
		t.Helper()
		var out bytes.Buffer
		if err := run(ctx, []string{cmd, email}, func(k string) (string, bool) { v, ok := env[k]; return v, ok }, &out); err != nil {
			t.Fatalf("usersctl %s: %v", cmd, err)
		}
	}
	usersctl("grant-uplifter")
	held := metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+firebasetest.SignInWithPassword(t, email, "secret12"))
	listOwners := func() error {
		_, err := client.ListMetricsUsers(held, &usersv1.ListMetricsUsersRequest{})
		return err
	}
	if err := listOwners(); err != nil {
		t.Fatalf("the uplifter's call before the revocation: %v", err)
	}

	// Firebase keeps revocation to the second (a token issued in the
	// second of the revocation still passes), so revoke in a later one.
	time.Sleep(time.Until(time.Now().Truncate(time.Second).Add(time.Second)))
	usersctl("revoke-uplifter")
	if err := listOwners(); err != nil {
		t.Fatalf("within the check's period the cached verdict stands (the bound is the TTL): %v", err)
	}
	ahead.Store(int64(auth.RevocationCheckTTL))
	if err := listOwners(); status.Code(err) != codes.Unauthenticated {
		t.Fatalf("the revoked uplifter's token %v once the check looked again, want Unauthenticated", err)
	}
}
