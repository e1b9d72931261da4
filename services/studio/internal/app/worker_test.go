package app_test

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/jpeg"
	"log/slog"
	"testing"
	"time"

	"github.com/google/uuid"

	"uplift.dev/platform/pgtest"
	"uplift.dev/platform/postgres"
	"uplift.dev/studio/internal/adapters/blobstore"
	pgrepo "uplift.dev/studio/internal/adapters/postgres"
	"uplift.dev/studio/internal/app"
	"uplift.dev/studio/internal/domain"
	"uplift.dev/studio/internal/testphotos"
	"uplift.dev/studio/migrations"
)

// The worker's use case on the real queue (PostgreSQL) and a bucket in a
// directory, with a stand-in model; the real one is tested in
// adapters/u2net.

type allowAll struct{}

func (allowAll) Check(context.Context, string) error { return nil }

var scene = testphotos.Scene{Shape: "mug", Backdrop: "plain"}

// exactModel returns the test photo's exact mask; fail, when set, is
// returned instead.
type exactModel struct {
	fail func(ctx context.Context) error
}

func (m exactModel) Mask(ctx context.Context, img *image.NRGBA) (*image.Gray, error) {
	if m.fail != nil {
		if err := m.fail(ctx); err != nil {
			return nil, err
		}
	}
	_, truth := testphotos.Generate(scene, img.Rect.Dx())
	return truth, nil
}

type queueHarness struct {
	t    *testing.T
	a    *app.App
	repo pgrepo.Repo
	w    *app.Worker
}

func newQueueHarness(t *testing.T) *queueHarness {
	t.Helper()
	pool := pgtest.Pool(t, "studio")
	if err := postgres.Migrate(context.Background(), pool, migrations.FS); err != nil {
		t.Fatal(err)
	}
	blobs, err := blobstore.Open(context.Background(), "file://"+t.TempDir()+"?no_tmp_dir=1")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = blobs.Close() })
	repo := pgrepo.Repo{Pool: pool}
	log := slog.New(slog.DiscardHandler)
	return &queueHarness{t: t, repo: repo, a: app.New(repo, blobs, allowAll{}, log),
		w: &app.Worker{Queue: repo, Blobs: blobs, Model: exactModel{}, Log: log, Lease: 5 * time.Second,
			Poll: 10 * time.Millisecond, NewID: uuid.NewString}}
}

// job queues a cut-out of a new photo in store.
func (h *queueHarness) job(store string) string {
	h.t.Helper()
	img, _ := testphotos.Generate(scene, 96)
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, nil); err != nil {
		h.t.Fatal(err)
	}
	up, err := h.a.UploadImage(context.Background(), store, "mug.jpg", b.Bytes())
	if err != nil {
		h.t.Fatal(err)
	}
	j, err := h.a.CreateJob(context.Background(), app.CreateJobInput{CategoryID: store, ImageID: up.ID, Kind: "cutout"})
	if err != nil {
		h.t.Fatal(err)
	}
	return j.ID
}

func (h *queueHarness) get(store, jobID string) domain.Job {
	h.t.Helper()
	j, err := h.repo.GetJob(context.Background(), store, jobID)
	if err != nil {
		h.t.Fatal(err)
	}
	return j
}

func (h *queueHarness) runOnce() {
	h.t.Helper()
	if worked, err := h.w.RunOnce(context.Background()); !worked || err != nil {
		h.t.Fatalf("RunOnce: worked %v, %v", worked, err)
	}
}

func (h *queueHarness) runsUsed(store string) int {
	h.t.Helper()
	n, err := h.repo.JobsUsed(context.Background(), store, time.Now().UTC().Format("2006-01"))
	if err != nil {
		h.t.Fatal(err)
	}
	return n
}

// expireLeases makes every lease run out now, as it does a minute after
// its worker died.
func (h *queueHarness) expireLeases() {
	h.t.Helper()
	if _, err := h.repo.Pool.Exec(context.Background(), `UPDATE jobs SET lease_until = now() - interval '1 second' WHERE status = 'working'`); err != nil {
		h.t.Fatal(err)
	}
}

// A photo that killed its worker (out of memory) used to be leased
// again when the lease ran out, three times, each killing a worker while
// every store's jobs waited. Now the job in flight when its worker died
// has had its attempt: it fails once, with a sentence for the owner, its
// tool run given back, and the other stores' jobs go on.
func TestAJobWhoseWorkerDiedFailsOnceAndOthersGoOn(t *testing.T) {
	h := newQueueHarness(t)
	a, b := uuid.NewString(), uuid.NewString()
	killer := h.job(a)
	other := h.job(b)

	// A worker leases store A's job and dies: it never renews the lease.
	if l, ok, err := h.repo.Lease(context.Background(), 5*time.Second); err != nil || !ok || l.ID != killer {
		t.Fatalf("the dying worker leased %q, %v, %v", l.ID, ok, err)
	}
	// Meanwhile the next worker runs the other store's job.
	h.runOnce()
	if j := h.get(b, other); j.Status != domain.StatusDone {
		t.Fatalf("store B's job is %s while A's is held", j.Status)
	}
	// Once the dead worker's lease runs out, the job is failed, not run.
	h.expireLeases()
	if worked, err := h.w.RunOnce(context.Background()); worked || err != nil {
		t.Fatalf("the dead worker's job ran again: worked %v, %v", worked, err)
	}
	j := h.get(a, killer)
	if j.Status != domain.StatusFailed || j.Attempts != 1 || len(j.Results) != 0 {
		t.Fatalf("the dead worker's job: %s after %d attempts, %d results", j.Status, j.Attempts, len(j.Results))
	}
	if j.Error != "This photo stopped our image tool before it finished, so it was not tried again. Try a smaller photo, or save it as an ordinary JPEG; this did not use a tool run." {
		t.Errorf("owner reads %q", j.Error)
	}
	if n := h.runsUsed(a); n != 0 {
		t.Errorf("store A has used %d tool runs on a job that failed, want 0", n)
	}
	if n := h.runsUsed(b); n != 1 {
		t.Errorf("store B has used %d tool runs, want 1", n)
	}
}

