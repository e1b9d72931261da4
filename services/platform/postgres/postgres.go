// Package postgres opens a service's connection pool, confined to the
// service's own schema, and applies its embedded migrations at start.
package postgres

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

var schemaName = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

// Open connects to url with search_path set to schema, creating the schema
// if it does not exist. Each service owns one schema and touches no other.
func Open(ctx context.Context, url, schema string) (*pgxpool.Pool, error) {
	if !schemaName.MatchString(schema) {
		return nil, fmt.Errorf("postgres: bad schema name %q", schema)
	}
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("postgres: DATABASE_URL: %w", err)
	}
	cfg.ConnConfig.RuntimeParams["search_path"] = schema
	if !strings.Contains(url, "pool_max_conns") {
		cfg.MaxConns = DefaultMaxConns()
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("postgres: connect: %w", err)
	}
	if err := createSchema(ctx, pool, schema); err != nil {
		pool.Close()
		return nil, err
	}
	return pool, nil
}

// DefaultMaxConns is a pool's size when DATABASE_URL does not set
// pool_max_conns: pgx would take the machine's cores, so sixteen pods on
// 8-core nodes would open 128 connections, over PostgreSQL's default 100.
// GOMAXPROCS follows the container's CPU limit, so the budget is
// copies × services × max(4, CPU limit), as docs/operations.md's
// "The connection budget" sums it.
func DefaultMaxConns() int32 {
	return int32(max(4, runtime.GOMAXPROCS(0)))
}

// createSchema makes schema unless it exists. Copies of a service starting
// together against an empty database would race in CREATE SCHEMA IF NOT
// EXISTS (a unique violation on pg_namespace), so creation is serialised by
// a transaction-scoped advisory lock; a schema that exists needs no lock and
// no CREATE right on the database.
func createSchema(ctx context.Context, pool *pgxpool.Pool, schema string) error {
	var exists bool
	if err := pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = $1)`, schema).Scan(&exists); err != nil {
		return fmt.Errorf("postgres: look up schema %s: %w", schema, err)
	}
	if exists {
		return nil
	}
	err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtext('uplift.schema.' || $1))`, schema); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, "CREATE SCHEMA IF NOT EXISTS "+schema)
		return err
	})
	if err != nil {
		return fmt.Errorf("postgres: create schema %s: %w", schema, err)
	}
	return nil
}

// MigrationLockTimeout bounds how long one migration waits for a table lock.
// A migration queued behind a long query would otherwise hold every other
// query on that table behind it; failing it lets the copy start again later.
var MigrationLockTimeout = 10 * time.Second

