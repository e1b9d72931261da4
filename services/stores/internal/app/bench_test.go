package app_test

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"uplift.dev/platform/benchmem"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"uplift.dev/platform/events"
	"uplift.dev/platform/pgtest"
	pgplatform "uplift.dev/platform/postgres"
	"uplift.dev/stores/internal/adapters/postgres"
	"uplift.dev/stores/internal/app"
	"uplift.dev/stores/internal/domain"
	"uplift.dev/stores/internal/ordercsv/ordercsvtest"
	"uplift.dev/stores/migrations"
)

// The goals: import ≥ 20,000 orders/s, a year of metrics in ≤ 50 ms.
// Each benchmark runs the product and a bare baseline side by side in one
// run against the same PostgreSQL, and reports peak Go heap.

const benchOrders = 100000

type allowAll struct{}

func (allowAll) Check(context.Context, string) error { return nil }

func benchApp(b testing.TB, opts app.Options) (*app.App, postgres.Repo) {
	b.Helper()
	pool := pgtest.Pool(b, "stores")
	if err := pgplatform.Migrate(context.Background(), pool, events.Migrations(), migrations.FS); err != nil {
		b.Fatal(err)
	}
	repo := postgres.Repo{Pool: pool}
	a := app.New(repo, allowAll{}, nil, nil, nil, slog.New(slog.NewTextHandler(io.Discard, nil)), opts)
	return a, repo
}

