package postgres_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

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

// Each service's login, its pool sized as the runtime sizes it
// (DATABASE_MAX_CONNS, else max(4, GOMAXPROCS)), holds at most its pool's
// connections under load, counted per role in pg_stat_activity, and
// reaches them: the per-pod pool of docs/operations.md's budget table,
// whose rows must add up to its total within max_connections less the
// reserve.
func TestEachLoginHoldsAtMostItsPoolAsTheBudgetCountsIt(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url := pgtest.URL(t)
	budget := readBudget(t)
	size := int(postgres.DefaultMaxConns())
	if v := os.Getenv("DATABASE_MAX_CONNS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			t.Fatalf("DATABASE_MAX_CONNS=%q", v)
		}
		size = n
	} else if runtime.GOMAXPROCS(0) <= 4 && size != budget.pool {
		// The manifests' CPU limits are all at most 4, so GOMAXPROCS is too.
		t.Fatalf("a pool has %d connections with GOMAXPROCS %d, the budget counts %d", size, runtime.GOMAXPROCS(0), budget.pool)
	}
	roles := map[string]*pgxpool.Pool{}
	for _, schema := range []string{"shop", "bank", "mail"} {
		role, loginURL := login(t, url, schema)
		pool, err := postgres.Open(ctx, loginURL, schema, postgres.MaxConns(size))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(pool.Close)
		roles[role] = pool
	}
	watcher, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer watcher.Close(ctx)

	load, stop := context.WithTimeout(ctx, 1500*time.Millisecond)
	defer stop()
	var wg sync.WaitGroup
	for _, pool := range roles {
		for range 4 * size {
			wg.Go(func() {
				for load.Err() == nil {
					_, _ = pool.Exec(load, `SELECT pg_sleep(0.02)`)
				}
			})
		}
	}
	most := map[string]int{}
	for load.Err() == nil {
		rows, err := watcher.Query(ctx, `SELECT usename::text, count(*)::int FROM pg_stat_activity
			WHERE datname = current_database() AND usename = ANY($1) GROUP BY 1`, slices.Collect(maps.Keys(roles)))
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var role string
			var n int
			if err := rows.Scan(&role, &n); err != nil {
				t.Fatal(err)
			}
			most[role] = max(most[role], n)
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	wg.Wait()
	for role := range roles {
		t.Logf("%s: at most %d connections, pool %d", role, most[role], size)
		if most[role] > size {
			t.Errorf("login %s held %d connections, its pool is %d", role, most[role], size)
		}
		if most[role] < size {
			t.Errorf("login %s reached only %d of its pool's %d connections: the test measured nothing", role, most[role], size)
		}
	}
}

// budget is docs/operations.md's connection budget table.
type budget struct{ pool, total, maxConnections, reserve int }

func readBudget(t *testing.T) budget {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "operations.md"))
	if err != nil {
		t.Fatal(err)
	}
	section, _, _ := strings.Cut(strings.SplitN(string(doc), "## The connection budget", 2)[1], "\n## ")
	var b budget
	sum := 0
	for line := range strings.Lines(section) {
		cells := strings.Split(strings.Trim(strings.TrimSpace(line), "|"), "|")
		if len(cells) != 4 {
			continue
		}
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		conns, err := strconv.Atoi(cells[3])
		if err != nil {
			continue // the header and its rule
		}
		if cells[0] == "total" {
			b.total = conns
			continue
		}
		pods, _ := strconv.Atoi(strings.Fields(cells[1])[0])
		if strings.HasSuffix(cells[1], " each") {
			pods *= len(strings.Split(cells[0], ","))
		}
		pool, _ := strconv.Atoi(cells[2])
		if pods*pool != conns {
			t.Errorf("budget row %q: %d pods × %d ≠ %d", cells[0], pods, pool, conns)
		}
		if b.pool != 0 && pool != b.pool {
			t.Errorf("budget row %q counts pools of %d, the others %d", cells[0], pool, b.pool)
		}
		b.pool = pool
		sum += conns
	}
	if b.pool == 0 || b.total == 0 {
		t.Fatal("docs/operations.md has no connection budget table")
	}
	if sum != b.total {
		t.Errorf("the budget's rows add up to %d, its total says %d", sum, b.total)
	}
	if m := regexp.MustCompile("sets (\\d+) \\((\\d+) usable\\)").FindStringSubmatch(section); m != nil {
		b.maxConnections, _ = strconv.Atoi(m[1])
		usable, _ := strconv.Atoi(m[2])
		b.reserve = b.maxConnections - usable
	}
	if b.maxConnections == 0 || b.total > b.maxConnections-b.reserve {
		t.Errorf("the budget's total %d is not within max_connections %d less the reserve %d", b.total, b.maxConnections, b.reserve)
	}
	return b
}