// Migrate applies, in name order, every *.sql file of each fs not yet
// applied, each in its own transaction, under a session advisory lock on
// the schema so that copies starting together apply each file once.
func Migrate(ctx context.Context, pool *pgxpool.Pool, sets ...fs.FS) error {
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	defer conn.Release()
	// The lock is keyed on the schema's name, read here so that a pool
	// whose schema is missing fails clearly instead of locking on NULL
	// (pg_advisory_lock(NULL) locks nothing).
	var schema string
	if err := conn.QueryRow(ctx, `SELECT coalesce(current_schema(), '')`).Scan(&schema); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	if schema == "" {
		return errors.New("migrate: the pool's schema does not exist (open the pool with postgres.Open)")
	}
	if err := lockSession(ctx, conn.Conn(), "uplift.migrate."+schema); err != nil {
		return fmt.Errorf("migrate %s: %w", schema, err)
	}
	defer conn.Exec(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock(hashtext($1))`, "uplift.migrate."+schema) //nolint:errcheck // released with the session anyway
	if _, err := conn.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	for _, set := range sets {
		if set == nil {
			continue
		}
		names, err := fs.Glob(set, "*.sql")
		if err != nil {
			return fmt.Errorf("migrate: %w", err)
		}
		slices.Sort(names)
		for _, name := range names {
			if err := apply(ctx, conn.Conn(), set, name); err != nil {
				return err
			}
		}
	}
	return nil
}

// lockSession waits for the session advisory lock key as long as ctx lets
// it: another copy may be midway through a long migration, and a blocking
// pg_advisory_lock could not be given up when the copy is told to stop.
func lockSession(ctx context.Context, conn *pgx.Conn, key string) error {
	for {
		var got bool
		if err := conn.QueryRow(ctx, `SELECT pg_try_advisory_lock(hashtext($1))`, key).Scan(&got); err != nil {
			return fmt.Errorf("lock: %w", err)
		}
		if got {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for another copy's migration: %w", ctx.Err())
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// Pending lists the migrations of sets not yet applied to the pool's
// schema, in name order.
func Pending(ctx context.Context, pool *pgxpool.Pool, sets ...fs.FS) ([]string, error) {
	applied := map[string]bool{}
	rows, err := pool.Query(ctx, `SELECT name FROM schema_migrations`)
	if err != nil {
		var pgErr *pgconn.PgError
		if !errors.As(err, &pgErr) || pgErr.Code != "42P01" { // no table yet: nothing applied
			return nil, fmt.Errorf("migrations: %w", err)
		}
	} else {
		names, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			return nil, fmt.Errorf("migrations: %w", err)
		}
		for _, n := range names {
			applied[n] = true
		}
	}
	var pending []string
	for _, set := range sets {
		if set == nil {
			continue
		}
		names, err := fs.Glob(set, "*.sql")
		if err != nil {
			return nil, fmt.Errorf("migrations: %w", err)
		}
		slices.Sort(names)
		for _, n := range names {
			if !applied[n] {
				pending = append(pending, n)
			}
		}
	}
	return pending, nil
}

// WaitMigrated waits until every migration of sets is applied, for a
// binary that uses a schema another binary owns and migrates (a worker
// beside its service): it never applies one itself, as it may be another
// release than the owner. It says in the log what it waits for.
func WaitMigrated(ctx context.Context, pool *pgxpool.Pool, owner string, log *slog.Logger, sets ...fs.FS) error {
	last := time.Time{}
	for {
		pending, err := Pending(ctx, pool, sets...)
		if err == nil && len(pending) == 0 {
			return nil
		}
		if time.Since(last) > 10*time.Second {
			log.Info("waiting for the schema's owner to migrate it", "owner", owner, "pending", pending, "err", err)
			last = time.Now()
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for %s to apply migrations %v: %w", owner, pending, ctx.Err())
		case <-time.After(250 * time.Millisecond):
		}
	}
}

func apply(ctx context.Context, conn *pgx.Conn, set fs.FS, name string) error {
	return pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, fmt.Sprintf("SET LOCAL lock_timeout = '%dms'", MigrationLockTimeout.Milliseconds())); err != nil {
			return fmt.Errorf("migrate %s: %w", name, err)
		}
		tag, err := tx.Exec(ctx, `INSERT INTO schema_migrations (name) VALUES ($1) ON CONFLICT DO NOTHING`, name)
		if err != nil {
			return fmt.Errorf("migrate %s: %w", name, err)
		}
		if tag.RowsAffected() == 0 {
			return nil // already applied
		}
		sql, err := fs.ReadFile(set, name)
		if err != nil {
			return fmt.Errorf("migrate %s: %w", name, err)
		}
		if _, err := tx.Exec(ctx, string(sql)); err != nil {
			var pgErr *pgconn.PgError
			if errors.As(err, &pgErr) && pgErr.Code == "55P03" {
				return fmt.Errorf("migrate %s: a table it changes stayed locked by other sessions for over %s; it was not applied and will be tried at the next start: %w", name, MigrationLockTimeout, err)
			}
			return fmt.Errorf("migrate %s: %w", name, err)
		}
		return nil
	})
}

// IsUniqueViolation reports whether err is a unique-constraint violation,
// optionally on the named constraint.
func IsUniqueViolation(err error, constraint string) bool {
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) || pgErr.Code != "23505" {
		return false
	}
	return constraint == "" || strings.EqualFold(pgErr.ConstraintName, constraint)
}
