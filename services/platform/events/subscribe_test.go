package events_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"google.golang.org/protobuf/proto"

	eventsv1 "uplift.dev/proto/gen/uplift/events/v1"

	"uplift.dev/platform/events"
	"uplift.dev/platform/natstest"
	"uplift.dev/platform/pgtest"
	"uplift.dev/platform/postgres"
)

// TestOnDecodesChecksAndDropsUnreadable: the typed consumer hands each
// handler its decoded event and message id, once per id; an unreadable
// payload and an event from a sender that may not publish the subject never
// reach it, and neither stops the events behind them.
func TestOnDecodesChecksAndDropsUnreadable(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pool := pgtest.Pool(t, "typed")
	if err := postgres.Migrate(ctx, pool, events.Migrations()); err != nil {
		t.Fatal(err)
	}
	url, keys := natstest.StartSecure(t)
	trust, err := events.ParseTrust(keys.SenderKeys())
	if err != nil {
		t.Fatal(err)
	}
	signer, _ := events.NewSigner("digest", keys.Seed("digest"))
	nc, js, err := events.Connect(ctx, url, "digest", signer.NATSOption())
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	type got struct {
		user string
		meta events.Meta
	}
	seen := make(chan got, 10)
	bus := events.Bus{JS: js, Pool: pool, Log: quiet, Trust: trust}
	go func() {
		_ = events.On(bus, digestWelcome,
			func(_ context.Context, _ pgx.Tx, ev *eventsv1.UserCreated, m events.Meta) error {
				seen <- got{ev.GetUserId(), m}
				return nil
			})(ctx)
	}()
	users := natstest.As(t, url, "users")
	good, _ := proto.Marshal(&eventsv1.UserCreated{UserId: "u1"})
	later, _ := proto.Marshal(&eventsv1.UserCreated{UserId: "u2"})
	for _, p := range []struct {
		s    *natstest.Sender
		id   string
		data []byte
	}{
		{users, "m-bad", []byte{0xff, 0xff, 0xff}},            // unreadable
		{users.SignedAs(t, url, "billing"), "m-forged", good}, // billing may not publish UserCreated
		{users, "m-1", good},
		{users, "m-1", good}, // a replay of the same id
		{users, "m-2", later},
	} {
		if err := p.s.Publish(ctx, events.SubjectUserCreated, p.id, p.data); err != nil {
			t.Fatal(err)
		}
	}
	var out []got
	timeout := time.After(10 * time.Second)
	for len(out) < 2 {
		select {
		case g := <-seen:
			out = append(out, g)
		case <-timeout:
			t.Fatalf("handled %v, want u1 then u2", out)
		}
	}
	if out[0].user != "u1" || out[0].meta.ID != "m-1" || out[0].meta.Delivered != 1 || out[0].meta.Subject != events.SubjectUserCreated ||
		out[1].user != "u2" || out[1].meta.ID != "m-2" {
		t.Fatalf("handled %+v", out)
	}
	select {
	case g := <-seen:
		t.Fatalf("handled again: %+v", g)
	case <-time.After(300 * time.Millisecond):
	}
}
