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

// EditMask applies the owner's keep/remove strokes to the photo's mask,
// stores the touched-up mask as the photo's mask (later studio images and
// presets use it), and queues a new background removal with it. The
// touch-up counts as a tool run.
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
	key, err := a.repo.MaskKey(ctx, categoryID, imageID)
	if err != nil {
		return domain.Job{}, err
	}
	if key == "" {
		return domain.Job{}, &domain.ValidationError{Field: "imageId",
			Message: "Remove the background of this photo first, then touch up its cut-out."}
	}
	data, err := a.blobs.Get(ctx, key)
	if err != nil {
		return domain.Job{}, err
	}
	decoded, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		return domain.Job{}, fmt.Errorf("mask %s: %w", key, err)
	}
	mask, ok := decoded.(*image.Gray)
	if !ok {
		return domain.Job{}, fmt.Errorf("mask %s is %T, not grey", key, decoded)
	}
	pipeline.ApplyStrokes(mask, strokes)
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&buf, mask); err != nil {
		return domain.Job{}, err
	}
	// A new key per touch-up: a job already reading the old mask keeps a
	// whole one. The old file stays (a few kB) so no running job loses it.
	newKey := fmt.Sprintf("%s/images/%s/mask-%s.png", categoryID, imageID, a.newID())
	if err := a.blobs.Put(ctx, newKey, buf.Bytes(), "image/png"); err != nil {
		return domain.Job{}, err
	}
	if err := a.repo.SaveMask(ctx, imageID, newKey); err != nil {
		return domain.Job{}, err
	}
	return a.queue(ctx, img, domain.KindCutout, domain.Backdrop{Kind: "white", Color: domain.White}, domain.DefaultStudioSize)
}
