package pipeline

import (
	"image"
	"runtime"
	"sync"

	"golang.org/x/sync/errgroup"

	"uplift.dev/studio/internal/domain"
)

// Output is one file a job makes, before it is stored.
type Output struct {
	Name, Format  string
	Width, Height int
	Data          []byte
	// Preview is the reduced, un-watermarked picture the gallery shows
	// (watermarking for the free plan happens when it is served).
	Preview *image.NRGBA
}

// RenderCutout makes the transparent PNG cut-out.
func RenderCutout(img *image.NRGBA, mask *image.Gray) ([]Output, error) {
	cut, err := Cutout(img, mask, domain.MaxCutoutSide)
	if err != nil {
		return nil, err
	}
	// The PNG's compression runs on one core; the preview is made on the
	// other meanwhile.
	var preview *image.NRGBA
	done := make(chan struct{})
	go func() {
		defer close(done)
		preview = Reduce(cut, domain.PreviewWidth)
	}()
	data, err := Encode(cut, "png")
	<-done
	if err != nil {
		return nil, err
	}
	return []Output{{Name: "cutout", Format: "png", Width: cut.Rect.Dx(), Height: cut.Rect.Dy(), Data: data,
		Preview: preview}}, nil
}

// RenderStudio makes the square studio image in JPEG and WebP.
func RenderStudio(img *image.NRGBA, mask *image.Gray, size int, bg domain.Backdrop) ([]Output, error) {
	out, _, err := Studio(img, mask, size, size, 0.8, bg.Color, true)
	if err != nil {
		return nil, err
	}
	return encodeBoth("studio", out)
}

// RenderPresets makes every channel preset in JPEG and WebP, on bg (the
// Amazon main image is always pure white). Presets render in parallel, one
// per core.
func RenderPresets(img *image.NRGBA, mask *image.Gray, bg domain.Backdrop, progress func(done, total int)) ([]Output, error) {
	results := make([][]Output, len(domain.Presets))
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	var mu sync.Mutex
	done := 0
	for i, p := range domain.Presets {
		g.Go(func() error {
			c, shadow := bg.Color, true
			if p.PureWhite {
				c, shadow = domain.White, false
			}
			out, _, err := Studio(img, mask, p.Width, p.Height, p.Fill, c, shadow)
			if err != nil {
				return err
			}
			if results[i], err = encodeBoth(p.ID, out); err != nil {
				return err
			}
			mu.Lock()
			defer mu.Unlock()
			done++
			if progress != nil {
				progress(done, len(domain.Presets))
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	var all []Output
	for _, r := range results {
		all = append(all, r...)
	}
	return all, nil
}

func encodeBoth(name string, img *image.NRGBA) ([]Output, error) {
	preview := Reduce(img, domain.PreviewWidth)
	var outs []Output
	for _, f := range []string{"jpeg", "webp"} {
		data, err := Encode(img, f)
		if err != nil {
			return nil, err
		}
		outs = append(outs, Output{Name: name, Format: f, Width: img.Rect.Dx(), Height: img.Rect.Dy(), Data: data, Preview: preview})
	}
	return outs, nil
}
