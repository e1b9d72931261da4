package program_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"testing"
	"testing/fstest"
	"time"

	"uplift.dev/platform/pgtest"
	"uplift.dev/platform/program"
)

var workerMigrations = fstest.MapFS{"0001_jobs.sql": {Data: []byte(`CREATE TABLE jobs (n int)`)}}

// freeAddr is a loopback address nothing listens on.
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// A worker runs its jobs on the service's migrated schema, answers its
// probe meanwhile, and when it is stopped its jobs end before what they
// use is closed; Run then returns nil.
func TestWorkerRunsJobsServesHealthAndClosesAfterTheJobs(t *testing.T) {
	t.Parallel()
	url := pgtest.URL(t)
	if err := program.MigrateSchema(context.Background(), url, "shop", workerMigrations); err != nil {
		t.Fatal(err)
	}
	addr := freeAddr(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	jobDone, closed := make(chan struct{}), make(chan bool, 1)
	done := make(chan error, 1)
	go func() {
		done <- program.Worker{Name: "shopworker", Service: "shop", DatabaseURL: url, Migrations: workerMigrations,
			MetricsAddr: addr}.Run(ctx, slog.New(slog.NewTextHandler(io.Discard, nil)),
			func(_ context.Context, rt *program.WorkerRuntime) ([]func(context.Context) error, error) {
				rt.Defer(func() {
					select {
					case <-jobDone:
						closed <- true
					default:
						closed <- false
					}
				})
				return []func(context.Context) error{func(ctx context.Context) error {
					defer close(jobDone)
					if _, err := rt.Pool.Exec(ctx, `INSERT INTO jobs VALUES (1)`); err != nil {
						return err
					}
					<-ctx.Done()
					return ctx.Err()
				}}, nil
			})
	}()
	deadline := time.Now().Add(10 * time.Second)
	for {
		resp, err := http.Get("http://" + addr + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("healthz: %s", resp.Status)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("healthz never answered: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("stopped worker: %v", err)
	}
	if !<-closed {
		t.Fatal("Defer ran before the job had stopped")
	}
}

// A worker waits for the service to migrate (it never does itself), and
// a job that fails stops it with that job's error.
func TestWorkerWaitsForTheSchemaAndStopsOnAFailedJob(t *testing.T) {
	t.Parallel()
	url := pgtest.URL(t)
	boom := errors.New("boom")
	done := make(chan error, 1)
	started := make(chan struct{})
	go func() {
		done <- program.Worker{Name: "shopworker", Service: "shop", DatabaseURL: url, Migrations: workerMigrations}.Run(
			context.Background(), slog.New(slog.NewTextHandler(io.Discard, nil)),
			func(context.Context, *program.WorkerRuntime) ([]func(context.Context) error, error) {
				close(started)
				return []func(context.Context) error{func(context.Context) error { return boom }}, nil
			})
	}()
	select {
	case <-started:
		t.Fatal("the worker started on a schema the service had not migrated")
	case <-time.After(300 * time.Millisecond):
	}
	if err := program.MigrateSchema(context.Background(), url, "shop", workerMigrations); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if !errors.Is(err, boom) {
			t.Fatalf("Run = %v, want the job's error", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the worker never started after the schema was migrated")
	}
}

// A worker stopped while it still waits for its service to migrate the
// schema (a deploy rolled back at once, a test that ends first) stops
// cleanly: Run returns nil, not the wait's "context canceled".
func TestAWorkerStoppedBeforeItsSchemaIsReadyStopsCleanly(t *testing.T) {
	t.Parallel()
	url := pgtest.URL(t) // never migrated
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- program.Worker{Name: "shopworker", Service: "shop", DatabaseURL: url, Migrations: workerMigrations,
			MetricsAddr: freeAddr(t)}.Run(ctx, slog.New(slog.NewTextHandler(io.Discard, nil)),
			func(context.Context, *program.WorkerRuntime) ([]func(context.Context) error, error) {
				t.Error("wired before the schema was migrated")
				return nil, nil
			})
	}()
	time.Sleep(300 * time.Millisecond) // waiting for the schema by now
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Run: %v, want nil for a stop while waiting", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return after its context ended")
	}
}