// A store with many jobs waiting takes turns with the others: a job
// queued later by another store runs before the first store's second.
func TestStoresTakeTurnsInTheQueue(t *testing.T) {
	h := newQueueHarness(t)
	a, b := uuid.NewString(), uuid.NewString()
	a1, a2, a3 := h.job(a), h.job(a), h.job(a)
	b1 := h.job(b)
	h.runOnce()
	h.runOnce()
	if j := h.get(b, b1); j.Status != domain.StatusDone {
		t.Errorf("store B's job is %s after two runs", j.Status)
	}
	if j := h.get(a, a1); j.Status != domain.StatusDone {
		t.Errorf("store A's first job is %s", j.Status)
	}
	for _, id := range []string{a2, a3} {
		if j := h.get(a, id); j.Status != domain.StatusQueued {
			t.Errorf("store A's later job is %s before store B's ran", j.Status)
		}
	}
}

// A passing fault (the model's runtime, the bucket) is retried after a
// delay, at most domain.MaxAttempts times, then failed with its tool run
// given back; a photo with nothing to cut out fails at once, also free.
func TestAFailedJobGivesItsToolRunBack(t *testing.T) {
	h := newQueueHarness(t)
	store := uuid.NewString()
	h.w.Model = exactModel{fail: func(context.Context) error { return errors.New("runtime hiccup") }}
	id := h.job(store)
	for attempt := 1; attempt <= domain.MaxAttempts; attempt++ {
		if worked, err := h.w.RunOnce(context.Background()); !worked || err == nil {
			t.Fatalf("attempt %d: worked %v, %v", attempt, worked, err)
		}
		j := h.get(store, id)
		if attempt < domain.MaxAttempts {
			if j.Status != domain.StatusQueued {
				t.Fatalf("after attempt %d the job is %s, want queued again", attempt, j.Status)
			}
			// not before the retry delay
			if worked, _ := h.w.RunOnce(context.Background()); worked {
				t.Fatalf("retried before its delay")
			}
			if _, err := h.repo.Pool.Exec(context.Background(), `UPDATE jobs SET run_after = now() WHERE id = $1`, id); err != nil {
				t.Fatal(err)
			}
		} else if j.Status != domain.StatusFailed || j.Error != domain.MsgGaveUp {
			t.Fatalf("after the last attempt: %s %q", j.Status, j.Error)
		}
	}
	if n := h.runsUsed(store); n != 0 {
		t.Errorf("%d tool runs used by a failed job", n)
	}

	h.w.Model = emptyModel{}
	id = h.job(store)
	h.runOnce()
	if j := h.get(store, id); j.Status != domain.StatusFailed || j.Error != domain.MsgNoProduct {
		t.Fatalf("nothing to cut out: %s %q", j.Status, j.Error)
	}
	if n := h.runsUsed(store); n != 0 {
		t.Errorf("%d tool runs used by a photo with no product", n)
	}
}

type emptyModel struct{}

func (emptyModel) Mask(_ context.Context, img *image.NRGBA) (*image.Gray, error) {
	return image.NewGray(img.Rect), nil
}

// A worker stopped (a deploy, SIGTERM) mid-job puts the job back as if it
// had not been tried: only a worker that dies uses up the attempt.
func TestAStoppedWorkerPutsItsJobBack(t *testing.T) {
	h := newQueueHarness(t)
	store := uuid.NewString()
	id := h.job(store)
	ctx, cancel := context.WithCancel(context.Background())
	h.w.Model = exactModel{fail: func(ctx context.Context) error { cancel(); return ctx.Err() }}
	if worked, err := h.w.RunOnce(ctx); !worked || err == nil {
		t.Fatalf("worked %v, %v", worked, err)
	}
	if j := h.get(store, id); j.Status != domain.StatusQueued || j.Attempts != 0 {
		t.Fatalf("after shutdown the job is %s with %d attempts, want queued with 0", j.Status, j.Attempts)
	}
	h.w.Model = exactModel{}
	h.runOnce()
	if j := h.get(store, id); j.Status != domain.StatusDone {
		t.Fatalf("the job put back is %s", j.Status)
	}
}