// BenchmarkImportOrders imports a year of 100,000 orders end to end (parse,
// count, COPY, daily totals, each file in one transaction) into a new
// business each time; an export is at most 20 MB, so the year comes in two
// files. The baseline reads the same files with encoding/csv and COPYs every
// record, as text, into an unlogged table: the floor of any import.
func BenchmarkImportOrders(b *testing.B) {
	a, repo := benchApp(b, app.Options{})
	ctx := context.Background()
	files := yearFiles()

	b.Run("baseline=csv+copy", func(b *testing.B) {
		if _, err := repo.Pool.Exec(ctx, `CREATE UNLOGGED TABLE IF NOT EXISTS bench_raw (line int, fields text[])`); err != nil {
			b.Fatal(err)
		}
		peak := benchmem.WatchHeap()
		for b.Loop() {
			for _, f := range files {
				r := csv.NewReader(strings.NewReader(f))
				var rows [][]any
				for line := 1; ; line++ {
					rec, err := r.Read()
					if err == io.EOF {
						break
					} else if err != nil {
						b.Fatal(err)
					}
					rows = append(rows, []any{line, rec})
				}
				if _, err := repo.Pool.CopyFrom(ctx, pgx.Identifier{"bench_raw"}, []string{"line", "fields"}, pgx.CopyFromRows(rows)); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.ReportMetric(benchOrders*float64(b.N)/b.Elapsed().Seconds(), "orders/s")
		b.ReportMetric(peak()/(1<<20), "peak-heap-MiB")
	})
	b.Run("product=ImportOrders", func(b *testing.B) {
		peak := benchmem.WatchHeap()
		for b.Loop() {
			cat := uuid.NewString()
			for _, f := range files {
				res, err := a.ImportOrders(ctx, domain.Caller{UID: "bench"}, cat, export(strings.NewReader(f)))
				if err != nil || res.Orders != benchOrders/len(files) {
					b.Fatalf("import: %+v, %v", res, err)
				}
			}
		}
		b.ReportMetric(benchOrders*float64(b.N)/b.Elapsed().Seconds(), "orders/s")
		b.ReportMetric(peak()/(1<<20), "peak-heap-MiB")
		b.ReportMetric(0.6, "goal-ratio") // issue 25: ≥ 0.6× the baseline's rate
	})
}

// uploadOrders is about 19.5 MB of export in ordercsvtest's rows, the size
// of a busy shop's year of orders.
const uploadOrders = 70000

// maxConcurrentImportsHeapMiB is the goal for three such imports at once:
// with the service's runtime it keeps a replica inside its 512 MiB pod.
const maxConcurrentImportsHeapMiB = 220

// BenchmarkConcurrentImports imports three ~19.5 MB exports at once, each
// into a store of its own: three owners uploading together took the stores
// service to 826 MB once. The files stream in as they are
// read, as an upload does, so the heap measured is the imports' own. The
// baseline reads the same three streams with encoding/csv at once and
// COPYs every record as text: the floor of three imports. It fails when
// the product's peak heap passes maxConcurrentImportsHeapMiB.
func BenchmarkConcurrentImports(b *testing.B) {
	a, repo := benchApp(b, app.Options{ImportsInFlight: 3})
	ctx := context.Background()
	three := func(each func() error) {
		var wg sync.WaitGroup
		var errs [3]error
		for i := range errs {
			wg.Go(func() { errs[i] = each() })
		}
		wg.Wait()
		if err := errors.Join(errs[:]...); err != nil {
			b.Fatal(err)
		}
	}

	b.Run("baseline=csv+copy", func(b *testing.B) {
		if _, err := repo.Pool.Exec(ctx, `CREATE UNLOGGED TABLE IF NOT EXISTS bench_raw (line int, fields text[])`); err != nil {
			b.Fatal(err)
		}
		peak := benchmem.WatchHeap()
		for b.Loop() {
			three(func() error {
				r := csv.NewReader(ordercsvtest.ExportReader(uploadOrders))
				line := 0
				var rerr error
				_, err := repo.Pool.CopyFrom(ctx, pgx.Identifier{"bench_raw"}, []string{"line", "fields"}, pgx.CopyFromFunc(func() ([]any, error) {
					rec, err := r.Read()
					if err == io.EOF {
						return nil, nil
					}
					if err != nil {
						rerr = err
						return nil, err
					}
					line++
					return []any{line, rec}, nil
				}))
				return errors.Join(err, rerr)
			})
		}
		b.ReportMetric(3*uploadOrders*float64(b.N)/b.Elapsed().Seconds(), "orders/s")
		b.ReportMetric(peak()/(1<<20), "peak-heap-MiB")
	})
	b.Run("product=ImportOrders", func(b *testing.B) {
		peak := benchmem.WatchHeap()
		for b.Loop() {
			three(func() error {
				res, err := a.ImportOrders(ctx, domain.Caller{UID: "bench"}, uuid.NewString(),
					export(ordercsvtest.ExportReader(uploadOrders)))
				if err == nil && res.Orders != uploadOrders {
					err = fmt.Errorf("imported %d orders of %d", res.Orders, uploadOrders)
				}
				return err
			})
		}
		heap := peak() / (1 << 20)
		b.ReportMetric(3*uploadOrders*float64(b.N)/b.Elapsed().Seconds(), "orders/s")
		b.ReportMetric(heap, "peak-heap-MiB")
		if heap > maxConcurrentImportsHeapMiB {
			b.Errorf("three imports at once peaked at %.0f MiB of heap; the goal is at most %d", heap, maxConcurrentImportsHeapMiB)
		}
	})
}

// BenchmarkYearOfMetrics reads 365 days of numbers for a business with a
// year of orders through the use case the API serves. The baseline is one
// bare query of the same stored daily rows.
func BenchmarkYearOfMetrics(b *testing.B) {
	a, repo := benchApp(b, app.Options{})
	ctx := context.Background()
	cat := uuid.NewString()
	for _, f := range yearFiles() {
		if _, err := a.ImportOrders(ctx, domain.Caller{UID: "bench"}, cat, export(strings.NewReader(f))); err != nil {
			b.Fatal(err)
		}
	}
	from, to := "2025-01-01", "2025-12-31"

	b.Run("baseline=bare-query", func(b *testing.B) {
		peak := benchmem.WatchHeap()
		for b.Loop() {
			rows, err := repo.Pool.Query(ctx, `SELECT day, orders, gross, discounts, returns, shipping, taxes
				FROM daily WHERE category_id = $1 AND day BETWEEN $2 AND $3 ORDER BY day`, cat, from, to)
			if err != nil {
				b.Fatal(err)
			}
			n := 0
			for rows.Next() {
				var day time.Time
				var o, g, d, r, s, t int64
				if err := rows.Scan(&day, &o, &g, &d, &r, &s, &t); err != nil {
					b.Fatal(err)
				}
				n++
			}
			if rows.Err() != nil || n != 365 {
				b.Fatalf("%d days, %v", n, rows.Err())
			}
		}
		b.ReportMetric(peak()/(1<<20), "peak-heap-MiB")
	})
	b.Run("product=GetMetrics", func(b *testing.B) {
		peak := benchmem.WatchHeap()
		for b.Loop() {
			m, err := a.GetMetrics(ctx, cat, from, to, 0)
			if err != nil || len(m.Days) != 365 || m.Totals.Orders != benchOrders {
				b.Fatalf("metrics: %d days, %d orders, %v", len(m.Days), m.Totals.Orders, err)
			}
		}
		b.ReportMetric(peak()/(1<<20), "peak-heap-MiB")
		b.ReportMetric(0.6, "goal-ratio") // issue 25: ≥ 0.6× the bare query's speed
	})
}

// BenchmarkEmptyStoreMetrics reads the 30 days Analytics opens on for a
// business with no numbers yet (every new account), through the use case
// the API serves. The baseline is one bare query of its (absent) daily rows:
// the product reads the store, where its numbers come from, the days and
// Shopify's own totals, and it should stay within a small multiple of that.
func BenchmarkEmptyStoreMetrics(b *testing.B) {
	a, repo := benchApp(b, app.Options{})
	ctx := context.Background()
	cat := uuid.NewString()
	from, to := "2026-10-28", "2026-11-26"

	b.Run("baseline=bare-query", func(b *testing.B) {
		peak := benchmem.WatchHeap()
		for b.Loop() {
			rows, err := repo.Pool.Query(ctx, `SELECT day, orders FROM daily WHERE category_id = $1 AND day BETWEEN $2 AND $3`, cat, from, to)
			if err != nil {
				b.Fatal(err)
			}
			rows.Close()
			if rows.Err() != nil {
				b.Fatal(rows.Err())
			}
		}
		b.ReportMetric(peak()/(1<<20), "peak-heap-MiB")
	})
	b.Run("product=GetMetrics", func(b *testing.B) {
		peak := benchmem.WatchHeap()
		for b.Loop() {
			m, err := a.GetMetrics(ctx, cat, from, to, 0)
			if err != nil || len(m.Days) != 30 || m.Source != app.SourceNone {
				b.Fatalf("metrics: %d days, source %q, %v", len(m.Days), m.Source, err)
			}
		}
		b.ReportMetric(peak()/(1<<20), "peak-heap-MiB")
	})
}

// file is an order export arriving through r.
type file struct {
	io.Reader
}

func (file) Format() string { return app.FormatShopifyOrdersCSV }

func export(r io.Reader) app.Upload { return file{r} }

// yearFiles is 2025's 100,000 orders as two exports.
func yearFiles() []string {
	return []string{string(ordercsvtest.ExportYear(benchOrders, 2025, 0, 2)),
		string(ordercsvtest.ExportYear(benchOrders, 2025, 1, 2))}
}
