package pipeline_test

import (
	"image"
	"image/color"
	"testing"

	"github.com/disintegration/imaging"

	"uplift.dev/studio/internal/pipeline"
)

// Fixtures and checks shared by the package's tests.

// solid is a w×h image of one colour.
func solid(w, h int, c color.NRGBA) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i := 0; i < len(img.Pix); i += 4 {
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = c.R, c.G, c.B, c.A
	}
	return img
}

// cloneGray is a copy of m to change without touching m.
func cloneGray(m *image.Gray) *image.Gray {
	out := image.NewGray(m.Rect)
	copy(out.Pix, m.Pix)
	return out
}

// softMask is the truth with a 2-pixel soft rim, as a model would give.
func softMask(truth *image.Gray) *image.Gray {
	b := imaging.Blur(truth, 1.2)
	out := image.NewGray(truth.Rect)
	for i := range out.Pix {
		out.Pix[i] = b.Pix[i*4]
	}
	return out
}

// assertProductUnaltered checks the promise on a studio image made from
// img and mask: wherever the mask, resized with the same filter, is fully
// opaque, the output pixel equals the source pixel after the same resize,
// exactly. The expected pixels are computed here, independently of the
// code under test, and at least a fifth of the product must be checked.
func assertProductUnaltered(t *testing.T, what string, img *image.NRGBA, mask *image.Gray, out *image.NRGBA, layout pipeline.Layout) {
	t.Helper()
	p := layout.Placed
	want := imaging.Resize(imaging.Crop(img, layout.Source), p.Dx(), p.Dy(), imaging.Lanczos)
	alpha := imaging.Resize(imaging.Crop(mask, layout.Source), p.Dx(), p.Dy(), imaging.Lanczos)
	opaque := 0
	for y := 0; y < p.Dy(); y++ {
		for x := 0; x < p.Dx(); x++ {
			if alpha.Pix[y*alpha.Stride+x*4] != 255 {
				continue
			}
			opaque++
			got, w := out.NRGBAAt(p.Min.X+x, p.Min.Y+y), want.NRGBAAt(x, y)
			if got.R != w.R || got.G != w.G || got.B != w.B {
				t.Fatalf("%s: pixel (%d,%d) is %v, the resized source is %v", what, x, y, got, w)
			}
		}
	}
	if opaque < p.Dx()*p.Dy()/5 {
		t.Fatalf("%s: only %d opaque pixels: the test checks too little", what, opaque)
	}
}
