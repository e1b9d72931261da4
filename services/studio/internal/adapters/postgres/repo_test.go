package postgres_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"uplift.dev/platform/pgtest"
	platformpg "uplift.dev/platform/postgres"
	"uplift.dev/studio/internal/adapters/postgres"
	"uplift.dev/studio/internal/app"
	"uplift.dev/studio/internal/domain"
	"uplift.dev/studio/migrations"
)

const month = "2026-03"

var t0 = time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)

func newRepo(t *testing.T) postgres.Repo {
	t.Helper()
	pool := pgtest.Pool(t, "studio")
	if err := platformpg.Migrate(context.Background(), pool, migrations.FS); err != nil {
		t.Fatal(err)
	}
	return postgres.Repo{Pool: pool}
}

var errLimit = errors.New("limit reached")

// queue stores a photo of store and a cut-out job of it, created at, and
// returns the job's id.
func queue(t *testing.T, r postgres.Repo, store string, at time.Time) string {
	t.Helper()
	ctx := context.Background()
	img := domain.Image{ID: uuid.NewString(), CategoryID: store, Filename: "mug.jpg", Width: 64, Height: 48, CreatedAt: at}
	if err := r.CreateImage(ctx, img, "jpeg", "src/"+img.ID); err != nil {
		t.Fatal(err)
	}
	j := newJob(store, img.ID, at)
	if err := r.CreateJob(ctx, j, month, func(int, int) error { return nil }); err != nil {
		t.Fatal(err)
	}
	return j.ID
}

func newJob(store, imageID string, at time.Time) domain.Job {
	bd, _ := domain.ParseBackdrop("white", "")
	return domain.Job{ID: uuid.NewString(), CategoryID: store, ImageID: imageID, Kind: domain.KindCutout,
		Backdrop: bd, Size: 2048, Status: domain.StatusQueued, CreatedAt: at, UpdatedAt: at}
}

