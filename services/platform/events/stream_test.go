package events_test

import (
	"context"
	"testing"
	"time"

	"uplift.dev/platform/events"
	"uplift.dev/platform/natstest"
)

// TestConnectCreatesTheStreamOnceAndNeverChangesIt: the first service to
// start creates the stream; the next ones leave whatever an operator set.
// Services used to update it at every start, and an update racing another
// service's consumer creation is a data race inside nats-server (-race in
// CI saw it in the digest's component tests).
func TestConnectCreatesTheStreamOnceAndNeverChangesIt(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	url := natstest.Start(t)

	nc, js, err := events.Connect(ctx, url, "first", 1)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	s, err := js.Stream(ctx, events.StreamName)
	if err != nil {
		t.Fatalf("the first Connect made no stream: %v", err)
	}
	cfg := s.CachedInfo().Config
	if cfg.Duplicates != 10*time.Minute || len(cfg.Subjects) != 1 || cfg.Subjects[0] != "uplift.>" {
		t.Fatalf("stream made with %v and %v", cfg.Duplicates, cfg.Subjects)
	}

	// An operator widens the duplicate window; a service starting later
	// must keep it.
	cfg.Duplicates = time.Hour
	if _, err := js.UpdateStream(ctx, cfg); err != nil {
		t.Fatal(err)
	}
	nc2, js2, err := events.Connect(ctx, url, "second", 1)
	if err != nil {
		t.Fatal(err)
	}
	defer nc2.Close()
	s, err = js2.Stream(ctx, events.StreamName)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.CachedInfo().Config.Duplicates; got != time.Hour {
		t.Fatalf("a second Connect changed the stream's duplicate window to %v", got)
	}
}
