// Package postgres stores the studio's photos, jobs (the durable queue),
// results, download counts, and the owners and plans it hears of, in the
// studio schema.
package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"uplift.dev/studio/internal/app"
	"uplift.dev/studio/internal/domain"
)

// Repo implements app.Repository and app.Queue.
type Repo struct {
	Pool *pgxpool.Pool
}

func notFound(err error) error {
	if errors.Is(err, pgx.ErrNoRows) {
		return domain.ErrNotFound
	}
	return err
}

// CreateImage implements app.Repository.
func (r Repo) CreateImage(ctx context.Context, img domain.Image, format, sourceKey string) error {
	_, err := r.Pool.Exec(ctx, `
		INSERT INTO images (id, category_id, filename, format, width, height, source_key, created_at, product_id)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
		img.ID, img.CategoryID, img.Filename, format, img.Width, img.Height, sourceKey, img.CreatedAt, img.ProductID)
	return err
}

// GetImage implements app.Repository.
func (r Repo) GetImage(ctx context.Context, categoryID, imageID string) (domain.Image, string, error) {
	var img domain.Image
	var key string
	err := r.Pool.QueryRow(ctx, `
		SELECT id, category_id, filename, width, height, created_at, product_id, source_key FROM images
		WHERE id = $1 AND category_id = $2`, imageID, categoryID).
		Scan(&img.ID, &img.CategoryID, &img.Filename, &img.Width, &img.Height, &img.CreatedAt, &img.ProductID, &key)
	return img, key, notFound(err)
}

// MaskKeys implements app.Repository.
func (r Repo) MaskKeys(ctx context.Context, categoryID, imageID string) (string, string, error) {
	var mask, edits string
	err := r.Pool.QueryRow(ctx, `SELECT coalesce(mask_key, ''), coalesce(edits_key, '') FROM images WHERE id = $1 AND category_id = $2`,
		imageID, categoryID).Scan(&mask, &edits)
	return mask, edits, notFound(err)
}

// SaveEdits implements app.Repository.
func (r Repo) SaveEdits(ctx context.Context, imageID, key string) error {
	_, err := r.Pool.Exec(ctx, `UPDATE images SET edits_key = $2 WHERE id = $1`, imageID, key)
	return err
}

// JobsUsed implements app.Repository.
func (r Repo) JobsUsed(ctx context.Context, categoryID, month string) (int, error) {
	var n int
	err := r.Pool.QueryRow(ctx, `SELECT count(*) FROM job_runs WHERE category_id = $1 AND month = $2`, categoryID, month).Scan(&n)
	return n, err
}

// CreateJob implements app.Repository. A transaction-scoped advisory lock
// on the category serialises one store's requests, so two tabs cannot both
// take the last tool run of the month.
func (r Repo) CreateJob(ctx context.Context, j domain.Job, month string, check func(used, open int) error) error {
	return pgx.BeginFunc(ctx, r.Pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended('studio-jobs:' || $1, 0))`, j.CategoryID); err != nil {
			return err
		}
		var used, open int
		if err := tx.QueryRow(ctx, `SELECT
			(SELECT count(*) FROM job_runs WHERE category_id = $1 AND month = $2),
			(SELECT count(*) FROM jobs WHERE category_id = $1 AND status IN ('queued', 'working'))`,
			j.CategoryID, month).Scan(&used, &open); err != nil {
			return err
		}
		if err := check(used, open); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `
			INSERT INTO jobs (id, category_id, image_id, kind, backdrop, color, size, status, created_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
			j.ID, j.CategoryID, j.ImageID, j.Kind, j.Backdrop.Kind, j.Backdrop.Hex(), j.Size, j.Status, j.CreatedAt, j.UpdatedAt); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO job_runs (category_id, month, job_id) VALUES ($1, $2, $3)`, j.CategoryID, month, j.ID)
		return err
	})
}

const jobColumns = `j.id, j.category_id, j.image_id, j.kind, j.backdrop, j.color, j.size, j.status, j.progress,
	j.error, j.attempts, j.created_at, j.updated_at,
	i.id, i.category_id, i.filename, i.width, i.height, i.created_at, i.product_id`

