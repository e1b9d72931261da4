package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// RunOnNotify runs round now, then again each time the channel
// prefix+current schema is notified (pg_notify, delivered at commit) or poll
// passes, until ctx ends. It is how background workers react at once to new
// rows yet still pick up work whose time has come (retries). A failed round
// is passed to failed (for logging) and tried again at the next wake-up.
func RunOnNotify(ctx context.Context, pool *pgxpool.Pool, prefix string, poll time.Duration,
	round func(context.Context) error, failed func(error)) error {
	if poll <= 0 {
		poll = 2 * time.Second
	}
	listener, err := pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("listen %s: %w", prefix, err)
	}
	defer listener.Release()
	var schema string
	if err := listener.QueryRow(ctx, `SELECT current_schema()`).Scan(&schema); err != nil {
		return fmt.Errorf("listen %s: %w", prefix, err)
	}
	if _, err := listener.Exec(ctx, "LISTEN "+pgx.Identifier{prefix + schema}.Sanitize()); err != nil {
		return fmt.Errorf("listen %s: %w", prefix, err)
	}
	for {
		if err := round(ctx); err != nil && ctx.Err() == nil {
			failed(err)
		}
		waitCtx, cancel := context.WithTimeout(ctx, poll)
		_, err := listener.Conn().WaitForNotification(waitCtx)
		cancel()
		if ctx.Err() != nil {
			return nil
		}
		if err != nil && !errors.Is(err, context.DeadlineExceeded) {
			return fmt.Errorf("listen %s: wait: %w", prefix, err)
		}
	}
}
