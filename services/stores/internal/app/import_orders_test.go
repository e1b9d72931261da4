package app_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"uplift.dev/platform/events"
	"uplift.dev/platform/pgtest"
	pgplatform "uplift.dev/platform/postgres"
	"uplift.dev/stores/internal/adapters/postgres"
	"uplift.dev/stores/internal/app"
	"uplift.dev/stores/internal/domain"
	"uplift.dev/stores/internal/ordercsv/ordercsvtest"
	"uplift.dev/stores/migrations"
)

// slowUpload is an export whose first half has arrived and whose rest
// waits for release, as a slow upload does. started is closed once the
// import has begun reading it (it holds its slots by then).
type slowUpload struct {
	started, release chan struct{}
	r                io.Reader
}

func newSlowUpload(data []byte) *slowUpload {
	u := &slowUpload{started: make(chan struct{}), release: make(chan struct{})}
	half := len(data) / 2
	u.r = io.MultiReader(strings.NewReader(string(data[:half])), waitReader{u.release, strings.NewReader(string(data[half:]))})
	return u
}

func (u *slowUpload) Read(p []byte) (int, error) {
	select {
	case <-u.started:
	default:
		close(u.started)
	}
	return u.r.Read(p)
}

type waitReader struct {
	release <-chan struct{}
	r       io.Reader
}

func (w waitReader) Read(p []byte) (int, error) {
	<-w.release
	return w.r.Read(p)
}

// TestImportsInFlightAreBounded: one import per store across replicas, at
// most ImportsInFlight per replica; the refused ones answer at once and
// store nothing, the running ones finish whole, and the store can import
// again once its import ended: without the bound, three large uploads at
// once took one replica to 826 MB.
func TestImportsInFlightAreBounded(t *testing.T) {
	t.Parallel()
	_, repo := testApp(t)
	pool := repo.Pool
	replica := func() *app.App {
		return app.New(repo, allowAll{}, nil, nil, nil, slog.New(slog.NewTextHandler(io.Discard, nil)), app.Options{ImportsInFlight: 2})
	}
	one, two := replica(), replica()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	file := ordercsvtest.Export(2000)
	storeA, storeB, storeC := uuid.NewString(), uuid.NewString(), uuid.NewString()
	importInto := func(a *app.App, store string, r io.Reader) (app.ImportResult, error) {
		return a.ImportOrders(ctx, domain.Caller{UID: "owner"}, store, export(r))
	}
	orders := func(store string) int {
		var n int
		if err := pool.QueryRow(ctx, `SELECT count(*) FROM orders WHERE category_id = $1`, store).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}

	type done struct {
		res app.ImportResult
		err error
	}
	start := func(a *app.App, store string) (*slowUpload, chan done) {
		u := newSlowUpload(file)
		ch := make(chan done, 1)
		go func() {
			res, err := importInto(a, store, u)
			ch <- done{res, err}
		}()
		<-u.started
		return u, ch
	}
	a1, aDone := start(one, storeA) // reading, so holding the store's slot

	for name, a := range map[string]*app.App{"the same replica": one, "another replica": two} {
		if _, err := importInto(a, storeA, strings.NewReader(string(file))); !errors.Is(err, domain.ErrImportRunning) {
			t.Errorf("a second import into the store on %s: %v, want ErrImportRunning", name, err)
		}
	}
	b1, bDone := start(one, storeB)
	if _, err := importInto(one, storeC, strings.NewReader(string(file))); !errors.Is(err, domain.ErrTooManyImports) {
		t.Errorf("a third import on a replica that runs two: %v, want ErrTooManyImports", err)
	}
	if res, err := importInto(two, storeC, strings.NewReader(string(file))); err != nil || res.Orders != 2000 {
		t.Errorf("another replica has room: %+v, %v", res, err)
	}

	close(a1.release)
	close(b1.release)
	for store, ch := range map[string]chan done{storeA: aDone, storeB: bDone} {
		if d := <-ch; d.err != nil || d.res.Orders != 2000 || orders(store) != 2000 {
			t.Errorf("a running import: %+v, %v, %d orders stored", d.res, d.err, orders(store))
		}
	}
	if res, err := importInto(one, storeA, strings.NewReader(string(file))); err != nil || res.Orders != 2000 || orders(storeA) != 2000 {
		t.Errorf("the store's next import: %+v, %v", res, err)
	}
}

// TestAnImportOfABadFileStoresNothing: a bad row past the first batches
// still stores nothing: every row is read before any order is written.
func TestAnImportOfABadFileStoresNothing(t *testing.T) {
	t.Parallel()
	a, repo := testApp(t)
	ctx := context.Background()
	store := uuid.NewString()
	good := string(ordercsvtest.Export(5000))
	bad := good + "#x" + strings.Repeat(",", 15) + "2025-12-06 10:00:00 -0500,1,Mug,twelve\n"
	_, err := a.ImportOrders(ctx, domain.Caller{UID: "owner"}, store, export(strings.NewReader(bad)))
	var ve *domain.ValidationError
	if !errors.As(err, &ve) || !strings.Contains(ve.Message, `column "Lineitem price"`) {
		t.Fatalf("a bad last row: %v", err)
	}
	var n int
	if err := repo.Pool.QueryRow(ctx, `SELECT count(*) FROM orders WHERE category_id = $1`, store).Scan(&n); err != nil || n != 0 {
		t.Fatalf("%d orders stored from a file with an error (%v)", n, err)
	}
}

// TestTheFormatMayComeAfterTheFile: a JSON body may name the format after
// the file; a wrong one found then stores nothing.
func TestTheFormatMayComeAfterTheFile(t *testing.T) {
	t.Parallel()
	a, repo := testApp(t)
	ctx := context.Background()
	for format, want := range map[string]int{"shopify-orders-csv": 100, "excel": 0} {
		store := uuid.NewString()
		up := &lateFormat{Reader: strings.NewReader(string(ordercsvtest.Export(100))), format: format}
		res, err := a.ImportOrders(ctx, domain.Caller{UID: "owner"}, store, up)
		var n int
		_ = repo.Pool.QueryRow(ctx, `SELECT count(*) FROM orders WHERE category_id = $1`, store).Scan(&n)
		var ve *domain.ValidationError
		if n != want || (want > 0) != (err == nil && res.Orders == want) || (want == 0 && (!errors.As(err, &ve) || ve.Field != "format")) {
			t.Errorf("format %q named last: %+v, %v, %d orders stored", format, res, err, n)
		}
	}
}

// lateFormat names its format only once the file is read, as a JSON body
// with "csv" before "format" does.
type lateFormat struct {
	*strings.Reader
	format string
}

func (l *lateFormat) Format() string {
	if l.Len() > 0 {
		return ""
	}
	return l.format
}

func testApp(t *testing.T) (*app.App, postgres.Repo) {
	t.Helper()
	pool := pgtest.Pool(t, "stores")
	if err := pgplatform.Migrate(context.Background(), pool, events.Migrations(), migrations.FS); err != nil {
		t.Fatal(err)
	}
	repo := postgres.Repo{Pool: pool}
	return app.New(repo, allowAll{}, nil, nil, nil, slog.New(slog.NewTextHandler(io.Discard, nil)), app.Options{}), repo
}