func scanJob(row pgx.Row) (domain.Job, error) {
	var j domain.Job
	var img domain.Image
	var backdrop, hex string
	err := row.Scan(&j.ID, &j.CategoryID, &j.ImageID, &j.Kind, &backdrop, &hex, &j.Size, &j.Status, &j.Progress,
		&j.Error, &j.Attempts, &j.CreatedAt, &j.UpdatedAt,
		&img.ID, &img.CategoryID, &img.Filename, &img.Width, &img.Height, &img.CreatedAt, &img.ProductID)
	if err != nil {
		return domain.Job{}, notFound(err)
	}
	if j.Backdrop, err = domain.ParseBackdrop(backdrop, hex); err != nil {
		j.Backdrop = domain.Backdrop{Kind: "white", Color: domain.White}
	}
	j.Image = &img
	return j, nil
}

// GetJob implements app.Repository.
func (r Repo) GetJob(ctx context.Context, categoryID, jobID string) (domain.Job, error) {
	j, err := scanJob(r.Pool.QueryRow(ctx, `SELECT `+jobColumns+` FROM jobs j JOIN images i ON i.id = j.image_id
		WHERE j.id = $1 AND j.category_id = $2`, jobID, categoryID))
	if err != nil {
		return domain.Job{}, err
	}
	res, err := r.results(ctx, []string{j.ID})
	j.Results = res[j.ID]
	return j, err
}

// ListJobs implements app.Repository.
func (r Repo) ListJobs(ctx context.Context, categoryID string, limit int) ([]domain.Job, error) {
	rows, err := r.Pool.Query(ctx, `SELECT `+jobColumns+` FROM jobs j JOIN images i ON i.id = j.image_id
		WHERE j.category_id = $1 ORDER BY j.created_at DESC, j.id LIMIT $2`, categoryID, limit)
	if err != nil {
		return nil, err
	}
	jobs, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (domain.Job, error) { return scanJob(row) })
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(jobs))
	for i, j := range jobs {
		ids[i] = j.ID
	}
	res, err := r.results(ctx, ids)
	for i := range jobs {
		jobs[i].Results = res[jobs[i].ID]
	}
	return jobs, err
}

func (r Repo) results(ctx context.Context, jobIDs []string) (map[string][]domain.Result, error) {
	rows, err := r.Pool.Query(ctx, `SELECT id, job_id, name, format, width, height, bytes FROM results
		WHERE job_id = ANY($1::uuid[]) ORDER BY job_id, position`, jobIDs)
	if err != nil {
		return nil, err
	}
	out := map[string][]domain.Result{}
	_, err = pgx.CollectRows(rows, func(row pgx.CollectableRow) (struct{}, error) {
		var res domain.Result
		err := row.Scan(&res.ID, &res.JobID, &res.Name, &res.Format, &res.Width, &res.Height, &res.Bytes)
		out[res.JobID] = append(out[res.JobID], res)
		return struct{}{}, err
	})
	return out, err
}

// DeleteJob implements app.Repository.
func (r Repo) DeleteJob(ctx context.Context, categoryID, jobID string) ([]string, error) {
	var keys []string
	err := pgx.BeginFunc(ctx, r.Pool, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `SELECT key, preview_key FROM results WHERE job_id = $1 AND category_id = $2`, jobID, categoryID)
		if err != nil {
			return err
		}
		_, err = pgx.CollectRows(rows, func(row pgx.CollectableRow) (struct{}, error) {
			var k, p string
			err := row.Scan(&k, &p)
			keys = append(keys, k, p)
			return struct{}{}, err
		})
		if err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `DELETE FROM jobs WHERE id = $1 AND category_id = $2`, jobID, categoryID)
		if err == nil && tag.RowsAffected() == 0 {
			return domain.ErrNotFound
		}
		return err
	})
	return keys, err
}

// GetResult implements app.Repository.
func (r Repo) GetResult(ctx context.Context, categoryID, resultID string) (app.StoredResult, error) {
	var s app.StoredResult
	err := r.Pool.QueryRow(ctx, `SELECT id, job_id, name, format, width, height, bytes, key, preview_key FROM results
		WHERE id = $1 AND category_id = $2`, resultID, categoryID).
		Scan(&s.ID, &s.JobID, &s.Name, &s.Format, &s.Width, &s.Height, &s.Bytes, &s.Key, &s.PreviewKey)
	return s, notFound(err)
}

// Plan implements app.Repository.
func (r Repo) Plan(ctx context.Context, categoryID string) (domain.Plan, error) {
	var p domain.Plan
	err := r.Pool.QueryRow(ctx, `SELECT p.tier, p.is_manually_set FROM owners o JOIN plans p ON p.user_id = o.user_id
		WHERE o.category_id = $1`, categoryID).Scan(&p.Tier, &p.IsManuallySet)
	if errors.Is(err, pgx.ErrNoRows) {
		return domain.Plan{Tier: domain.FreeTier}, nil
	}
	return p, err
}

