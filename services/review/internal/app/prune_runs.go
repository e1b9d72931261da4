package app

import (
	"context"
	"time"

	"uplift.dev/platform/events"
)

// KeepRuns is how long a run is kept after its request came. A run is read
// again only when the same ReviewRequested is delivered again (Claim finds
// it answered, or held): a redelivery, a new durable consumer replaying
// the stream (the review service's first roll-out did), a dead letter
// published again. The stream keeps a request StreamMaxAge, so a run
// outlives every copy of its request as processed_messages does; after
// that, a request published again by hand is reviewed afresh, which is
// what its report then needs.
const KeepRuns = events.KeepProcessed

// PruneRuns deletes the runs older than KeepRuns that no run holds.
func (a *App) PruneRuns(ctx context.Context) (int64, error) {
	return a.runs.Prune(ctx, a.now().Add(-KeepRuns))
}

// RunRunsPruner prunes the runs now and then every interval until ctx
// ends; a failed round is logged and tried again at the next.
func (a *App) RunRunsPruner(ctx context.Context, interval time.Duration) error {
	for {
		n, err := a.PruneRuns(ctx)
		if err != nil && ctx.Err() == nil {
			a.log.WarnContext(ctx, "pruning the review runs failed; will try again", "err", err)
		} else if n > 0 {
			a.log.InfoContext(ctx, "pruned the review runs", "runs", n)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(interval):
		}
	}
}
