// Package natstest starts a real, embedded NATS server with JetStream for a
// test, on a random loopback port with its own store, stopped at cleanup.
//
// Start gives a plain server that anyone may use, for tests of one piece
// that want plain NATS (StartWithStream: with the stream made);
// StartSecure gives one with the production rules: per-service nkey users
// with their permissions (package natsauth) and the stream made by the
// admin, so a test sees what the cluster would refuse.
package natstest

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nkeys"

	"uplift.dev/platform/events"
	"uplift.dev/platform/natsauth"
)

// Start returns the client URL of a fresh JetStream-enabled server with
// nothing on it.
func Start(t testing.TB) string {
	t.Helper()
	return start(t, &server.Options{})
}

// StartWithStream is Start with the stream and buckets set up as the
// admin would (natsauth.SetUp), for a piece that connects like a service.
func StartWithStream(t testing.TB) string {
	t.Helper()
	url := Start(t)
	nc, err := nats.Connect(url)
	if err != nil {
		t.Fatalf("natstest: %v", err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatalf("natstest: %v", err)
	}
	if err := natsauth.SetUp(context.Background(), js, 1); err != nil {
		t.Fatalf("natstest: %v", err)
	}
	return url
}

func start(t testing.TB, o *server.Options) string {
	t.Helper()
	o.Host, o.Port, o.JetStream, o.StoreDir, o.NoLog, o.NoSigs = "127.0.0.1", -1, true, t.TempDir(), true, true
	s, err := server.NewServer(o)
	if err != nil {
		t.Fatalf("natstest: %v", err)
	}
	go s.Start()
	if !s.ReadyForConnections(10 * time.Second) {
		t.Fatal("natstest: server not ready")
	}
	t.Cleanup(s.Shutdown)
	url := s.ClientURL()
	servers.Store(url, s)
	t.Cleanup(func() { servers.Delete(url) })
	return url
}

var servers sync.Map

// Connections is what the server at url knows of its clients (its
// /connz): each one's name, subscriptions and message counts, for a test
// that checks what a program subscribed to and what NATS sent it.
func Connections(t testing.TB, url string) []*server.ConnInfo {
	t.Helper()
	s, ok := servers.Load(url)
	if !ok {
		t.Fatalf("natstest: no server at %s", url)
	}
	cz, err := s.(*server.Server).Connz(&server.ConnzOptions{Subscriptions: true, Limit: 1 << 10})
	if err != nil {
		t.Fatalf("natstest: connz: %v", err)
	}
	return cz.Conns
}

// keyrings remembers each secure server's keys by URL, so servicetest can
// hand a service its own seed from the settings alone.
var keyrings sync.Map

// StartSecure starts a server that admits only the Uplift programs' nkey
// users (natsauth.Programs), each with its permissions, and returns its URL
// and the keyring.
func StartSecure(t testing.TB) (string, *natsauth.Keyring) {
	t.Helper()
	k, err := natsauth.NewKeyring(natsauth.Programs()...)
	if err != nil {
		t.Fatal(err)
	}
	// A test-only user that may watch every event and publish nothing, for
	// tests that assert on what a service published.
	obs, err := nkeys.CreateUser()
	if err != nil {
		t.Fatal(err)
	}
	obsPub, _ := obs.PublicKey()
	users := append(k.Users(), &server.NkeyUser{Nkey: obsPub, Permissions: &server.Permissions{
		Publish:   &server.SubjectPermission{Deny: []string{">"}},
		Subscribe: &server.SubjectPermission{Allow: []string{"uplift.>", "_INBOX.>"}},
	}})
	url := start(t, &server.Options{Nkeys: users})
	if err := natsauth.ConnectAndSetUp(context.Background(), url, k.Seed(natsauth.Admin), "", 1); err != nil {
		t.Fatalf("natstest: set up: %v", err)
	}
	keyrings.Store(url, k)
	observers.Store(url, obs)
	t.Cleanup(func() { keyrings.Delete(url); observers.Delete(url) })
	return url, k
}

var observers sync.Map

// Observer connects to the secure server at url as the test-only user
// that may subscribe to every event and publish nothing.
func Observer(t testing.TB, url string) *nats.Conn {
	t.Helper()
	kp, ok := observers.Load(url)
	if !ok {
		t.Fatalf("natstest: %s is not a secure server", url)
	}
	obs := kp.(nkeys.KeyPair)
	pub, _ := obs.PublicKey()
	nc, err := nats.Connect(url, nats.Nkey(pub, obs.Sign))
	if err != nil {
		t.Fatalf("natstest: observer: %v", err)
	}
	t.Cleanup(nc.Close)
	return nc
}

// Keyring is the keyring of the secure server at url, nil for a plain one.
func Keyring(url string) *natsauth.Keyring {
	k, ok := keyrings.Load(url)
	if !ok {
		return nil
	}
	return k.(*natsauth.Keyring)
}

// Admin is JetStream as the admin of the secure server at url: for a test
// that reads the stream's messages directly, which no service may.
func Admin(t testing.TB, url string) jetstream.JetStream {
	t.Helper()
	k := Keyring(url)
	if k == nil {
		t.Fatalf("natstest: %s is not a secure server", url)
	}
	signer, err := events.NewSigner(natsauth.Admin, k.Seed(natsauth.Admin))
	if err != nil {
		t.Fatal(err)
	}
	nc, err := nats.Connect(url, signer.NATSOption())
	if err != nil {
		t.Fatalf("natstest: admin: %v", err)
	}
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	return js
}

// Sender publishes events into a secure server as one service would: with
// its credentials, signed with its key.
type Sender struct {
	js     jetstream.JetStream
	signer *events.Signer
}

// As connects to the secure server at url as service.
func As(t testing.TB, url, service string) *Sender {
	t.Helper()
	k := Keyring(url)
	if k == nil {
		t.Fatalf("natstest: %s is not a secure server", url)
	}
	signer, err := events.NewSigner(service, k.Seed(service))
	if err != nil {
		t.Fatal(err)
	}
	nc, js, err := events.Connect(context.Background(), url, service, signer.NATSOption())
	if err != nil {
		t.Fatalf("natstest: connect as %s: %v", service, err)
	}
	t.Cleanup(nc.Close)
	return &Sender{js: js, signer: signer}
}

// SignedAs is the same connection signing with another service's key, as
// a message that reached the subject with a stolen or wrong key would be.
func (s *Sender) SignedAs(t testing.TB, url, service string) *Sender {
	t.Helper()
	signer, err := events.NewSigner(service, Keyring(url).Seed(service))
	if err != nil {
		t.Fatal(err)
	}
	return &Sender{js: s.js, signer: signer}
}

// Publish publishes data on subject with message id id, signed.
func (s *Sender) Publish(ctx context.Context, subject, id string, data []byte) error {
	msg := &nats.Msg{Subject: subject, Data: data}
	if err := s.signer.Sign(msg, id); err != nil {
		return err
	}
	_, err := s.js.PublishMsg(ctx, msg, jetstream.WithMsgID(id))
	return err
}

// PublishUnsigned publishes with the service's credentials but without its
// signature, as a message that reached the subject by another way would be.
func (s *Sender) PublishUnsigned(ctx context.Context, subject, id string, data []byte) error {
	_, err := s.js.PublishMsg(ctx, &nats.Msg{Subject: subject, Data: data}, jetstream.WithMsgID(id))
	return err
}

// PublishAsOwner publishes data on subject into the secure server at url as
// the service that publishes that subject in production (the first of
// events.Publishers), signed, with message id id.
func PublishAsOwner(t testing.TB, url, subject, id string, data []byte) error {
	t.Helper()
	owners := events.PublishersOf(subject)
	if len(owners) == 0 {
		t.Fatalf("natstest: nobody publishes %s", subject)
	}
	return As(t, url, owners[0]).Publish(context.Background(), subject, id, data)
}
