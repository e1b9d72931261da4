package pipeline_test

import (
	"image"
	"math"
	"testing"

	"uplift.dev/studio/internal/domain"
	"uplift.dev/studio/internal/pipeline"
	"uplift.dev/studio/internal/testphotos"
)

// distToSegment is computed here independently of the brush's span maths.
func distToSegment(px, py, ax, ay, bx, by float64) float64 {
	dx, dy := bx-ax, by-ay
	t := 0.0
	if l := dx*dx + dy*dy; l > 0 {
		t = math.Max(0, math.Min(1, ((px-ax)*dx+(py-ay)*dy)/l))
	}
	return math.Hypot(px-(ax+t*dx), py-(ay+t*dy))
}

func TestBrushPaintsExactlyTheStroke(t *testing.T) {
	const w, h = 200, 100
	for _, pts := range [][][2]float64{
		{{0.2, 0.5}, {0.8, 0.3}},    // diagonal
		{{0.5, 0.1}, {0.5, 0.9}},    // vertical
		{{0.1, 0.5}, {0.9, 0.5}},    // horizontal
		{{0.4, 0.4}},                // a dab
		{{-0.1, 0.95}, {0.3, 1.2}},  // off the edge: clipped
		{{0.3, 0.3}, {0.3001, 0.3}}, // nearly a dot
	} {
		mask := image.NewGray(image.Rect(0, 0, w, h))
		s := domain.Stroke{Keep: true, Radius: 0.05, Points: pts}
		pipeline.PaintStrokes(mask, []domain.Stroke{s})
		r := s.Radius * w
		a, b := pts[0], pts[len(pts)-1]
		painted := 0
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				d := distToSegment(float64(x)+0.5, float64(y)+0.5, a[0]*w, a[1]*h, b[0]*w, b[1]*h)
				got := mask.Pix[y*mask.Stride+x]
				// a pixel centre right on the rim may fall either way
				if (d < r-1e-6 && got != 255) || (d > r+1e-6 && got != 0) {
					t.Fatalf("%v: pixel (%d,%d) at %.3f from the stroke (radius %.1f) is %d", pts, x, y, d, r, got)
				}
				if got == 255 {
					painted++
				}
			}
		}
		if painted == 0 && pts[0][0] >= 0 {
			t.Fatalf("%v: nothing painted", pts)
		}
	}
}

func TestBrushStrokesApplyInOrderOverTheMask(t *testing.T) {
	edits := image.NewGray(image.Rect(0, 0, 100, 100))
	pipeline.PaintStrokes(edits, []domain.Stroke{
		{Keep: true, Radius: 0.2, Points: [][2]float64{{0.5, 0.5}}},
		{Keep: false, Radius: 0.05, Points: [][2]float64{{0.5, 0.5}}},
	})
	mask := image.NewGray(edits.Rect)
	for i := range mask.Pix {
		mask.Pix[i] = 128
	}
	if err := pipeline.ApplyEdits(mask, edits); err != nil {
		t.Fatal(err)
	}
	if c, ring, out := mask.GrayAt(50, 50).Y, mask.GrayAt(60, 50).Y, mask.GrayAt(90, 90).Y; c != 0 || ring != 255 || out != 128 {
		t.Fatalf("centre %d (want 0), ring %d (want 255), outside %d (want 128 untouched)", c, ring, out)
	}
	if err := pipeline.ApplyEdits(image.NewGray(image.Rect(0, 0, 100, 99)), edits); err == nil {
		t.Error("an edits layer of another size was applied")
	}
}

// A touch-up keeps the promise: the owner paints part of the mug back in
// (as if the model had missed it) and every output pixel there equals the
// resized source pixel, exactly.
func TestTouchedUpMaskNeverAltersTheProduct(t *testing.T) {
	img, truth := testphotos.Generate(testphotos.Scene{Shape: "mug", Backdrop: "fabric"}, 300)
	mask := cloneGray(truth)
	// the model "missed" the left third of the product
	for y := 0; y < 300; y++ {
		for x := 0; x < 130; x++ {
			mask.Pix[y*mask.Stride+x] = 0
		}
	}
	edits := image.NewGray(mask.Rect)
	pipeline.PaintStrokes(edits, []domain.Stroke{{Keep: true, Radius: 0.08, Points: [][2]float64{{0.36, 0.38}, {0.36, 0.74}}}})
	if err := pipeline.ApplyEdits(mask, edits); err != nil {
		t.Fatal(err)
	}
	out, layout, err := pipeline.Studio(img, mask, 1080, 1080, 0.8, domain.White, true)
	if err != nil {
		t.Fatal(err)
	}
	assertProductUnaltered(t, "touched up", img, mask, out, layout)
}
