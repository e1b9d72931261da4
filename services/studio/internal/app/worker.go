package app

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/png"
	"log/slog"
	"time"

	xdraw "golang.org/x/image/draw"

	"uplift.dev/studio/internal/domain"
	"uplift.dev/studio/internal/pipeline"
)

// Segmenter is the background-removal model: a raw mask at the photo's size.
type Segmenter interface {
	Mask(ctx context.Context, img *image.NRGBA) (*image.Gray, error)
}

// Leased is a job a worker holds, with its photo's blob keys: the source,
// the kept model mask and the owner's touch-ups ("" while there is none).
type Leased struct {
	domain.Job
	SourceKey, MaskKey, EditsKey string
}

// Queue is the durable job queue (PostgreSQL). A leased job is "working"
// until its worker completes, fails, retries or releases it; one whose
// lease runs out had its worker die under it.
type Queue interface {
	// FailAbandoned fails every working job whose lease ran out, with
	// message, gives back their tool runs, and says how many there were.
	FailAbandoned(ctx context.Context, message string) (int, error)
	// Lease takes the next queued job for lease, counting the attempt (a
	// job in flight when its worker dies has used it); ok is false when
	// there is none. The store served least recently goes first, so no
	// store's jobs wait behind another's.
	Lease(ctx context.Context, lease time.Duration) (job Leased, ok bool, err error)
	// Renew extends a held lease.
	Renew(ctx context.Context, jobID string, lease time.Duration) error
	// Retry queues a working job again, to be leased after the delay.
	Retry(ctx context.Context, jobID string, after time.Duration) error
	// Release queues a working job again as if it had not been leased (its
	// worker is shutting down, not dying).
	Release(ctx context.Context, jobID string) error
	SetProgress(ctx context.Context, jobID string, percent int) error
	// SaveMask records the photo's model mask.
	SaveMask(ctx context.Context, imageID, key string) error
	// Complete stores the results and marks the job done, atomically.
	Complete(ctx context.Context, jobID string, results []StoredResult) error
	// Fail marks a working job failed with a message for the owner and
	// gives back its tool run: a run is charged only for results.
	Fail(ctx context.Context, jobID, message string) error
	// Plan is the category owner's plan now (its beta features shape the
	// mask of each job).
	Plan(ctx context.Context, categoryID string) (domain.Plan, error)
}

// Worker runs jobs one at a time: the model session is not safe for
// concurrent runs, and one job already uses every core. Scale with more
// worker processes.
type Worker struct {
	Queue  Queue
	Blobs  Blobs
	Model  Segmenter
	Log    *slog.Logger
	Lease  time.Duration
	Poll   time.Duration
	NewID  func() string
	OnDone func(kind domain.Kind, d time.Duration, err error)
}

// Run works through the queue until ctx ends.
func (w *Worker) Run(ctx context.Context) error {
	for {
		worked, err := w.RunOnce(ctx)
		if err != nil && ctx.Err() == nil {
			w.Log.ErrorContext(ctx, "job not finished", "err", err)
		}
		if worked && err == nil {
			continue
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(w.Poll):
		}
	}
}

// finishTimeout bounds the queue writes that end a job, made even when
// ctx ended meanwhile (a job done at shutdown must not look abandoned).
const finishTimeout = 10 * time.Second

// RunOnce fails the jobs whose worker died, then leases and runs one job;
// worked is false when the queue was empty.
func (w *Worker) RunOnce(ctx context.Context) (worked bool, err error) {
	n, err := w.Queue.FailAbandoned(ctx, domain.MsgAbandoned)
	if err != nil {
		return false, err
	}
	if n > 0 {
		w.Log.WarnContext(ctx, "jobs failed: their worker died while running them", "jobs", n)
	}
	job, ok, err := w.Queue.Lease(ctx, w.Lease)
	if err != nil || !ok {
		return false, err
	}
	start := time.Now()
	// Keep the lease while working; if this process dies, it runs out and
	// the next worker to look fails the job.
	hctx, stop := context.WithCancel(ctx)
	defer stop()
	go func() {
		t := time.NewTicker(w.Lease / 3)
		defer t.Stop()
		for {
			select {
			case <-hctx.Done():
				return
			case <-t.C:
				if err := w.Queue.Renew(hctx, job.ID, w.Lease); err != nil && hctx.Err() == nil {
					w.Log.WarnContext(hctx, "lease not renewed", "job", job.ID, "err", err)
				}
			}
		}
	}()
	results, err := w.process(ctx, job)
	if w.OnDone != nil {
		w.OnDone(job.Kind, time.Since(start), err)
	}
	fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), finishTimeout)
	defer cancel()
	if err == nil {
		w.Log.InfoContext(ctx, "job done", "job", job.ID, "kind", job.Kind, "results", len(results), "took", time.Since(start).Round(time.Millisecond))
		return true, w.Queue.Complete(fctx, job.ID, results)
	}
	return true, w.settle(ctx, fctx, job, err)
}

