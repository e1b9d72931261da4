// Package postgres opens a service's connection pool, confined to the
// service's own schema, and applies its embedded migrations at start.
package postgres

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"slices"
	"strings"

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
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("postgres: connect: %w", err)
	}
	if _, err := pool.Exec(ctx, "CREATE SCHEMA IF NOT EXISTS "+schema); err != nil {
		pool.Close()
		return nil, fmt.Errorf("postgres: create schema %s: %w", schema, err)
	}
	return pool, nil
}

// Migrate applies, in name order, every *.sql file of each fs not yet
// applied, each in its own transaction. An advisory lock keeps two replicas
// starting together from racing.
func Migrate(ctx context.Context, pool *pgxpool.Pool, sets ...fs.FS) error {
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock(hashtext(current_schema()))`); err != nil {
		return fmt.Errorf("migrate: lock: %w", err)
	}
	defer conn.Exec(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock(hashtext(current_schema()))`) //nolint:errcheck // released with the session anyway
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

func apply(ctx context.Context, conn *pgx.Conn, set fs.FS, name string) error {
	return pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
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
