package postgres_test

import (
	"context"
	"testing"
	"testing/fstest"

	"uplift.dev/platform/pgtest"
	"uplift.dev/platform/postgres"
)

func TestMigrateAppliesOnceInOrderInOwnSchema(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := pgtest.Pool(t, "shop")
	set := fstest.MapFS{
		"0002_b.sql": {Data: []byte(`INSERT INTO things VALUES (2)`)},
		"0001_a.sql": {Data: []byte(`CREATE TABLE things (n int)`)},
	}
	for range 2 {
		if err := postgres.Migrate(ctx, pool, set); err != nil {
			t.Fatal(err)
		}
	}
	var n, count int
	if err := pool.QueryRow(ctx, `SELECT count(*), max(n) FROM shop.things`).Scan(&count, &n); err != nil {
		t.Fatal(err)
	}
	if count != 1 || n != 2 {
		t.Fatalf("migrations ran wrongly: count=%d max=%d", count, n)
	}
	bad := fstest.MapFS{"0003_bad.sql": {Data: []byte(`CREATE TABLE broken (`)}}
	if err := postgres.Migrate(ctx, pool, set, bad); err == nil {
		t.Fatal("broken migration accepted")
	}
	var recorded bool
	_ = pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM schema_migrations WHERE name = '0003_bad.sql')`).Scan(&recorded)
	if recorded {
		t.Fatal("failed migration recorded as applied")
	}
}

func TestOpenRejectsBadSchemaName(t *testing.T) {
	if _, err := postgres.Open(context.Background(), "postgres://x", "bad;name"); err == nil {
		t.Fatal("bad schema name accepted")
	}
}
