package app

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"

	"uplift.dev/studio/internal/domain"
	"uplift.dev/studio/internal/pipeline"
)

// EditMask paints the owner's keep/remove strokes into the photo's
// touch-up layer (kept apart from the model's mask, so the plan's
// refinement can change under it), stores it under a new key, and queues
// a new background removal with it; later studio images and presets use
// it too. The touch-up counts as a tool run.
func (a *App) EditMask(ctx context.Context, categoryID, imageID string, strokes []domain.Stroke) (domain.Job, error) {
	if err := a.check(ctx, categoryID); err != nil {
		return domain.Job{}, err
	}
	if err := domain.ValidateID("imageId", imageID); err != nil {
		return domain.Job{}, err
	}
	img, _, err := a.repo.GetImage(ctx, categoryID, imageID)
	if err != nil {
		return domain.Job{}, err
	}
	maskKey, editsKey, err := a.repo.MaskKeys(ctx, categoryID, imageID)
	if err != nil {
		return domain.Job{}, err
	}
	if maskKey == "" {
		return domain.Job{}, &domain.ValidationError{Field: "imageId",
			Message: "Remove the background of this photo first, then touch up its cut-out."}
	}
	var edits *image.Gray
	if editsKey != "" {
		if edits, err = loadGray(ctx, a.blobs, editsKey); err != nil {
			return domain.Job{}, err
		}
	} else {
		// the first touch-up: a layer the size of the mask, untouched
		data, err := a.blobs.Get(ctx, maskKey)
		if err != nil {
			return domain.Job{}, err
		}
		cfg, err := png.DecodeConfig(bytes.NewReader(data))
		if err != nil {
			return domain.Job{}, fmt.Errorf("mask %s: %w", maskKey, err)
		}
		edits = image.NewGray(image.Rect(0, 0, cfg.Width, cfg.Height))
	}
	pipeline.PaintStrokes(edits, strokes)
	data, err := encodeGray(edits)
	if err != nil {
		return domain.Job{}, err
	}
	// A new key per touch-up: a job already reading the old layer keeps a
	// whole one. The old file stays (a few kB) so no running job loses it.
	newKey := fmt.Sprintf("%s/images/%s/edits-%s.png", categoryID, imageID, a.newID())
	if err := a.blobs.Put(ctx, newKey, data, "image/png"); err != nil {
		return domain.Job{}, err
	}
	if err := a.repo.SaveEdits(ctx, imageID, newKey); err != nil {
		return domain.Job{}, err
	}
	return a.queue(ctx, img, domain.KindCutout, domain.Backdrop{Kind: "white", Color: domain.White}, domain.DefaultStudioSize)
}