func lease(t *testing.T, r postgres.Repo) (app.Leased, bool) {
	t.Helper()
	l, ok, err := r.Lease(context.Background(), time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	return l, ok
}

func job(t *testing.T, r postgres.Repo, store, id string) domain.Job {
	t.Helper()
	j, err := r.GetJob(context.Background(), store, id)
	if err != nil {
		t.Fatal(err)
	}
	return j
}

func runsUsed(t *testing.T, r postgres.Repo, store string) int {
	t.Helper()
	n, err := r.JobsUsed(context.Background(), store, month)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestWorkersRacingForTheQueueNeverShareAJob(t *testing.T) {
	t.Parallel()
	r := newRepo(t)
	want := map[string]bool{}
	for i := range 12 {
		want[queue(t, r, uuid.NewString(), t0.Add(time.Duration(i)*time.Second))] = true
	}
	var mu sync.Mutex
	got := map[string]int{}
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				l, ok, err := r.Lease(context.Background(), time.Minute)
				if err != nil {
					t.Error(err)
					return
				}
				if !ok {
					return
				}
				mu.Lock()
				got[l.ID]++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(got) != len(want) {
		t.Fatalf("leased %d jobs, want %d", len(got), len(want))
	}
	for id, n := range got {
		if n != 1 || !want[id] {
			t.Fatalf("job %s leased %d times", id, n)
		}
	}
}

func TestLeaseCountsTheAttemptAndHandsOverThePhotosKeys(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := newRepo(t)
	store := uuid.NewString()
	id := queue(t, r, store, t0)
	img := job(t, r, store, id).ImageID
	if err := r.SaveMask(ctx, img, "mask/1"); err != nil {
		t.Fatal(err)
	}
	if err := r.SaveEdits(ctx, img, "edits/1"); err != nil {
		t.Fatal(err)
	}
	l, ok := lease(t, r)
	if !ok || l.ID != id || l.Status != domain.StatusWorking || l.Attempts != 1 ||
		l.SourceKey != "src/"+img || l.MaskKey != "mask/1" || l.EditsKey != "edits/1" {
		t.Fatalf("leased %+v %v", l, ok)
	}
	if _, ok := lease(t, r); ok {
		t.Fatal("a working job was leased again")
	}

	// A passing fault: queued again, not before the delay, and the next
	// lease is the second attempt.
	if err := r.Retry(ctx, id, time.Hour); err != nil {
		t.Fatal(err)
	}
	if j := job(t, r, store, id); j.Status != domain.StatusQueued || j.Progress != 0 {
		t.Fatalf("after retry: %+v", j)
	}
	if _, ok := lease(t, r); ok {
		t.Fatal("a retried job was leased before its delay")
	}
	if _, err := r.Pool.Exec(ctx, `UPDATE jobs SET run_after = now() - interval '1 second' WHERE id = $1`, id); err != nil {
		t.Fatal(err)
	}
	if l, ok := lease(t, r); !ok || l.ID != id || l.Attempts != 2 {
		t.Fatalf("after the delay: %+v %v", l.Job, ok)
	}

	// A worker shutting down gives the attempt back.
	if err := r.Release(ctx, id); err != nil {
		t.Fatal(err)
	}
	if l, ok := lease(t, r); !ok || l.Attempts != 2 {
		t.Fatalf("after a release: %+v %v, want attempt 2 again", l.Job, ok)
	}
}

// The lease of a worker that died runs out and the job fails once, giving
// its tool run back; a job whose worker is alive is left alone.
func TestAnExpiredLeaseFailsOnlyItsOwnJob(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := newRepo(t)
	store := uuid.NewString()
	dead := queue(t, r, store, t0)
	alive := queue(t, r, store, t0.Add(time.Second))
	for range 2 {
		lease(t, r)
	}
	if _, err := r.Pool.Exec(ctx, `UPDATE jobs SET lease_until = now() - interval '1 second' WHERE id = $1`, dead); err != nil {
		t.Fatal(err)
	}
	if n, err := r.FailAbandoned(ctx, domain.MsgAbandoned); err != nil || n != 1 {
		t.Fatalf("failed %d %v, want 1", n, err)
	}
	if j := job(t, r, store, dead); j.Status != domain.StatusFailed || j.Error != domain.MsgAbandoned {
		t.Fatalf("dead worker's job: %+v", j)
	}
	if j := job(t, r, store, alive); j.Status != domain.StatusWorking {
		t.Fatalf("live worker's job: %+v", j)
	}
	if n := runsUsed(t, r, store); n != 1 {
		t.Fatalf("%d runs used, want the failed one given back", n)
	}
	if n, err := r.FailAbandoned(ctx, domain.MsgAbandoned); err != nil || n != 0 {
		t.Fatalf("second sweep failed %d %v", n, err)
	}
	// The dead worker's late results do not revive the job, nor does it
	// renew a lease it lost.
	if err := r.Renew(ctx, dead, time.Minute); err != nil {
		t.Fatal(err)
	}
	if err := r.Complete(ctx, dead, []app.StoredResult{result(dead, "cutout")}); err != nil {
		t.Fatal(err)
	}
	if j := job(t, r, store, dead); j.Status != domain.StatusFailed || len(j.Results) != 0 {
		t.Fatalf("a failed job completed: %+v", j)
	}
	// A renewed lease is not taken for a dead one.
	if err := r.Renew(ctx, alive, time.Minute); err != nil {
		t.Fatal(err)
	}
	if n, _ := r.FailAbandoned(ctx, domain.MsgAbandoned); n != 0 {
		t.Fatalf("a renewed job failed")
	}
}

func result(jobID, name string) app.StoredResult {
	id := uuid.NewString()
	return app.StoredResult{Result: domain.Result{ID: id, JobID: jobID, Name: name, Format: "png", Width: 64, Height: 48, Bytes: 100},
		Key: "res/" + id, PreviewKey: "prev/" + id}
}

func TestCompleteStoresEveryResultOrNone(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := newRepo(t)
	store := uuid.NewString()
	id := queue(t, r, store, t0)
	lease(t, r)
	a, b := result(id, "shopify"), result(id, "instagram")
	// The second result's id clashes with the first: the whole completion fails.
	clash := b
	clash.ID = a.ID
	if err := r.Complete(ctx, id, []app.StoredResult{a, clash}); err == nil {
		t.Fatal("a clashing result was stored")
	}
	if j := job(t, r, store, id); j.Status != domain.StatusWorking || len(j.Results) != 0 {
		t.Fatalf("after a failed completion: %+v", j)
	}
	if err := r.Complete(ctx, id, []app.StoredResult{a, b}); err != nil {
		t.Fatal(err)
	}
	j := job(t, r, store, id)
	if j.Status != domain.StatusDone || j.Progress != 100 || len(j.Results) != 2 ||
		j.Results[0].Name != "shopify" || j.Results[1].Name != "instagram" {
		t.Fatalf("completed: %+v", j)
	}
	if n := runsUsed(t, r, store); n != 1 {
		t.Fatalf("%d runs, want the done job's run kept", n)
	}
	// Fail after done changes nothing.
	if err := r.Fail(ctx, id, domain.MsgGaveUp); err != nil {
		t.Fatal(err)
	}
	if j := job(t, r, store, id); j.Status != domain.StatusDone || runsUsed(t, r, store) != 1 {
		t.Fatalf("a done job failed: %+v", j)
	}
}

func TestDeletingAJobRemovesOnlyThatJob(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := newRepo(t)
	store, other := uuid.NewString(), uuid.NewString()
	done := queue(t, r, store, t0)
	kept := queue(t, r, store, t0.Add(time.Second))
	lease(t, r)
	res := result(done, "cutout")
	if err := r.Complete(ctx, done, []app.StoredResult{res}); err != nil {
		t.Fatal(err)
	}
	// Another store cannot delete it.
	if _, err := r.DeleteJob(ctx, other, done); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("another store's delete: %v", err)
	}
	keys, err := r.DeleteJob(ctx, store, done)
	if err != nil || len(keys) != 2 || keys[0] != res.Key || keys[1] != res.PreviewKey {
		t.Fatalf("deleted: %v %v", keys, err)
	}
	if _, err := r.GetJob(ctx, store, done); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("deleted job: %v", err)
	}
	if _, err := r.GetResult(ctx, store, res.ID); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("deleted job's result: %v", err)
	}
	job(t, r, store, kept)
	// A deleted job does not give its run back.
	if n := runsUsed(t, r, store); n != 2 {
		t.Fatalf("%d runs, want 2", n)
	}

	// Deleted while it ran: the worker's results are dropped.
	running, _ := lease(t, r)
	if _, err := r.DeleteJob(ctx, store, running.ID); err != nil {
		t.Fatal(err)
	}
	if err := r.Complete(ctx, running.ID, []app.StoredResult{result(running.ID, "cutout")}); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := r.Pool.QueryRow(ctx, `SELECT count(*) FROM results`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("%d results left %v", n, err)
	}
}

