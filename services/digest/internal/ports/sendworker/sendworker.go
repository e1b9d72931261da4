// Package sendworker runs the sender: it sends due emails whenever one is
// queued (Postgres NOTIFY) and at least every poll interval, which is also
// how retries scheduled for later come due.
package sendworker

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Sender is the use case the worker drives.
type Sender interface {
	SendDue(ctx context.Context) (int, error)
}

// Worker wakes the sender.
type Worker struct {
	Pool *pgxpool.Pool
	// Channel is the NOTIFY channel prefix; the schema name is appended.
	Channel string
	Sender  Sender
	Log     *slog.Logger
	// Poll bounds how long a due retry waits to be noticed.
	Poll time.Duration
}

// Run sends until ctx ends. A failed round (e.g. Postgres away) is logged
// and tried again at the next wake-up; rows are never lost by it.
func (w Worker) Run(ctx context.Context) error {
	poll := w.Poll
	if poll <= 0 {
		poll = 2 * time.Second
	}
	listener, err := w.Pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("sender: %w", err)
	}
	defer listener.Release()
	var schema string
	if err := listener.QueryRow(ctx, `SELECT current_schema()`).Scan(&schema); err != nil {
		return fmt.Errorf("sender: %w", err)
	}
	if _, err := listener.Exec(ctx, "LISTEN "+pgx.Identifier{w.Channel + schema}.Sanitize()); err != nil {
		return fmt.Errorf("sender: listen: %w", err)
	}
	for {
		if _, err := w.Sender.SendDue(ctx); err != nil && ctx.Err() == nil {
			w.Log.Warn("email send round failed; will retry", "err", err)
		}
		waitCtx, cancel := context.WithTimeout(ctx, poll)
		_, err := listener.Conn().WaitForNotification(waitCtx)
		cancel()
		if ctx.Err() != nil {
			return nil
		}
		if err != nil && !errors.Is(err, context.DeadlineExceeded) {
			return fmt.Errorf("sender: wait: %w", err)
		}
	}
}
