package events_test

import (
	"context"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"uplift.dev/platform/events"
	"uplift.dev/platform/natstest"
)

// TestOnlyEnsureStreamMakesOrChangesTheStream: Connect (what every service
// calls at start) neither makes the stream nor changes it, so an update
// never races another service's consumer creation (a data race inside
// nats-server that -race in CI saw in the digest's component tests);
// EnsureStream, the admin's, makes it once and brings back settings that
// drifted.
func TestOnlyEnsureStreamMakesOrChangesTheStream(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	url := natstest.Start(t)
	if nc, _, err := events.Connect(ctx, url, "early"); err == nil {
		nc.Close()
		t.Fatal("Connect succeeded with no stream: a service would run without one")
	}

	adm, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	defer adm.Close()
	admin, _ := jetstream.New(adm)
	if err := events.EnsureStream(ctx, admin, 1); err != nil {
		t.Fatal(err)
	}
	s, err := admin.Stream(ctx, events.StreamName)
	if err != nil {
		t.Fatalf("EnsureStream made no stream: %v", err)
	}
	cfg := s.CachedInfo().Config
	if cfg.Duplicates != 10*time.Minute || len(cfg.Subjects) != 1 || cfg.Subjects[0] != "uplift.>" {
		t.Fatalf("stream made with %v and %v", cfg.Duplicates, cfg.Subjects)
	}
	created := s.CachedInfo().Created

	// Settings drift (an operator's hand edit); a service connecting keeps
	// them, the admin's next EnsureStream brings them back.
	cfg.Duplicates = time.Hour
	if _, err := admin.UpdateStream(ctx, cfg); err != nil {
		t.Fatal(err)
	}
	nc, js, err := events.Connect(ctx, url, "service")
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	if got := duplicates(ctx, t, js); got != time.Hour {
		t.Fatalf("Connect changed the stream's duplicate window to %v", got)
	}
	if err := events.EnsureStream(ctx, admin, 1); err != nil {
		t.Fatal(err)
	}
	if got := duplicates(ctx, t, js); got != 10*time.Minute {
		t.Fatalf("EnsureStream left the duplicate window at %v", got)
	}
	s, err = admin.Stream(ctx, events.StreamName)
	if err != nil || !s.CachedInfo().Created.Equal(created) {
		t.Fatalf("the stream was made again: %v", err)
	}
}

func duplicates(ctx context.Context, t *testing.T, js jetstream.JetStream) time.Duration {
	t.Helper()
	s, err := js.Stream(ctx, events.StreamName)
	if err != nil {
		t.Fatal(err)
	}
	return s.CachedInfo().Config.Duplicates
}