func TestStoresTakeTurnsInTheQueue(t *testing.T) {
	t.Parallel()
	r := newRepo(t)
	busy, late := uuid.NewString(), uuid.NewString()
	b1 := queue(t, r, busy, t0)
	b2 := queue(t, r, busy, t0.Add(time.Second))
	l1 := queue(t, r, late, t0.Add(time.Minute))
	for _, want := range []string{b1, l1, b2} {
		if l, ok := lease(t, r); !ok || l.ID != want {
			t.Fatalf("leased %s, want %s", l.ID, want)
		}
	}
}

func TestListJobsIsTheStoresNewestFirst(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := newRepo(t)
	store := uuid.NewString()
	var ids []string
	for i := range 4 {
		ids = append(ids, queue(t, r, store, t0.Add(time.Duration(i)*time.Hour)))
	}
	queue(t, r, uuid.NewString(), t0.Add(time.Minute))
	jobs, err := r.ListJobs(ctx, store, 3)
	if err != nil || len(jobs) != 3 {
		t.Fatalf("listed %d %v", len(jobs), err)
	}
	for i, j := range jobs {
		if j.ID != ids[3-i] || j.Image == nil || j.Image.ID != j.ImageID {
			t.Fatalf("job %d: %+v, want %s", i, j, ids[3-i])
		}
	}
}

// Two tabs racing for the month's last tool runs: the per-store lock makes
// check see every run counted before it.
func TestCreateJobSerialisesAStoresToolRuns(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := newRepo(t)
	store, other := uuid.NewString(), uuid.NewString()
	queue(t, r, other, t0)
	img := domain.Image{ID: uuid.NewString(), CategoryID: store, Filename: "mug.jpg", Width: 64, Height: 48, CreatedAt: t0}
	if err := r.CreateImage(ctx, img, "jpeg", "src"); err != nil {
		t.Fatal(err)
	}
	const limit = 3
	var wg sync.WaitGroup
	var mu sync.Mutex
	created, refused := 0, 0
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := r.CreateJob(ctx, newJob(store, img.ID, t0), month, func(used, open int) error {
				time.Sleep(20 * time.Millisecond) // widen the window a missing lock would leave
				if used >= limit || open >= limit {
					return errLimit
				}
				return nil
			})
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				created++
			case errors.Is(err, errLimit):
				refused++
			default:
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if created != limit || refused != 8-limit || runsUsed(t, r, store) != limit {
		t.Fatalf("created %d, refused %d, %d runs; want %d created", created, refused, runsUsed(t, r, store), limit)
	}
	if n := runsUsed(t, r, other); n != 1 {
		t.Fatalf("the other store has %d runs", n)
	}
	// A failed job gives its run back.
	if _, err := r.Pool.Exec(ctx, `UPDATE jobs SET created_at = created_at - interval '1 day' WHERE category_id = $1`, store); err != nil {
		t.Fatal(err)
	}
	l, _ := lease(t, r)
	if err := r.Fail(ctx, l.ID, domain.MsgNoProduct); err != nil {
		t.Fatal(err)
	}
	if j := job(t, r, store, l.ID); j.Status != domain.StatusFailed || j.Error != domain.MsgNoProduct {
		t.Fatalf("failed: %+v", j)
	}
	if n := runsUsed(t, r, store); n != limit-1 {
		t.Fatalf("%d runs after a failure, want %d", n, limit-1)
	}
}

