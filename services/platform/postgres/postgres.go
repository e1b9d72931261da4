// Package postgres opens a service's connection pool, confined to the
// service's own schema, and applies its embedded migrations at start.
package postgres

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"math"
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
// Without options the pool has DefaultMaxConns connections (or the URL's
// pool_max_conns) and names them schema in pg_stat_activity.
func Open(ctx context.Context, url, schema string, opts ...Option) (*pgxpool.Pool, error) {
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
	if _, ok := cfg.ConnConfig.RuntimeParams["application_name"]; !ok {
		cfg.ConnConfig.RuntimeParams["application_name"] = schema
	}
	for _, o := range opts {
		o(cfg)
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

// Option changes how Open sizes or names a pool.
type Option func(*pgxpool.Config)

// MaxConns caps the pool at n connections, over DefaultMaxConns and the
// URL's pool_max_conns (DATABASE_MAX_CONNS: the pool size is a deployment's
// choice, while DATABASE_URL is a secret, its login's); n < 1
// changes nothing.
func MaxConns(n int) Option {
	return func(c *pgxpool.Config) {
		if n > 0 {
			c.MaxConns = int32(min(n, math.MaxInt32))
			c.MinConns = min(c.MinConns, c.MaxConns)
		}
	}
}

// AppName names the pool's connections in pg_stat_activity
// (application_name), so the connection budget can be counted per binary;
// a name the URL sets is kept.
func AppName(name string) Option {
	return func(c *pgxpool.Config) {
		if name != "" && !strings.Contains(c.ConnString(), "application_name") {
			c.ConnConfig.RuntimeParams["application_name"] = name
		}
	}
}

// DefaultMaxConns is a pool's size when neither MaxConns nor DATABASE_URL's
// pool_max_conns sets it: pgx would take the machine's cores, so sixteen
// pods on 8-core nodes would open 128 connections, over PostgreSQL's
// default 100. GOMAXPROCS follows the container's CPU limit (Go 1.25+), so
// the budget is copies × binaries × max(4, CPU limit), as
// docs/operations.md's "The connection budget" sums it.
func DefaultMaxConns() int32 {
	return int32(max(4, runtime.GOMAXPROCS(0)))
}

// createSchema makes schema unless it exists, under the same advisory lock
// as Migrate: copies of a service starting together against an empty
// database would otherwise race in CREATE SCHEMA IF NOT EXISTS (a unique
// violation on pg_namespace, 23505). A schema that exists needs no lock
// and no CREATE right on the database.
func createSchema(ctx context.Context, pool *pgxpool.Pool, schema string) error {
	var exists bool
	if err := pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = $1)`, schema).Scan(&exists); err != nil {
		return fmt.Errorf("postgres: look up schema %s: %w", schema, err)
	}
	if exists {
		return nil
	}
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("postgres: create schema %s: %w", schema, err)
	}
	defer conn.Release()
	err = underMigrationLock(ctx, conn.Conn(), schema, func() error {
		return prepare(ctx, conn.Conn(), schema, false)
	})
	if err != nil {
		return fmt.Errorf("postgres: create schema %s: %w", schema, err)
	}
	return nil
}

// MigrationLockTimeout bounds how long one migration (or the schema's
// creation) waits for a table lock. A migration queued behind a long query
// would otherwise hold every other query on that table behind it; it fails
// instead, naming itself, is not recorded, and is tried at the next start.
var MigrationLockTimeout = 10 * time.Second

// Migrate applies, in name order, every *.sql file of each fs not yet
// applied, each in its own transaction. Everything it does, making the
// schema and the schema_migrations table included, happens under one
// session advisory lock on the schema, the one Open takes to make the
// schema, so copies starting together apply each file once and never race.
func Migrate(ctx context.Context, pool *pgxpool.Pool, sets ...fs.FS) error {
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	defer conn.Release()
	schema, err := poolSchema(ctx, pool, conn.Conn())
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	return underMigrationLock(ctx, conn.Conn(), schema, func() error {
		if err := prepare(ctx, conn.Conn(), schema, true); err != nil {
			return fmt.Errorf("migrate %s: %w", schema, err)
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
	})
}

// poolSchema is the schema the pool was opened for (Open's search_path),
// or else the session's current schema. The lock is keyed on it, so a pool
// whose schema cannot be told fails clearly instead of locking on NULL
// (pg_advisory_lock(NULL) locks nothing).
func poolSchema(ctx context.Context, pool *pgxpool.Pool, conn *pgx.Conn) (string, error) {
	if s := pool.Config().ConnConfig.RuntimeParams["search_path"]; schemaName.MatchString(s) {
		return s, nil
	}
	var schema string
	if err := conn.QueryRow(ctx, `SELECT coalesce(current_schema(), '')`).Scan(&schema); err != nil {
		return "", err
	}
	if schema == "" {
		return "", errors.New("the pool's schema does not exist (open the pool with postgres.Open)")
	}
	return schema, nil
}

// underMigrationLock runs f holding the session advisory lock on schema's
// migrations, then releases it.
func underMigrationLock(ctx context.Context, conn *pgx.Conn, schema string, f func() error) error {
	key := "uplift.migrate." + schema
	if err := lockSession(ctx, conn, key); err != nil {
		return fmt.Errorf("migrate %s: %w", schema, err)
	}
	defer conn.Exec(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock(hashtext($1))`, key) //nolint:errcheck // released with the session anyway
	return f()
}

// prepare makes schema and, with table, its schema_migrations record, in a
// transaction bounded by MigrationLockTimeout like each migration.
func prepare(ctx context.Context, conn *pgx.Conn, schema string, table bool) error {
	return pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
		if err := setLockTimeout(ctx, tx); err != nil {
			return err
		}
		// A service's login owns its schema but may not create schemas
		// (docs/operations.md, "Database logins"), and PostgreSQL checks
		// that right before it looks whether the schema exists.
		var exists bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = $1)`, schema).Scan(&exists); err != nil {
			return err
		}
		if !exists {
			if _, err := tx.Exec(ctx, "CREATE SCHEMA IF NOT EXISTS "+schema); err != nil {
				return err
			}
		}
		if !table {
			return nil
		}
		_, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS `+schema+`.schema_migrations (
			name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`)
		return err
	})
}

func setLockTimeout(ctx context.Context, tx pgx.Tx) error {
	_, err := tx.Exec(ctx, fmt.Sprintf("SET LOCAL lock_timeout = '%dms'", MigrationLockTimeout.Milliseconds()))
	return err
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
		if err := setLockTimeout(ctx, tx); err != nil {
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
