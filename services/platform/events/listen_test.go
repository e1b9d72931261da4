package events_test

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	eventsv1 "uplift.dev/proto/gen/uplift/events/v1"

	"uplift.dev/platform/events"
	"uplift.dev/platform/natstest"
)

// TestEveryCopyListensAndBelievesOnlyTheSender: two copies of stores, each
// signed in with stores' own NATS permissions, both receive a role change
// that users signed (a durable consumer would hand it to one of them), and
// neither acts on one that users did not sign.
func TestEveryCopyListensAndBelievesOnlyTheSender(t *testing.T) {
	t.Parallel()
	url, keys := natstest.StartSecure(t)
	trust, err := events.ParseTrust(keys.SenderKeys())
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	got := make(chan string, 10)
	for copyNo := range 2 {
		signer, err := events.NewSigner("stores", keys.Seed("stores"))
		if err != nil {
			t.Fatal(err)
		}
		nc, _, err := events.Connect(ctx, url, "stores", signer.NATSOption())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(nc.Close)
		listen := events.Listen(nc, trust, log, storesRoleAccess, func(_ context.Context, ev *eventsv1.UserRoleChanged) {
			got <- string(rune('a'+copyNo)) + ":" + ev.GetUserId()
		})
		errs := make(chan error, 1)
		go func() { errs <- listen(ctx) }()
		t.Cleanup(func() {
			cancel()
			if err := <-errs; err != nil {
				t.Errorf("copy %d: %v", copyNo, err)
			}
		})
		// The subscription is made in the worker: wait until the server has it.
		deadline := time.Now().Add(5 * time.Second)
		for nc.NumSubscriptions() == 0 {
			if time.Now().After(deadline) {
				t.Fatal("not subscribed")
			}
			time.Sleep(10 * time.Millisecond)
		}
		_ = nc.Flush()
	}
	users := natstest.As(t, url, "users")
	forged, _ := proto.Marshal(&eventsv1.UserRoleChanged{UserId: "forged"})
	if err := users.PublishUnsigned(ctx, events.SubjectUserRoleChanged, "role-1", forged); err != nil {
		t.Fatal(err)
	}
	real, _ := proto.Marshal(&eventsv1.UserRoleChanged{UserId: "u1", Role: "uplifter"})
	if err := users.Publish(ctx, events.SubjectUserRoleChanged, "role-2", real); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for len(seen) < 2 {
		select {
		case s := <-got:
			seen[s] = true
		case <-time.After(5 * time.Second):
			t.Fatalf("only %v arrived", seen)
		}
	}
	if !seen["a:u1"] || !seen["b:u1"] {
		t.Fatalf("arrived: %v, want u1 at both copies and nothing forged", seen)
	}
}

func TestAnUndeclaredListenerIsRefused(t *testing.T) {
	t.Parallel()
	listen := events.Listen(nil, nil, slog.New(slog.NewTextHandler(io.Discard, nil)),
		events.Listener{Service: "stores", Subject: events.SubjectUserDeleted},
		func(context.Context, *eventsv1.UserDeleted) {})
	if err := listen(context.Background()); err == nil {
		t.Fatal("a listener missing from the table subscribed")
	}
}
