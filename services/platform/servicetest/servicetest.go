// Package servicetest runs a whole service inside a test the way its binary
// runs it: real gRPC server, its own PostgreSQL database, an embedded NATS
// and the Firebase Auth emulator, all stopped when the test ends.
package servicetest

import (
	"context"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/url"
	"testing"

	"github.com/jackc/pgx/v5"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"

	"uplift.dev/platform/devcerts"
	"uplift.dev/platform/firebasetest"
	"uplift.dev/platform/mtls"
	"uplift.dev/platform/natstest"
	"uplift.dev/platform/pgtest"
	"uplift.dev/platform/postgres"
	"uplift.dev/platform/program"
	"uplift.dev/platform/service"
)

// Base returns settings for one test: a fresh database, a fresh embedded
// NATS with the production's per-service credentials and permissions, the
// Auth emulator and a random loopback port. Run gives the service its own
// NATS key; natstest.As publishes as another service.
func Base(t testing.TB) service.Base {
	t.Helper()
	url, keys := natstest.StartSecure(t)
	return service.Base{
		GRPCAddr: "127.0.0.1:0", DatabaseURL: pgtest.URL(t), NATS: program.NATS{NATSURL: url, NATSSenderKeys: keys.SenderKeys()},
		FirebaseProjectID: firebasetest.ProjectID(), FirebaseAuthEmulatorHost: firebasetest.Host(t),
	}
}

// Run starts the service called name on base, wires it with wire and serves
// it until the test ends. It returns a client connection to it and its
// runtime (for the pool and JetStream).
func Run(t testing.TB, name string, base service.Base, migrations fs.FS, wire service.Wire) (*grpc.ClientConn, *service.Runtime) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	if k := natstest.Keyring(base.NATSURL); k != nil && base.NATSNKeySeed == "" {
		base.NATSNKeySeed = string(k.Seed(name))
	}
	// As in production, the service signs in as its own login, owning its
	// schema only: a query into another service's schema fails here too.
	base.DatabaseURL = Login(t, base.DatabaseURL, name)
	rt, err := service.Start(ctx, name, name, base, log, migrations)
	if err != nil {
		cancel()
		t.Fatalf("servicetest: start %s: %v", name, err)
	}
	opts, workers, err := wire(ctx, rt)
	if err != nil {
		cancel()
		rt.Close()
		t.Fatalf("servicetest: wire %s: %v", name, err)
	}
	ready := make(chan string, 1)
	opts.Ready = func(addr string) { ready <- addr }
	done := make(chan error, 1)
	go func() { done <- rt.Serve(ctx, opts, workers...) }()
	var addr string
	select {
	case addr = <-ready:
	case err := <-done:
		cancel()
		rt.Close()
		t.Fatalf("servicetest: %s stopped: %v", name, err)
	}
	creds := insecure.NewCredentials()
	if f := (mtls.Files{Cert: base.GRPC.CertFile, Key: base.GRPC.KeyFile, CA: base.GRPC.CAFile}); f.Set() {
		// The test calls as the service itself would (its own certificate).
		src, err := mtls.Load(f)
		if err != nil {
			t.Fatal(err)
		}
		creds = credentials.NewTLS(src.ClientConfig())
	}
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(creds))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		conn.Close()
		cancel()
		<-done
		rt.Close()
	})
	return conn, rt
}

// TLS gives base mutual TLS: a new CA in a temporary directory and the
// certificate of service name (for 127.0.0.1). Issue more (a backend's)
// with the CA, into the directory.
func TLS(t testing.TB, base service.Base, name string) (service.Base, *devcerts.CA, string) {
	t.Helper()
	ca, err := devcerts.NewCA("servicetest CA")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	f, err := ca.Write(dir, mtls.Identity{Kind: mtls.KindService, Name: name}, "127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	base.GRPC = mtls.Settings{CertFile: f.Cert, KeyFile: f.Key, CAFile: f.CA}
	return base, ca, dir
}

// Stub serves a stand-in for another service (what register registers) on
// a loopback port until the test ends, and returns its address for the
// service's settings.
func Stub(t testing.TB, register func(*grpc.Server)) string {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	g := grpc.NewServer()
	register(g)
	go func() { _ = g.Serve(lis) }()
	t.Cleanup(g.Stop)
	return lis.Addr().String()
}

// Login makes the login of the service called name on the database at
// adminURL (an administrator's, as pgtest gives) and returns its URL, for
// a test that runs one of the service's programs itself (a worker). On a
// cluster that checks passwords (adminURL has one) it returns adminURL: the
// logins have none, and tests running at once would keep changing a
// shared one.
func Login(t testing.TB, adminURL, name string) string {
	t.Helper()
	if u, err := url.Parse(adminURL); err == nil && u.User != nil {
		if _, ok := u.User.Password(); ok {
			return adminURL
		}
	}
	ctx := context.Background()
	admin, err := pgx.Connect(ctx, adminURL)
	if err != nil {
		t.Fatalf("servicetest: %v", err)
	}
	defer admin.Close(ctx)
	role := postgres.LoginName(name)
	if err := postgres.EnsureLogin(ctx, admin, name, role); err != nil {
		t.Fatalf("servicetest: %v", err)
	}
	u, err := postgres.LoginURL(adminURL, role, "")
	if err != nil {
		t.Fatalf("servicetest: %v", err)
	}
	return u
}
