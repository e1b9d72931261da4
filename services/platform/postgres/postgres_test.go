package postgres_test

import (
	"context"
	"log/slog"
	"runtime"
	"strings"
	"testing"
	"testing/fstest"
	"time"

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

// Several copies of a service start at once against an empty database, as a
// rolled-out deployment does: every one of them must start.
func TestManyCopiesOpenAndMigrateAnEmptyDatabaseAtOnce(t *testing.T) {
	t.Parallel()
	set := fstest.MapFS{
		"0001_a.sql": {Data: []byte(`CREATE TABLE things (n int PRIMARY KEY)`)},
		"0002_b.sql": {Data: []byte(`INSERT INTO things VALUES (1)`)},
	}
	for round := range 5 {
		url := pgtest.URL(t)
		errs := make(chan error, 8)
		for range cap(errs) {
			go func() {
				pool, err := postgres.Open(context.Background(), url, "shop")
				if err == nil {
					err = postgres.Migrate(context.Background(), pool, set)
					pool.Close()
				}
				errs <- err
			}()
		}
		for range cap(errs) {
			if err := <-errs; err != nil {
				t.Fatalf("round %d: a copy failed to start: %v", round, err)
			}
		}
	}
}

// A migration that cannot get its table's lock gives up after
// MigrationLockTimeout, is not recorded, and is applied by a later start.
func TestMigrationWaitingOnATableLockGivesUpAndIsRetried(t *testing.T) {
	defer func(d time.Duration) { postgres.MigrationLockTimeout = d }(postgres.MigrationLockTimeout)
	postgres.MigrationLockTimeout = 200 * time.Millisecond
	ctx := context.Background()
	pool := pgtest.Pool(t, "shop")
	first := fstest.MapFS{"0001_a.sql": {Data: []byte(`CREATE TABLE things (n int)`)}}
	if err := postgres.Migrate(ctx, pool, first); err != nil {
		t.Fatal(err)
	}
	reader, err := pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := reader.Exec(ctx, `LOCK TABLE things IN ACCESS SHARE MODE`); err != nil {
		t.Fatal(err)
	}
	second := fstest.MapFS{"0002_b.sql": {Data: []byte(`ALTER TABLE things ADD COLUMN m int`)}}
	err = postgres.Migrate(ctx, pool, first, second)
	if err == nil || !strings.Contains(err.Error(), "0002_b.sql") || !strings.Contains(err.Error(), "stayed locked") {
		t.Fatalf("migration behind a lock: got %v, want a lock timeout naming 0002_b.sql", err)
	}
	_ = reader.Rollback(ctx)
	if err := postgres.Migrate(ctx, pool, first, second); err != nil {
		t.Fatalf("retried migration: %v", err)
	}
	if _, err := pool.Exec(ctx, `INSERT INTO things (n, m) VALUES (1, 2)`); err != nil {
		t.Fatalf("column not added on retry: %v", err)
	}
}

// A pool is sized by the CPU the container may use, not the node's cores,
// unless DATABASE_URL says otherwise.
func TestPoolSizeFollowsTheCPULimit(t *testing.T) {
	url := pgtest.URL(t)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, tc := range []struct {
		procs int
		url   string
		want  int32
	}{
		{1, url, 4},
		{6, url, 6},
		{6, url + "&pool_max_conns=3", 3},
	} {
		runtime.GOMAXPROCS(tc.procs)
		if !strings.Contains(tc.url, "?") {
			tc.url = strings.Replace(tc.url, "&", "?", 1)
		}
		pool, err := postgres.Open(context.Background(), tc.url, "shop")
		if err != nil {
			t.Fatal(err)
		}
		if got := pool.Config().MaxConns; got != tc.want {
			t.Errorf("GOMAXPROCS %d, %s: pool of %d, want %d", tc.procs, tc.url, got, tc.want)
		}
		pool.Close()
	}
}

// A binary beside the schema's owner waits for the owner's migrations and
// applies none itself.
func TestWaitMigratedWaitsForTheOwner(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := pgtest.Pool(t, "shop")
	set := fstest.MapFS{
		"0001_a.sql": {Data: []byte(`CREATE TABLE things (n int)`)},
		"0002_b.sql": {Data: []byte(`ALTER TABLE things ADD COLUMN m int`)},
	}
	if pending, err := postgres.Pending(ctx, pool, set); err != nil || len(pending) != 2 {
		t.Fatalf("pending on an empty schema: %v %v", pending, err)
	}
	short, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancel()
	if err := postgres.WaitMigrated(short, pool, "shop", slog.New(slog.DiscardHandler), set); err == nil ||
		!strings.Contains(err.Error(), "0001_a.sql") {
		t.Fatalf("WaitMigrated on an unmigrated schema: %v, want it to name what is pending", err)
	}
	if pending, _ := postgres.Pending(ctx, pool, set); len(pending) != 2 {
		t.Fatalf("WaitMigrated applied migrations itself: %v pending", pending)
	}
	done := make(chan error, 1)
	go func() { done <- postgres.WaitMigrated(ctx, pool, "shop", slog.New(slog.DiscardHandler), set) }()
	time.Sleep(100 * time.Millisecond)
	if err := postgres.Migrate(ctx, pool, set); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("WaitMigrated did not see the owner's migrations")
	}
}
