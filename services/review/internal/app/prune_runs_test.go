package app

import (
	"context"
	"testing"
	"time"

	"uplift.dev/platform/clock"
	"uplift.dev/platform/events"
)

// The runs go once no copy of their request can be delivered again: a
// day after the stream has dropped it, as the consumers forget its id.
func TestRunsArePrunedOnceTheStreamCannotDeliverTheirRequestAgain(t *testing.T) {
	now := time.Date(2026, 12, 3, 8, 0, 0, 0, time.UTC)
	a, runs := newApp(&fakeEngine{})
	a = a.WithClock(clock.Fixed(now))
	if _, err := a.PruneRuns(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(runs.pruned) != 1 || !runs.pruned[0].Equal(now.Add(-events.StreamMaxAge-24*time.Hour)) {
		t.Fatalf("pruned before %v, want %v", runs.pruned, now.Add(-events.StreamMaxAge-24*time.Hour))
	}
	if KeepRuns < events.StreamMaxAge {
		t.Fatalf("runs are kept %s, less than the stream keeps their request (%s)", KeepRuns, events.StreamMaxAge)
	}
}
