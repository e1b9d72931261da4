package app

import (
	"context"
	"fmt"
	"image"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/disintegration/imaging"

	"uplift.dev/studio/internal/domain"
	"uplift.dev/studio/internal/pipeline"
)

// UploadImage checks a photo (type by magic bytes, size, megapixels and
// the memory its decoding takes, from its header; then a whole decode, so
// a truncated or damaged file is refused here rather than failing a job)
// and stores it.
func (a *App) UploadImage(ctx context.Context, categoryID, filename string, content []byte) (domain.Image, error) {
	if err := a.check(ctx, categoryID); err != nil {
		return domain.Image{}, err
	}
	return a.storeImage(ctx, categoryID, filename, "", content)
}

// storeImage checks a photo (uploaded or read from the catalogue) and
// stores it.
func (a *App) storeImage(ctx context.Context, categoryID, filename, productID string, content []byte) (domain.Image, error) {
	var info pipeline.Info
	err := a.decoding(ctx, content, func() (err error) {
		info, err = pipeline.Verify(content)
		return err
	})
	if err != nil {
		return domain.Image{}, err
	}
	img := domain.Image{ID: a.newID(), CategoryID: categoryID, Filename: cleanName(filename),
		Width: info.Width, Height: info.Height, CreatedAt: a.now(), ProductID: productID}
	key := fmt.Sprintf("%s/images/%s/source.%s", categoryID, img.ID, info.Format)
	if err := a.blobs.Put(ctx, key, content, "image/"+info.Format); err != nil {
		return domain.Image{}, err
	}
	if err := a.repo.CreateImage(ctx, img, info.Format, key); err != nil {
		_ = a.blobs.Delete(context.WithoutCancel(ctx), key)
		return domain.Image{}, err
	}
	return img, nil
}

// cleanName keeps a short, printable base name for downloads ("photo" when
// nothing usable is left).
func cleanName(name string) string {
	name = path.Base(strings.ReplaceAll(name, "\\", "/"))
	if i := strings.LastIndexByte(name, '.'); i > 0 {
		name = name[:i]
	}
	var b strings.Builder
	for _, r := range name {
		if r == '.' || r == '/' || r < 0x20 || r == 0x7f || r == '"' || r == utf8.RuneError {
			continue
		}
		b.WriteRune(r)
		if b.Len() >= 80 {
			break
		}
	}
	if s := strings.TrimSpace(b.String()); s != "" {
		return s
	}
	return "photo"
}

// ImagePreview returns a reduced JPEG of the photo for the before/after view.
func (a *App) ImagePreview(ctx context.Context, categoryID, imageID string) ([]byte, error) {
	if err := a.check(ctx, categoryID); err != nil {
		return nil, err
	}
	if err := domain.ValidateID("imageId", imageID); err != nil {
		return nil, err
	}
	_, key, err := a.repo.GetImage(ctx, categoryID, imageID)
	if err != nil {
		return nil, err
	}
	data, err := a.blobs.Get(ctx, key)
	if err != nil {
		return nil, err
	}
	var img *image.NRGBA
	err = a.decoding(ctx, data, func() (err error) {
		// in the worker's frame, with the cheaper filter a preview needs
		img, _, err = pipeline.Decode(data, domain.MaxCutoutSide, imaging.Linear)
		return err
	})
	if err != nil {
		return nil, err
	}
	return pipeline.Encode(pipeline.Reduce(img, domain.PreviewWidth), "jpeg")
}
