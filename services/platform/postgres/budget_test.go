package postgres_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"uplift.dev/platform/pgtest"
	"uplift.dev/platform/postgres"
)

// Under more concurrent queries than the pool has connections, PostgreSQL
// never sees more of the pool's connections (counted in pg_stat_activity by
// its application_name) than the size it was given, and sees all of them:
// the budget in docs/operations.md sums exactly these numbers.
func TestAPoolNeverOpensMoreConnectionsThanItsSize(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url := pgtest.URL(t)
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	name := "budget_" + hex.EncodeToString(b)
	const size = 3
	pool, err := postgres.Open(ctx, url, "shop", postgres.MaxConns(size), postgres.AppName(name))
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	watcher, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer watcher.Close(ctx)

	load, stop := context.WithTimeout(ctx, 1500*time.Millisecond)
	defer stop()
	var wg sync.WaitGroup
	var queries atomic.Int64
	for range 8 * size {
		wg.Go(func() {
			for load.Err() == nil {
				if _, err := pool.Exec(load, `SELECT pg_sleep(0.02)`); err == nil {
					queries.Add(1)
				}
			}
		})
	}
	most := 0
	for load.Err() == nil {
		var n int
		if err := watcher.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity WHERE application_name = $1`, name).Scan(&n); err != nil {
			t.Fatal(err)
		}
		most = max(most, n)
		time.Sleep(10 * time.Millisecond)
	}
	wg.Wait()
	t.Logf("%d queries from %d goroutines; at most %d connections named %s", queries.Load(), 8*size, most, name)
	if most > size {
		t.Fatalf("pg_stat_activity counted %d connections of a pool of %d", most, size)
	}
	if most < size {
		t.Fatalf("the load reached only %d of the pool's %d connections: the test measured nothing", most, size)
	}
}
