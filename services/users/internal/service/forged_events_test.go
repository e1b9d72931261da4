package service_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/nats-io/nats.go"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"

	eventsv1 "uplift.dev/proto/gen/uplift/events/v1"
	usersv1 "uplift.dev/proto/gen/uplift/users/v1"

	"uplift.dev/platform/events"
	"uplift.dev/platform/firebasetest"
	"uplift.dev/platform/natstest"
)

// TestForgedBillingChangedIsRefused: on a bus that trusts every client,
// one BillingChanged from anyone would make a stranger pro. Now NATS refuses a
// client without credentials and a service publishing a subject that is
// not its own, and the users service ignores a BillingChanged that billing
// did not sign. The victim stays on the free plan; a real one from billing
// still applies (so the consumer was listening all along).
func TestForgedBillingChangedIsRefused(t *testing.T) {
	t.Parallel()
	h := start(t)
	ctx := context.Background()
	newUser := func() (string, string) {
		res, err := h.client.CreateUser(ctx, &usersv1.CreateUserRequest{Email: freshEmail(), Password: "secret12"})
		if err != nil {
			t.Fatal(err)
		}
		return res.GetId(), firebasetest.SignInWithCustomToken(t, res.GetSignInToken())
	}
	victim, victimTok := newUser()
	other, otherTok := newUser()
	pro := func(user string) []byte {
		data, _ := proto.Marshal(&eventsv1.BillingChanged{UserId: user, Tier: "pro", SourceTime: timestamppb.Now()})
		return data
	}

	// No credentials: the server does not let the client in.
	if nc, err := nats.Connect(h.nats, nats.NoReconnect()); err == nil {
		nc.Close()
		t.Fatal("NATS admitted a client without credentials")
	}
	// Another service's credentials: the server refuses the publish.
	short, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	if err := natstest.As(t, h.nats, "users").Publish(short, events.SubjectBillingChanged, uuid.NewString(), pro(victim)); err == nil {
		t.Fatal("users' credentials published BillingChanged")
	}
	// On the subject, but not signed by billing (unsigned, or signed with
	// another service's key): the consumer refuses it.
	billing := natstest.As(t, h.nats, "billing")
	if err := billing.PublishUnsigned(ctx, events.SubjectBillingChanged, uuid.NewString(), pro(victim)); err != nil {
		t.Fatal(err)
	}
	if err := billing.SignedAs(t, h.nats, "categories").Publish(ctx, events.SubjectBillingChanged, uuid.NewString(), pro(victim)); err != nil {
		t.Fatal(err)
	}
	// Billing's own event, after the forgeries in the stream: once it has
	// applied, the forgeries before it have been handled.
	if err := billing.Publish(ctx, events.SubjectBillingChanged, uuid.NewString(), pro(other)); err != nil {
		t.Fatal(err)
	}
	tier := func(user, tok string) string {
		got, err := h.client.GetUser(as(tok), &usersv1.GetUserRequest{UserId: user})
		if err != nil {
			t.Fatal(err)
		}
		return got.GetUser().GetBillingInfo().GetTier()
	}
	deadline := time.Now().Add(10 * time.Second)
	for tier(other, otherTok) != "pro" {
		if time.Now().After(deadline) {
			t.Fatal("billing's own BillingChanged was not applied")
		}
		time.Sleep(100 * time.Millisecond)
	}
	// A new user has no billing row yet: no tier is the free plan.
	if got := tier(victim, victimTok); got != "" && got != "free" {
		t.Fatalf("victim's tier = %q after forged events, want the free plan", got)
	}
}
