package service_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/status"

	usersv1 "uplift.dev/proto/gen/uplift/users/v1"

	"uplift.dev/platform/mtls"
	"uplift.dev/platform/servicetest"
	users "uplift.dev/users/internal/service"
	"uplift.dev/users/migrations"
)

// dialAs calls addr with files' certificate (no token: a backend calls as
// itself).
func dialAs(t *testing.T, addr string, f mtls.Files) usersv1.UsersServiceClient {
	t.Helper()
	src, err := mtls.Load(f)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(credentials.NewTLS(src.ClientConfig())))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return usersv1.NewUsersServiceClient(conn)
}

// TestBackendCallsUsersOverMutualTLS: a backend outside the gateway, with
// its own client certificate, reads a user it was granted and is refused a
// method it was not; a backend the service does not know, and a caller
// with no certificate, are refused; a person's token over the service's
// own certificate still works as before.
func TestBackendCallsUsersOverMutualTLS(t *testing.T) {
	t.Parallel()
	base, ca, dir := servicetest.TLS(t, servicetest.Base(t), "users")
	conn, _ := servicetest.Run(t, "users", base, migrations.FS,
		users.Wire(&users.Settings{Base: base, WebURL: "http://localhost:3000"}))
	h := harness{client: usersv1.NewUsersServiceClient(conn)}
	owner := signUp(t, h, freshEmail())
	addr := conn.Target()

	// A person's call, through a service's certificate (as the gateway's).
	if _, err := h.client.GetUser(as(owner.token), &usersv1.GetUserRequest{UserId: owner.id}); err != nil {
		t.Fatalf("the owner through a service's certificate: %v", err)
	}

	support, err := ca.Write(dir, mtls.Identity{Kind: mtls.KindBackend, Name: "support"})
	if err != nil {
		t.Fatal(err)
	}
	backend := dialAs(t, addr, support)
	got, err := backend.GetUser(context.Background(), &usersv1.GetUserRequest{UserId: owner.id})
	if err != nil {
		t.Fatalf("granted GetUser: %v", err)
	}
	if got.GetUser().GetEmail() != owner.email {
		t.Fatalf("GetUser as the backend: %+v", got.GetUser())
	}
	_, err = backend.ListUsers(context.Background(), &usersv1.ListUsersRequest{})
	if status.Code(err) != codes.PermissionDenied || !strings.Contains(status.Convert(err).Message(), `Backend "support" may not call /uplift.users.v1.UsersService/ListUsers`) {
		t.Fatalf("ListUsers, not granted: %v", err)
	}
	// Its certificate, not a token it sends, is who it is: a token does
	// not widen its grant.
	_, err = backend.DeleteUser(as(owner.token), &usersv1.DeleteUserRequest{UserId: owner.id})
	if status.Code(err) != codes.PermissionDenied {
		t.Fatalf("DeleteUser, not granted, with a token: %v", err)
	}

	stranger, err := ca.Write(dir, mtls.Identity{Kind: mtls.KindBackend, Name: "crawler"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = dialAs(t, addr, stranger).GetUser(context.Background(), &usersv1.GetUserRequest{UserId: owner.id})
	if status.Code(err) != codes.PermissionDenied {
		t.Fatalf("a backend with no grant: %v", err)
	}

	// No client certificate: the handshake fails, nothing is served.
	noCert := mtls.Files{Cert: support.Cert, Key: support.Key, CA: support.CA}
	src, err := mtls.Load(noCert)
	if err != nil {
		t.Fatal(err)
	}
	cfg := src.ClientConfig()
	cfg.GetClientCertificate = nil
	plain, err := grpc.NewClient(addr, grpc.WithTransportCredentials(credentials.NewTLS(cfg)))
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err = usersv1.NewUsersServiceClient(plain).GetUser(ctx, &usersv1.GetUserRequest{UserId: owner.id})
	if status.Code(err) != codes.Unavailable {
		t.Fatalf("without a client certificate: %v", err)
	}
}
