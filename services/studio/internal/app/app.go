// Package app holds the studio's use cases: the API's (upload, queue, the
// gallery, previews and downloads as the plan allows) and the worker's
// (lease a job, make its results). Storage, blobs, the model and the
// categories service are reached through the narrow interfaces declared
// here.
package app

import (
	"context"
	"errors"
	"log/slog"

	"github.com/google/uuid"
	"golang.org/x/sync/semaphore"

	"uplift.dev/platform/clock"
	"uplift.dev/studio/internal/domain"
	"uplift.dev/studio/internal/pipeline"
)

// Access asks whether the caller may act on a category (the owner, or an
// uplifter on their behalf): the categories service owns that rule.
type Access interface {
	// Check returns nil, domain.ErrNotFound or domain.ErrPermissionDenied.
	Check(ctx context.Context, categoryID string) error
}

// Blobs stores images by key (a local directory, S3 or GCS).
type Blobs interface {
	Put(ctx context.Context, key string, data []byte, contentType string) error
	// Get returns domain.ErrNotFound for a missing key.
	Get(ctx context.Context, key string) ([]byte, error)
	Delete(ctx context.Context, key string) error
}

// StoredResult is a result with where its files are.
type StoredResult struct {
	domain.Result
	Key, PreviewKey string
}

// Repository stores the studio's rows.
type Repository interface {
	CreateImage(ctx context.Context, img domain.Image, format, sourceKey string) error
	// GetImage returns domain.ErrNotFound unless the image is in category.
	GetImage(ctx context.Context, categoryID, imageID string) (domain.Image, string, error)
	// MaskKeys are the blob keys of the photo's model mask and of its
	// touch-up layer, each "" while it has none.
	MaskKeys(ctx context.Context, categoryID, imageID string) (mask, edits string, err error)
	// SaveEdits records the photo's touch-up layer (a newer one replaces it).
	SaveEdits(ctx context.Context, imageID, key string) error
	// CreateJob stores j unless check refuses it given the month's tool
	// runs and the store's open jobs, in one transaction serialised per
	// category, and counts it in month.
	CreateJob(ctx context.Context, j domain.Job, month string, check func(used, open int) error) error
	JobsUsed(ctx context.Context, categoryID, month string) (int, error)
	// GetJob returns the job with its results and image, or domain.ErrNotFound.
	GetJob(ctx context.Context, categoryID, jobID string) (domain.Job, error)
	ListJobs(ctx context.Context, categoryID string, limit int) ([]domain.Job, error)
	// DeleteJob removes the job and returns its results' blob keys.
	DeleteJob(ctx context.Context, categoryID, jobID string) ([]string, error)
	GetResult(ctx context.Context, categoryID, resultID string) (StoredResult, error)
	// Plan is the category owner's plan (free when billing has said nothing).
	Plan(ctx context.Context, categoryID string) (domain.Plan, error)
	DownloadsUsed(ctx context.Context, categoryID, month string) (int, error)
	// RecordDownload counts the download unless check refuses it, in one
	// transaction serialised per category (two tabs cannot both take the
	// last free download). It returns the month's count after it.
	RecordDownload(ctx context.Context, categoryID, resultID, month string, check func(used int, repeat bool) error) (int, error)
}

// App is the API's use cases.
type App struct {
	repo   Repository
	blobs  Blobs
	access Access
	// catalogue reads photos from the store's catalogue (nil: not wired).
	catalogue Catalogue
	log       *slog.Logger
	now       clock.Clock
	newID     func() string
	// decodes is the memory the API's decodes (uploads verified, previews
	// made) may hold at once: each takes its photo's decoding bytes, so the
	// largest photo the limits allow decodes alone.
	decodes *semaphore.Weighted
}

// New returns the API's use cases.
func New(repo Repository, blobs Blobs, access Access, log *slog.Logger) *App {
	return &App{repo: repo, blobs: blobs, access: access, log: log, now: clock.Real, newID: uuid.NewString,
		decodes: semaphore.NewWeighted(pipeline.MaxDecodeBytes)}
}

// WithClock returns the use cases reading time from now (the service's clock).
func (a *App) WithClock(now clock.Clock) *App {
	c := *a
	c.now = now
	return &c
}

// decoding runs fn, which decodes data, once the decode budget has room for
// it; data's header is checked first, so a refused photo waits for nothing.
func (a *App) decoding(ctx context.Context, data []byte, fn func() error) error {
	info, err := pipeline.Inspect(data)
	if err != nil {
		return err
	}
	if err := a.decodes.Acquire(ctx, info.DecodeBytes); err != nil {
		return err
	}
	defer a.decodes.Release(info.DecodeBytes)
	return fn()
}

func (a *App) check(ctx context.Context, categoryID string) error {
	if err := domain.ValidateID("categoryId", categoryID); err != nil {
		return err
	}
	return a.access.Check(ctx, categoryID)
}

// IsClientError reports whether err is the caller's mistake rather than ours.
func IsClientError(err error) bool {
	var ve *domain.ValidationError
	var le *domain.LimitError
	return errors.As(err, &ve) || errors.As(err, &le) || errors.Is(err, domain.ErrNotFound) ||
		errors.Is(err, domain.ErrPermissionDenied) || pipeline.IsClientError(err)
}