// DownloadsUsed implements app.Repository.
func (r Repo) DownloadsUsed(ctx context.Context, categoryID, month string) (int, error) {
	var n int
	err := r.Pool.QueryRow(ctx, `SELECT count(*) FROM downloads WHERE category_id = $1 AND month = $2`, categoryID, month).Scan(&n)
	return n, err
}

// RecordDownload implements app.Repository. A transaction-scoped advisory
// lock on the category serialises concurrent downloads of one store.
func (r Repo) RecordDownload(ctx context.Context, categoryID, resultID, month string, check func(used int, repeat bool) error) (int, error) {
	var used int
	err := pgx.BeginFunc(ctx, r.Pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended('studio-downloads:' || $1, 0))`, categoryID); err != nil {
			return err
		}
		var repeat bool
		if err := tx.QueryRow(ctx, `SELECT count(*), coalesce(bool_or(result_id = $3), false) FROM downloads
			WHERE category_id = $1 AND month = $2`, categoryID, month, resultID).Scan(&used, &repeat); err != nil {
			return err
		}
		if err := check(used, repeat); err != nil {
			return err
		}
		if repeat {
			return nil
		}
		used++
		_, err := tx.Exec(ctx, `INSERT INTO downloads (category_id, month, result_id) VALUES ($1, $2, $3)`, categoryID, month, resultID)
		return err
	})
	return used, err
}

// ---------------------------------------------------------------- the queue

// FailAbandoned implements app.Queue.
func (r Repo) FailAbandoned(ctx context.Context, message string) (int, error) {
	var n int
	err := r.Pool.QueryRow(ctx, `
		WITH failed AS (
			UPDATE jobs SET status = 'failed', error = $1, lease_until = NULL, updated_at = now()
			WHERE status = 'working' AND lease_until < now()
			RETURNING id, category_id),
		refunded AS (
			DELETE FROM job_runs WHERE (category_id, job_id) IN (SELECT category_id, id FROM failed))
		SELECT count(*) FROM failed`, message).Scan(&n)
	return n, err
}

// Lease implements app.Queue. Among the queued jobs, the one of the store
// whose latest job started longest ago (or never) goes first, then the
// oldest: a store with many jobs waiting takes turns with the others.
func (r Repo) Lease(ctx context.Context, lease time.Duration) (app.Leased, bool, error) {
	var l app.Leased
	err := pgx.BeginFunc(ctx, r.Pool, func(tx pgx.Tx) error {
		var id string
		err := tx.QueryRow(ctx, `SELECT j.id FROM jobs j
			WHERE j.status = 'queued' AND (j.run_after IS NULL OR j.run_after <= now())
			ORDER BY (SELECT max(s.started_at) FROM jobs s WHERE s.category_id = j.category_id) NULLS FIRST, j.created_at, j.id
			LIMIT 1 FOR UPDATE OF j SKIP LOCKED`).Scan(&id)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE jobs SET status = 'working', attempts = attempts + 1, started_at = now(), run_after = NULL,
			lease_until = now() + make_interval(secs => $2), updated_at = now() WHERE id = $1`, id, lease.Seconds()); err != nil {
			return err
		}
		j, err := scanJob(tx.QueryRow(ctx, `SELECT `+jobColumns+` FROM jobs j JOIN images i ON i.id = j.image_id WHERE j.id = $1`, id))
		if err != nil {
			return err
		}
		l.Job = j
		return tx.QueryRow(ctx, `SELECT source_key, coalesce(mask_key, ''), coalesce(edits_key, '') FROM images WHERE id = $1`, j.ImageID).
			Scan(&l.SourceKey, &l.MaskKey, &l.EditsKey)
	})
	if errors.Is(err, pgx.ErrNoRows) {
		return app.Leased{}, false, nil
	}
	return l, err == nil, err
}

// Renew implements app.Queue.
func (r Repo) Renew(ctx context.Context, jobID string, lease time.Duration) error {
	_, err := r.Pool.Exec(ctx, `UPDATE jobs SET lease_until = now() + make_interval(secs => $2) WHERE id = $1 AND status = 'working'`,
		jobID, lease.Seconds())
	return err
}

