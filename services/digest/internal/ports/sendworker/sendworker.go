// Package sendworker runs the sender: it sends due emails whenever one is
// queued (Postgres NOTIFY) and at least every poll interval, which is also
// how retries scheduled for later come due.
package sendworker

import (
	"context"
	"log/slog"
	"time"

	"uplift.dev/platform/postgres"

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
	return postgres.RunOnNotify(ctx, w.Pool, w.Channel, w.Poll, func(ctx context.Context) error {
		_, err := w.Sender.SendDue(ctx)
		return err
	}, func(err error) { w.Log.Warn("email send round failed; will retry", "err", err) })
}