// settle records a job that ended in err: failed with the reason when it
// is the photo's, queued again for a passing fault while it has attempts
// left, put back untried when the worker is stopping.
func (w *Worker) settle(ctx, fctx context.Context, job Leased, err error) error {
	var ve *domain.ValidationError
	switch {
	case errors.As(err, &ve):
		return w.Queue.Fail(fctx, job.ID, ve.Message)
	case errors.Is(err, pipeline.ErrNoProduct):
		return w.Queue.Fail(fctx, job.ID, domain.MsgNoProduct)
	case ctx.Err() != nil:
		return errors.Join(fmt.Errorf("job %s stopped by shutdown: %w", job.ID, err), w.Queue.Release(fctx, job.ID))
	case job.Attempts >= domain.MaxAttempts:
		return errors.Join(fmt.Errorf("job %s failed after %d attempts: %w", job.ID, job.Attempts, err),
			w.Queue.Fail(fctx, job.ID, domain.MsgGaveUp))
	}
	return errors.Join(fmt.Errorf("job %s, attempt %d, will be retried: %w", job.ID, job.Attempts, err),
		w.Queue.Retry(fctx, job.ID, domain.RetryDelay))
}

func (w *Worker) progress(ctx context.Context, job Leased, p int) {
	if err := w.Queue.SetProgress(ctx, job.ID, p); err != nil {
		w.Log.WarnContext(ctx, "progress not saved", "job", job.ID, "err", err)
	}
}

func (w *Worker) process(ctx context.Context, job Leased) ([]StoredResult, error) {
	w.progress(ctx, job, 5)
	data, err := w.Blobs.Get(ctx, job.SourceKey)
	if err != nil {
		return nil, err
	}
	// The photo is scaled to the widest result any tool makes as it is
	// decoded, so no step holds more than a result needs.
	img, _, err := pipeline.Decode(data, domain.MaxCutoutSide, pipeline.Filter)
	if err != nil {
		return nil, err
	}
	mask, err := w.mask(ctx, job, img)
	if err != nil {
		return nil, err
	}
	w.progress(ctx, job, 40)
	var outs []pipeline.Output
	switch job.Kind {
	case domain.KindCutout:
		outs, err = pipeline.RenderCutout(img, mask)
	case domain.KindStudio:
		outs, err = pipeline.RenderStudio(img, mask, job.Size, job.Backdrop)
	case domain.KindPresets:
		outs, err = pipeline.RenderPresets(img, mask, job.Backdrop, func(done, total int) {
			w.progress(ctx, job, 40+50*done/total)
		})
	default:
		err = fmt.Errorf("unknown kind %q", job.Kind)
	}
	if err != nil {
		return nil, err
	}
	w.progress(ctx, job, 92)
	return w.store(ctx, job, outs)
}