// Retry implements app.Queue.
func (r Repo) Retry(ctx context.Context, jobID string, after time.Duration) error {
	_, err := r.Pool.Exec(ctx, `UPDATE jobs SET status = 'queued', progress = 0, lease_until = NULL,
		run_after = now() + make_interval(secs => $2), updated_at = now() WHERE id = $1 AND status = 'working'`, jobID, after.Seconds())
	return err
}

// Release implements app.Queue.
func (r Repo) Release(ctx context.Context, jobID string) error {
	_, err := r.Pool.Exec(ctx, `UPDATE jobs SET status = 'queued', progress = 0, lease_until = NULL, attempts = attempts - 1,
		updated_at = now() WHERE id = $1 AND status = 'working'`, jobID)
	return err
}

// SetProgress implements app.Queue.
func (r Repo) SetProgress(ctx context.Context, jobID string, percent int) error {
	_, err := r.Pool.Exec(ctx, `UPDATE jobs SET progress = $2, updated_at = now() WHERE id = $1 AND status = 'working'`, jobID, percent)
	return err
}

// SaveMask implements app.Queue.
func (r Repo) SaveMask(ctx context.Context, imageID, key string) error {
	_, err := r.Pool.Exec(ctx, `UPDATE images SET mask_key = $2 WHERE id = $1`, imageID, key)
	return err
}

// Complete implements app.Queue. A job deleted while it ran stays deleted,
// and one failed meanwhile (its lease ran out) stays failed.
func (r Repo) Complete(ctx context.Context, jobID string, results []app.StoredResult) error {
	return pgx.BeginFunc(ctx, r.Pool, func(tx pgx.Tx) error {
		var categoryID string
		err := tx.QueryRow(ctx, `UPDATE jobs SET status = 'done', progress = 100, error = '', lease_until = NULL, updated_at = now()
			WHERE id = $1 AND status = 'working' RETURNING category_id`, jobID).Scan(&categoryID)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		for i, res := range results {
			if _, err := tx.Exec(ctx, `INSERT INTO results (id, job_id, category_id, name, format, width, height, bytes, key, preview_key, position)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
				res.ID, jobID, categoryID, res.Name, res.Format, res.Width, res.Height, res.Bytes, res.Key, res.PreviewKey, i); err != nil {
				return err
			}
		}
		return nil
	})
}

// Fail implements app.Queue.
func (r Repo) Fail(ctx context.Context, jobID, message string) error {
	_, err := r.Pool.Exec(ctx, `
		WITH failed AS (
			UPDATE jobs SET status = 'failed', error = $2, lease_until = NULL, updated_at = now()
			WHERE id = $1 AND status = 'working'
			RETURNING id, category_id)
		DELETE FROM job_runs WHERE (category_id, job_id) IN (SELECT category_id, id FROM failed)`, jobID, message)
	return err
}

// ---------------------------------------------------------------- events

// TxRepo is the storage an event consumer changes inside its own
// transaction (app.EventStore).
type TxRepo struct{ Tx pgx.Tx }

// SetOwner implements app.EventStore.
func (r TxRepo) SetOwner(ctx context.Context, categoryID, userID string) error {
	_, err := r.Tx.Exec(ctx, `INSERT INTO owners (category_id, user_id) VALUES ($1, $2)
		ON CONFLICT (category_id) DO UPDATE SET user_id = excluded.user_id`, categoryID, userID)
	return err
}

// ApplyBilling implements app.EventStore.
func (r TxRepo) ApplyBilling(ctx context.Context, userID string, p domain.Plan, sourceTime time.Time) error {
	_, err := r.Tx.Exec(ctx, `INSERT INTO plans (user_id, tier, is_manually_set, source_time) VALUES ($1, $2, $3, $4)
		ON CONFLICT (user_id) DO UPDATE SET tier = excluded.tier, is_manually_set = excluded.is_manually_set,
			source_time = excluded.source_time
		WHERE plans.source_time <= excluded.source_time`, userID, p.Tier, p.IsManuallySet, sourceTime)
	return err
}

// ForgetUser implements app.EventStore.
func (r TxRepo) ForgetUser(ctx context.Context, userID string) error {
	if _, err := r.Tx.Exec(ctx, `DELETE FROM owners WHERE user_id = $1`, userID); err != nil {
		return err
	}
	_, err := r.Tx.Exec(ctx, `DELETE FROM plans WHERE user_id = $1`, userID)
	return err
}
