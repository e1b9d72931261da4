package events

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// How long the bookkeeping tables keep a row. A published outbox row is
// only history once JetStream has it; a processed message must be
// remembered as long as JetStream could deliver it again, and the stream
// keeps a message StreamMaxAge, so a day more is safe.
const (
	KeepPublished = 7 * 24 * time.Hour
	KeepProcessed = StreamMaxAge + 24*time.Hour
)

// Prune deletes published outbox rows older than KeepPublished and
// processed_messages older than KeepProcessed, as of now, a batch at a time
// so that no long lock holds the consumers back. Dead letters stay: they
// wait for a person.
func Prune(ctx context.Context, pool *pgxpool.Pool, now time.Time) (outbox, processed int64, err error) {
	for _, q := range []struct {
		sql    string
		before time.Time
		n      *int64
	}{
		{`DELETE FROM outbox WHERE id IN (SELECT id FROM outbox WHERE published_at < $1 LIMIT 5000)`, now.Add(-KeepPublished), &outbox},
		{`DELETE FROM processed_messages WHERE (consumer, message_id) IN
			(SELECT consumer, message_id FROM processed_messages WHERE processed_at < $1 LIMIT 5000)`, now.Add(-KeepProcessed), &processed},
	} {
		for {
			tag, err := pool.Exec(ctx, q.sql, q.before)
			if err != nil {
				return outbox, processed, fmt.Errorf("prune: %w", err)
			}
			*q.n += tag.RowsAffected()
			if tag.RowsAffected() < 5000 {
				break
			}
		}
	}
	return outbox, processed, nil
}

// RunPruner prunes about every hour (each copy at a random moment within
// it, so copies do not prune together) until ctx ends.
func RunPruner(ctx context.Context, pool *pgxpool.Pool, log *slog.Logger, now func() time.Time) error {
	for {
		wait := 30*time.Minute + rand.N(time.Hour)
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(wait):
		}
		o, p, err := Prune(ctx, pool, now())
		if err != nil {
			log.Warn("pruning the event tables failed; will try again", "err", err)
			continue
		}
		if o+p > 0 {
			log.Info("pruned the event tables", "outbox", o, "processed_messages", p)
		}
	}
}