// mask returns the photo's mask for this job: the model's mask after
// shadow suppression, made once per photo and kept (so a studio image and
// its presets cut the product out identically), finished under the
// owner's plan at this moment (hole recovery is a beta feature: a plan
// change applies from the next job on), with the owner's touch-ups laid
// over it.
func (w *Worker) mask(ctx context.Context, job Leased, img *image.NRGBA) (*image.Gray, error) {
	mask, err := w.modelMask(ctx, job, img)
	if err != nil {
		return nil, err
	}
	plan, err := w.Queue.Plan(ctx, job.CategoryID)
	if err != nil {
		return nil, err
	}
	pipeline.Finish(img, mask, domain.EntitlementFor(plan.Tier).HasBeta(domain.BetaHoleRecovery))
	if job.EditsKey == "" {
		return mask, nil
	}
	edits, err := loadGray(ctx, w.Blobs, job.EditsKey)
	if err != nil {
		return nil, err
	}
	if edits.Rect != mask.Rect {
		// painted at the photo's full size, before photos over
		// domain.MaxCutoutSide were scaled as they are decoded
		scaled := image.NewGray(mask.Rect)
		xdraw.NearestNeighbor.Scale(scaled, scaled.Rect, edits, edits.Rect, xdraw.Src, nil)
		edits = scaled
	}
	return mask, pipeline.ApplyEdits(mask, edits)
}

// modelMask is the photo's kept mask, or a new one from the model (after
// shadow suppression, which does not depend on the plan), then kept.
func (w *Worker) modelMask(ctx context.Context, job Leased, img *image.NRGBA) (*image.Gray, error) {
	if job.MaskKey != "" {
		m, err := loadGray(ctx, w.Blobs, job.MaskKey)
		if err == nil && m.Rect == img.Rect {
			return m, nil
		}
		if errors.Is(err, errBlob) {
			return nil, err
		}
	}
	mask, err := w.Model.Mask(ctx, img)
	if err != nil {
		return nil, err
	}
	pipeline.SuppressShadow(img, mask)
	data, err := encodeGray(mask)
	if err != nil {
		return nil, err
	}
	key := fmt.Sprintf("%s/images/%s/mask.png", job.CategoryID, job.ImageID)
	if err := w.Blobs.Put(ctx, key, data, "image/png"); err != nil {
		return nil, err
	}
	return mask, w.Queue.SaveMask(ctx, job.ImageID, key)
}

// errBlob marks a failure to read a blob at all (the store is down), as
// opposed to a missing or unreadable file, which a new mask replaces.
var errBlob = errors.New("blob store")

// loadGray reads a grey PNG (a mask or an edits layer) from the blobs.
func loadGray(ctx context.Context, blobs Blobs, key string) (*image.Gray, error) {
	data, err := blobs.Get(ctx, key)
	if err != nil {
		if errors.Is(err, domain.ErrNotFound) {
			return nil, err
		}
		return nil, fmt.Errorf("%w: %s: %w", errBlob, key, err)
	}
	m, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", key, err)
	}
	g, ok := m.(*image.Gray)
	if !ok {
		return nil, fmt.Errorf("%s is %T, not grey", key, m)
	}
	return g, nil
}

// encodeGray is a mask's or an edits layer's PNG: fast over small, since
// it is written once per photo or touch-up and read by every job.
func encodeGray(g *image.Gray) ([]byte, error) {
	var buf bytes.Buffer
	err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&buf, g)
	return buf.Bytes(), err
}

func (w *Worker) store(ctx context.Context, job Leased, outs []pipeline.Output) ([]StoredResult, error) {
	results := make([]StoredResult, 0, len(outs))
	for _, o := range outs {
		r := domain.Result{ID: w.NewID(), JobID: job.ID, Name: o.Name, Format: o.Format,
			Width: o.Width, Height: o.Height, Bytes: int64(len(o.Data))}
		prefix := fmt.Sprintf("%s/jobs/%s/%s-%s", job.CategoryID, job.ID, o.Name, o.Format)
		sr := StoredResult{Result: r, Key: prefix + "." + r.Ext()}
		previewFormat, previewExt := "jpeg", "jpg"
		if o.Format == "png" {
			previewFormat, previewExt = "png", "png"
		}
		sr.PreviewKey = prefix + "-preview." + previewExt
		preview, err := pipeline.Encode(o.Preview, previewFormat)
		if err != nil {
			return nil, err
		}
		if err := w.Blobs.Put(ctx, sr.Key, o.Data, r.ContentType()); err != nil {
			return nil, err
		}
		if err := w.Blobs.Put(ctx, sr.PreviewKey, preview, "image/"+previewFormat); err != nil {
			return nil, err
		}
		results = append(results, sr)
	}
	return results, nil
}