func TestADownloadCountsOncePerResultAndMonth(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := newRepo(t)
	store := uuid.NewString()
	const limit = 3
	check := func(used int, repeat bool) error {
		time.Sleep(10 * time.Millisecond)
		if !repeat && used >= limit {
			return errLimit
		}
		return nil
	}
	first := uuid.NewString()
	if n, err := r.RecordDownload(ctx, store, first, month, check); err != nil || n != 1 {
		t.Fatalf("first: %d %v", n, err)
	}
	if n, err := r.RecordDownload(ctx, store, first, month, check); err != nil || n != 1 {
		t.Fatalf("the same result again: %d %v, want still 1", n, err)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	ok := 0
	for range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := r.RecordDownload(ctx, store, uuid.NewString(), month, check)
			if err != nil && !errors.Is(err, errLimit) {
				t.Error(err)
			}
			mu.Lock()
			ok += map[bool]int{true: 1}[err == nil]
			mu.Unlock()
		}()
	}
	wg.Wait()
	if n, _ := r.DownloadsUsed(ctx, store, month); n != limit || ok != limit-1 {
		t.Fatalf("%d downloads, %d racing ones allowed; want %d in all", n, ok, limit)
	}
	// A repeat of a counted result is still allowed at the limit; next month starts again.
	if n, err := r.RecordDownload(ctx, store, first, month, check); err != nil || n != limit {
		t.Fatalf("repeat at the limit: %d %v", n, err)
	}
	if n, err := r.RecordDownload(ctx, store, first, "2026-04", check); err != nil || n != 1 {
		t.Fatalf("next month: %d %v", n, err)
	}
}

func inTx(t *testing.T, r postgres.Repo, fn func(postgres.TxRepo) error) {
	t.Helper()
	if err := pgx.BeginFunc(context.Background(), r.Pool, func(tx pgx.Tx) error { return fn(postgres.TxRepo{Tx: tx}) }); err != nil {
		t.Fatal(err)
	}
}

func TestTheNewestPlanWinsAndAForgottenUserIsFree(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := newRepo(t)
	store, other := uuid.NewString(), uuid.NewString()
	plan := func(cat string) domain.Plan {
		t.Helper()
		p, err := r.Plan(ctx, cat)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	if p := plan(store); p.Tier != domain.FreeTier {
		t.Fatalf("no owner yet: %+v", p)
	}
	inTx(t, r, func(tx postgres.TxRepo) error {
		if err := tx.SetOwner(ctx, store, "u1"); err != nil {
			return err
		}
		if err := tx.SetOwner(ctx, other, "u2"); err != nil {
			return err
		}
		if err := tx.ApplyBilling(ctx, "u2", domain.Plan{Tier: "pro"}, t0); err != nil {
			return err
		}
		return tx.ApplyBilling(ctx, "u1", domain.Plan{Tier: "pro"}, t0.Add(time.Hour))
	})
	// An older change delivered late is ignored; a newer one applies.
	inTx(t, r, func(tx postgres.TxRepo) error {
		return tx.ApplyBilling(ctx, "u1", domain.Plan{Tier: "free"}, t0)
	})
	if p := plan(store); p.Tier != "pro" {
		t.Fatalf("a late older event applied: %+v", p)
	}
	inTx(t, r, func(tx postgres.TxRepo) error {
		return tx.ApplyBilling(ctx, "u1", domain.Plan{Tier: "growth", IsManuallySet: true}, t0.Add(2*time.Hour))
	})
	if p := plan(store); p.Tier != "growth" || !p.IsManuallySet {
		t.Fatalf("newer: %+v", p)
	}
	inTx(t, r, func(tx postgres.TxRepo) error { return tx.ForgetUser(ctx, "u1") })
	if p := plan(store); p.Tier != domain.FreeTier {
		t.Fatalf("a deleted user's store: %+v", p)
	}
	if p := plan(other); p.Tier != "pro" {
		t.Fatalf("another user's plan went with it: %+v", p)
	}
}
