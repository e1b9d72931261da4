// Package pgtest gives each test its own freshly made PostgreSQL database, so
// tests run in parallel and never see each other's rows.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"uplift.dev/platform/postgres"
)

// URL returns a connection URL for a new, empty database that is dropped
// when the test ends. It needs DATABASE_URL (a role that may create
// databases); without it the test is skipped, or fails when
// UPLIFT_REQUIRE_INFRA is set, as `make test` does.
//
// With PGTEST_TEMPLATE set, the database is a copy of that one instead:
// `make schema-compat` migrates a template with the newest release and runs
// an older release's tests on copies of it, so each test's own migrations
// find nothing to do and its queries meet the newer schema.
func URL(t testing.TB) string {
	t.Helper()
	base := os.Getenv("DATABASE_URL")
	if base == "" {
		if os.Getenv("UPLIFT_REQUIRE_INFRA") != "" {
			t.Fatal("DATABASE_URL is not set; run the tests with `make test`")
		}
		t.Skip("DATABASE_URL not set; run with `make test` to use a real PostgreSQL")
	}
	ctx := context.Background()
	admin, err := pgx.Connect(ctx, base)
	if err != nil {
		t.Fatalf("pgtest: connect: %v", err)
	}
	defer admin.Close(ctx)
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	name := "uplift_test_" + hex.EncodeToString(b)
	create := "CREATE DATABASE " + name
	if tmpl := os.Getenv(TemplateEnv); tmpl != "" {
		create += " TEMPLATE " + pgx.Identifier{tmpl}.Sanitize()
	}
	if _, err := admin.Exec(ctx, create); err != nil {
		t.Fatalf("pgtest: create database: %v", err)
	}
	t.Cleanup(func() {
		c, err := pgx.Connect(context.Background(), base)
		if err != nil {
			return
		}
		defer c.Close(context.Background())
		_, _ = c.Exec(context.Background(), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
	})
	u, err := url.Parse(base)
	if err != nil || u.Scheme == "" {
		t.Fatalf("pgtest: DATABASE_URL must be a postgres:// URL")
	}
	u.Path = "/" + name
	return u.String()
}

// TemplateEnv names the database each test's database is copied from, when set.
const TemplateEnv = "PGTEST_TEMPLATE"

// Pool opens a pool on a new database for schema, closed when the test ends.
func Pool(t testing.TB, schema string) *pgxpool.Pool {
	t.Helper()
	pool, err := postgres.Open(context.Background(), URL(t), schema)
	if err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	t.Cleanup(pool.Close)
	return pool
}
