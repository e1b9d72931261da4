// Package postgres is the review schema: the runs of the reviews
// categories asks for, and their events through the outbox, written in the
// transaction that changes the run.
package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"

	eventsv1 "uplift.dev/proto/gen/uplift/events/v1"

	"uplift.dev/platform/clock"
	"uplift.dev/platform/events"
	review "uplift.dev/review/domain"
	"uplift.dev/review/internal/domain"
)

// Runs implements app.Runs on the review schema.
type Runs struct {
	pool *pgxpool.Pool
	now  clock.Clock
}

// New returns the runs on pool, dating events by now.
func New(pool *pgxpool.Pool, now clock.Clock) Runs { return Runs{pool: pool, now: now} }

// Claim implements app.Runs. It commits at once, on the pool.
func (r Runs) Claim(ctx context.Context, req domain.ReviewRequest, until time.Time) (claimed, done bool, err error) {
	var doneAt *time.Time
	err = r.pool.QueryRow(ctx, `INSERT INTO runs (report_id, category_id, site_url, claimed_until) VALUES ($1, $2, $3, $4)
		ON CONFLICT (report_id) DO UPDATE SET claimed_until = excluded.claimed_until
			WHERE runs.done_at IS NULL AND runs.claimed_until < now()
		RETURNING done_at`, req.ReportID, req.CategoryID, req.SiteURL, until).Scan(&doneAt)
	if errors.Is(err, pgx.ErrNoRows) {
		// Not taken: held by another run, or answered already.
		err = r.pool.QueryRow(ctx, `SELECT done_at IS NOT NULL FROM runs WHERE report_id = $1`, req.ReportID).Scan(&done)
		return false, done, err
	}
	return err == nil, false, err
}

// Progress implements app.Runs.
func (r Runs) Progress(ctx context.Context, req domain.ReviewRequest, pct int, step string) error {
	return pgx.BeginFunc(ctx, r.pool, func(tx pgx.Tx) error {
		return events.Enqueue(ctx, tx, events.SubjectReviewProgressed, &eventsv1.ReviewProgressed{
			CategoryId: req.CategoryID, ReportId: req.ReportID, ProgressPercent: int32(pct), Step: step,
			OccurTime: timestamppb.New(r.now.Now()),
		})
	})
}

// Complete implements app.Runs.
func (r Runs) Complete(ctx context.Context, req domain.ReviewRequest, a review.Analysis) error {
	data, err := json.Marshal(a)
	if err != nil {
		return fmt.Errorf("review of %s: %w", req.ReportID, err)
	}
	return r.answer(ctx, req, events.SubjectReviewCompleted, &eventsv1.ReviewCompleted{
		CategoryId: req.CategoryID, ReportId: req.ReportID, SiteUrl: req.SiteURL, AnalysisJson: data,
		OccurTime: timestamppb.New(r.now.Now()),
	})
}

// Fail implements app.Runs.
func (r Runs) Fail(ctx context.Context, req domain.ReviewRequest, reason string) error {
	return r.answer(ctx, req, events.SubjectReviewFailed, &eventsv1.ReviewFailed{
		CategoryId: req.CategoryID, ReportId: req.ReportID, Reason: reason,
		OccurTime: timestamppb.New(r.now.Now()),
	})
}

// Prune implements app.Runs, a batch at a time so that no long lock holds
// the worker's claims back. A run held now (its claim not lapsed, by the
// database's clock as Claim reads it) stays, however old its request.
func (r Runs) Prune(ctx context.Context, before time.Time) (int64, error) {
	var n int64
	for {
		tag, err := r.pool.Exec(ctx, `DELETE FROM runs WHERE report_id IN (
			SELECT report_id FROM runs WHERE created_at < $1 AND claimed_until < now() LIMIT 5000)`, before)
		if err != nil {
			return n, fmt.Errorf("prune runs: %w", err)
		}
		n += tag.RowsAffected()
		if tag.RowsAffected() < 5000 {
			return n, nil
		}
	}
}

// answer marks the run done and records its answer, in one transaction.
func (r Runs) answer(ctx context.Context, req domain.ReviewRequest, subject string, ev proto.Message) error {
	return pgx.BeginFunc(ctx, r.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `UPDATE runs SET done_at = now() WHERE report_id = $1`, req.ReportID); err != nil {
			return err
		}
		return events.Enqueue(ctx, tx, subject, ev)
	})
}
