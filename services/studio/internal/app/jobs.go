package app

import (
	"context"

	"uplift.dev/studio/internal/domain"
)

// CreateJobInput is a tool request as received.
type CreateJobInput struct {
	CategoryID, ImageID, Kind, Backdrop, Color string
	Size                                       int
}

// CreateJob queues a tool on a photo of the category.
func (a *App) CreateJob(ctx context.Context, in CreateJobInput) (domain.Job, error) {
	if err := a.check(ctx, in.CategoryID); err != nil {
		return domain.Job{}, err
	}
	if err := domain.ValidateID("imageId", in.ImageID); err != nil {
		return domain.Job{}, err
	}
	kind, err := domain.ParseKind(in.Kind)
	if err != nil {
		return domain.Job{}, err
	}
	bg, err := domain.ParseBackdrop(in.Backdrop, in.Color)
	if err != nil {
		return domain.Job{}, err
	}
	size, err := domain.ValidateStudioSize(in.Size)
	if err != nil {
		return domain.Job{}, err
	}
	img, _, err := a.repo.GetImage(ctx, in.CategoryID, in.ImageID)
	if err != nil {
		return domain.Job{}, err
	}
	return a.queue(ctx, img, kind, bg, size)
}

// queue stores a job as the plan allows: the free plan's monthly tool runs
// and every store's cap on open jobs, decided on the server from the
// billing tier at the moment of the request.
func (a *App) queue(ctx context.Context, img domain.Image, kind domain.Kind, bg domain.Backdrop, size int) (domain.Job, error) {
	e, err := a.Entitlement(ctx, img.CategoryID)
	if err != nil {
		return domain.Job{}, err
	}
	now := a.now()
	j := domain.Job{ID: a.newID(), CategoryID: img.CategoryID, ImageID: img.ID, Kind: kind, Backdrop: bg,
		Size: size, Status: domain.StatusQueued, CreatedAt: now, UpdatedAt: now}
	if err := a.repo.CreateJob(ctx, j, domain.MonthOf(now), e.CheckJob); err != nil {
		return domain.Job{}, err
	}
	j.Image = &img
	return j, nil
}

// GalleryLimit bounds the gallery's page: the newest jobs first.
const GalleryLimit = 100

// ListJobs is the category's gallery.
func (a *App) ListJobs(ctx context.Context, categoryID string) ([]domain.Job, error) {
	if err := a.check(ctx, categoryID); err != nil {
		return nil, err
	}
	return a.repo.ListJobs(ctx, categoryID, GalleryLimit)
}

// GetJob returns one job of the category.
func (a *App) GetJob(ctx context.Context, categoryID, jobID string) (domain.Job, error) {
	if err := a.check(ctx, categoryID); err != nil {
		return domain.Job{}, err
	}
	if err := domain.ValidateID("jobId", jobID); err != nil {
		return domain.Job{}, err
	}
	return a.repo.GetJob(ctx, categoryID, jobID)
}

// DeleteJob removes a job from the gallery, then its files. A file left
// behind by a failed delete is only logged: the row is gone, so nobody can
// reach it.
func (a *App) DeleteJob(ctx context.Context, categoryID, jobID string) error {
	if err := a.check(ctx, categoryID); err != nil {
		return err
	}
	if err := domain.ValidateID("jobId", jobID); err != nil {
		return err
	}
	keys, err := a.repo.DeleteJob(ctx, categoryID, jobID)
	if err != nil {
		return err
	}
	for _, k := range keys {
		if err := a.blobs.Delete(context.WithoutCancel(ctx), k); err != nil {
			a.log.WarnContext(ctx, "result file not deleted", "key", k, "err", err)
		}
	}
	return nil
}
