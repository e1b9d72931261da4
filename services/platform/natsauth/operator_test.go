package natsauth_test

import (
	"context"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"uplift.dev/platform/events"
	"uplift.dev/platform/natsauth"
)

// TestOperatorModeEnforcesTheSamePermissions runs nats-server in operator
// (JWT) mode from ServerConfig and checks that each program, signed in
// with its user JWT, may do what auth.conf lets it and nothing more, and
// that a program whose permissions change needs only a new JWT of its own.
func TestOperatorModeEnforcesTheSamePermissions(t *testing.T) {
	t.Parallel()
	keys := t.TempDir()
	k, _, err := natsauth.LoadKeyring(keys, natsauth.Programs()...)
	if err != nil {
		t.Fatal(err)
	}
	op, err := natsauth.LoadOperator(keys)
	if err != nil {
		t.Fatal(err)
	}
	block, err := op.ServerConfig()
	if err != nil {
		t.Fatal(err)
	}
	s, _ := startConfig(t, block)
	url := s.ClientURL()

	connect := func(program string) (*nats.Conn, jetstream.JetStream, error) {
		token, err := op.UserJWT(k, program)
		if err != nil {
			t.Fatal(err)
		}
		signer, err := events.NewSigner(program, k.Seed(program))
		if err != nil {
			t.Fatal(err)
		}
		if err := signer.UseJWT(token); err != nil {
			t.Fatal(err)
		}
		nc, err := nats.Connect(url, nats.NoReconnect(), signer.NATSOption())
		if err != nil {
			return nil, nil, err
		}
		t.Cleanup(nc.Close)
		js, err := jetstream.New(nc, jetstream.WithDefaultTimeout(time.Second))
		return nc, js, err
	}
	// A JWT for another program's key is refused before NATS is asked.
	other, _ := op.UserJWT(k, "billing")
	if s, _ := events.NewSigner("users", k.Seed("users")); s.UseJWT(other) == nil {
		t.Fatal("users took billing's JWT")
	}
	// A bare key, as auth.conf would take it, is refused here.
	signer, _ := events.NewSigner("users", k.Seed("users"))
	if nc, err := nats.Connect(url, nats.NoReconnect(), signer.NATSOption()); err == nil {
		nc.Close()
		t.Fatal("a key without its JWT was let in")
	}
	_, admin, err := connect(natsauth.Admin)
	if err != nil {
		t.Fatalf("admin: %v", err)
	}
	if err := natsauth.SetUp(context.Background(), admin, 1); err != nil {
		t.Fatalf("the admin cannot set the stream up: %v", err)
	}
	_, users, err := connect("users")
	if err != nil {
		t.Fatalf("users: %v", err)
	}
	_, billing, err := connect("billing")
	if err != nil {
		t.Fatalf("billing: %v", err)
	}
	publish := func(js jetstream.JetStream, subject string) error {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_, err := js.Publish(ctx, subject, []byte("x"))
		return err
	}
	if err := publish(billing, events.SubjectBillingChanged); err != nil {
		t.Fatalf("billing may publish BillingChanged: %v", err)
	}
	if err := publish(users, events.SubjectBillingChanged); err == nil {
		t.Fatal("users published BillingChanged")
	}
	assertUsersConsumesBillingsEvent(t, users)
	assertStreamManagementRefused(t, users)
}
