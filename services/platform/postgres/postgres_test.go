package postgres_test

import (
	"context"
	"fmt"
	"log/slog"
	"runtime"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/jackc/pgx/v5"

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
// rolled-out deployment does: every one of them must start. Each round
// names a schema that does not exist yet, so all eight race to make it.
func TestManyCopiesOpenAndMigrateAnEmptyDatabaseAtOnce(t *testing.T) {
	t.Parallel()
	set := fstest.MapFS{
		"0001_a.sql": {Data: []byte(`CREATE TABLE things (n int PRIMARY KEY)`)},
		"0002_b.sql": {Data: []byte(`INSERT INTO things VALUES (1)`)},
	}
	url := pgtest.URL(t)
	for round := range 10 {
		schema := fmt.Sprintf("shop_%d", round)
		errs := make(chan error, 8)
		for range cap(errs) {
			go func() {
				pool, err := postgres.Open(context.Background(), url, schema)
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

// The schema is made under the migrations' own lock: while another copy
// holds it (midway through migrating), a copy neither makes the schema
// nor migrates; it waits, for as long as its context lets it.
func TestSchemaIsMadeUnderTheMigrationLock(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url := pgtest.URL(t)
	holder, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close(ctx)
	if _, err := holder.Exec(ctx, `SELECT pg_advisory_lock(hashtext('uplift.migrate.shop'))`); err != nil {
		t.Fatal(err)
	}
	short, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancel()
	if _, err := postgres.Open(short, url, "shop"); err == nil || !strings.Contains(err.Error(), "another copy's migration") {
		t.Fatalf("Open while another copy migrates: %v, want it to wait for the lock", err)
	}
	var made bool
	if err := holder.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = 'shop')`).Scan(&made); err != nil || made {
		t.Fatalf("schema made outside the lock: %v %v", made, err)
	}
	opened := make(chan error, 1)
	go func() {
		pool, err := postgres.Open(ctx, url, "shop")
		if err == nil {
			err = postgres.Migrate(ctx, pool, fstest.MapFS{"0001_a.sql": {Data: []byte(`CREATE TABLE things (n int)`)}})
			pool.Close()
		}
		opened <- err
	}()
	time.Sleep(200 * time.Millisecond)
	if _, err := holder.Exec(ctx, `SELECT pg_advisory_unlock(hashtext('uplift.migrate.shop'))`); err != nil {
		t.Fatal(err)
	}
	if err := <-opened; err != nil {
		t.Fatalf("Open+Migrate once the lock was free: %v", err)
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
		opts  []postgres.Option
		want  int32
	}{
		{1, url, nil, 4},
		{6, url, nil, 6},
		{6, url + "&pool_max_conns=3", nil, 3},
		{6, url, []postgres.Option{postgres.MaxConns(2)}, 2}, // DATABASE_MAX_CONNS
		{6, url + "&pool_max_conns=3", []postgres.Option{postgres.MaxConns(5)}, 5}, // it wins over the URL
		{6, url, []postgres.Option{postgres.MaxConns(0)}, 6},                       // unset
	} {
		runtime.GOMAXPROCS(tc.procs)
		if !strings.Contains(tc.url, "?") {
			tc.url = strings.Replace(tc.url, "&", "?", 1)
		}
		pool, err := postgres.Open(context.Background(), tc.url, "shop", tc.opts...)
		if err != nil {
			t.Fatal(err)
		}
		if got := pool.Config().MaxConns; got != tc.want {
			t.Errorf("GOMAXPROCS %d, %s, %d options: pool of %d, want %d", tc.procs, tc.url, len(tc.opts), got, tc.want)
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
