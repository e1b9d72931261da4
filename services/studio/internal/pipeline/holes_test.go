package pipeline_test

import (
	"testing"

	"uplift.dev/studio/internal/pipeline"
	"uplift.dev/studio/internal/testphotos"
)

func TestRecoverHolesOpensTheMugHandle(t *testing.T) {
	for _, backdrop := range []string{"plain", "fabric", "paper-shadow", "wood-shadow"} {
		img, truth := testphotos.Generate(testphotos.Scene{Shape: "mug", Backdrop: backdrop}, 400)
		mask := testphotos.Filled(truth)
		before := testphotos.IoU(mask, truth)
		if before > 0.97 {
			t.Fatalf("%s: the filled mask is already %.3f: the test shows nothing", backdrop, before)
		}
		n := pipeline.RecoverHoles(img, mask)
		if after := testphotos.IoU(mask, truth); n == 0 || after < 0.995 {
			t.Errorf("%s: cleared %d pixels, IoU %.4f → %.4f", backdrop, n, before, after)
		}
	}
}

// An enclosed part of the product that is not the backdrop's colour stays:
// the box's light label, on a light backdrop, and every shape's own body.
func TestRecoverHolesKeepsTheProduct(t *testing.T) {
	for _, sc := range testphotos.All() {
		if sc.Shape == "mug" {
			continue
		}
		img, truth := testphotos.Generate(sc, 300)
		mask := cloneGray(truth)
		if n := pipeline.RecoverHoles(img, mask); n != 0 {
			t.Errorf("%s: cleared %d pixels of a product with no hole", sc.Name(), n)
		}
	}
}

// A hole smaller than a speck (a few pixels) is left: at that size it is
// more likely a reflection than a hole.
func TestRecoverHolesIgnoresSpecks(t *testing.T) {
	img, truth := testphotos.Generate(testphotos.Scene{Shape: "box", Backdrop: "plain"}, 300)
	mask := cloneGray(truth)
	// paint a 3×3 backdrop-coloured speck in the box's body
	bg := img.Pix[10*img.Stride+10*4 : 10*img.Stride+10*4+4]
	for y := 150; y < 153; y++ {
		for x := 110; x < 113; x++ {
			copy(img.Pix[y*img.Stride+x*4:], bg)
		}
	}
	if n := pipeline.RecoverHoles(img, mask); n != 0 {
		t.Errorf("cleared %d pixels of a speck", n)
	}
}

// Hole recovery is a beta feature: Refine runs it only when asked (paid
// plans), and the free plan's mask keeps the model's filled hole.
func TestRefineRunsHoleRecoveryOnlyWhenAsked(t *testing.T) {
	img, truth := testphotos.Generate(testphotos.Scene{Shape: "mug", Backdrop: "fabric"}, 300)
	free, paid := testphotos.Filled(truth), testphotos.Filled(truth)
	pipeline.Refine(img, free, false)
	pipeline.Refine(img, paid, true)
	if f, p := testphotos.IoU(free, truth), testphotos.IoU(paid, truth); f > 0.97 || p < 0.995 {
		t.Fatalf("IoU free %.4f (want the hole filled), paid %.4f (want it open)", f, p)
	}
}
