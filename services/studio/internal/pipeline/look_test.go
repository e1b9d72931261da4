package pipeline_test

import (
	"image"
	"image/color"
	"testing"

	"uplift.dev/studio/internal/pipeline"
)

// sharpRed is a stand-in model that sees only what is clearly red at its
// own resolution: a pixel is salient when its red exceeds its green by
// 0.75 of full scale. A thin red line shrunk below a model pixel mixes
// with the white around it and is not seen, as u2netp loses a cable or a
// chair's leg.
func sharpRed(in []float32) ([]float32, error) {
	const plane = pipeline.ModelSide * pipeline.ModelSide
	out := make([]float32, plane)
	for p := range out {
		// The input is normalised with ImageNet's mean and deviation;
		// undo it to read the colour.
		r := in[p]*0.229 + 0.485
		g := in[plane+p]*0.224 + 0.456
		if r-g > 0.75 {
			out[p] = 1
		}
	}
	return out, nil
}

// cablePhoto is a 1280² white photo of two red boxes joined by a red
// cable 3 px thick: a product the whole-photo view sees only in part.
func cablePhoto() *image.NRGBA {
	img := solid(1280, 1280, color.NRGBA{255, 255, 255, 255})
	red := color.NRGBA{220, 10, 10, 255}
	for y := 560; y < 740; y++ {
		for x := 400; x < 500; x++ {
			img.SetNRGBA(x, y, red)
			img.SetNRGBA(x+400, y, red)
		}
	}
	for y := 648; y < 652; y++ {
		for x := 500; x < 800; x++ {
			img.SetNRGBA(x, y, red)
		}
	}
	return img
}

// The closer look finds what the whole photo is too small to show: the
// cable between the boxes is in Look's mask and not in the first look's.
func TestLookSeesTheProductCloser(t *testing.T) {
	img := cablePhoto()
	runs := 0
	count := func(in []float32) ([]float32, error) { runs++; return sharpRed(in) }
	first, err := pipeline.Saliency(img, pipeline.FirstLook, sharpRed)
	if err != nil {
		t.Fatal(err)
	}
	got, err := pipeline.Look(img, count)
	if err != nil {
		t.Fatal(err)
	}
	if want := 1 + len(pipeline.CloserLook); runs != want {
		t.Errorf("%d model runs, want %d (the whole photo, then each view of the product)", runs, want)
	}
	for x := 540; x < 760; x++ {
		if v := first.GrayAt(x, 650).Y; v >= 128 {
			t.Fatalf("the first look alone has the cable at x=%d (%d): the photo does not test the closer look", x, v)
		}
		if v := got.GrayAt(x, 650).Y; v < 128 {
			t.Fatalf("the cable at x=%d is %d in Look's mask, want ≥ 128", x, v)
		}
	}
	// The boxes stay, and the backdrop stays out.
	for _, p := range []image.Point{{450, 650}, {850, 650}} {
		if v := got.GrayAt(p.X, p.Y).Y; v < 250 {
			t.Errorf("box at %v is %d, want ≥ 250", p, v)
		}
	}
	for _, p := range []image.Point{{650, 600}, {650, 700}, {100, 100}, {1200, 1200}} {
		if v := got.GrayAt(p.X, p.Y).Y; v > 5 {
			t.Errorf("backdrop at %v is %d, want ≤ 5", p, v)
		}
	}
}

// A photo where the model finds nothing costs one run and gives its mask.
func TestLookWithNothingFoundTakesOneRun(t *testing.T) {
	img := solid(400, 300, color.NRGBA{255, 255, 255, 255})
	runs := 0
	got, err := pipeline.Look(img, func(in []float32) ([]float32, error) { runs++; return sharpRed(in) })
	if err != nil {
		t.Fatal(err)
	}
	if runs != 1 {
		t.Errorf("%d runs, want 1", runs)
	}
	for _, v := range got.Pix {
		if v != 0 {
			t.Fatal("an empty photo's mask holds something")
		}
	}
}

func TestProductBox(t *testing.T) {
	m := image.NewGray(image.Rect(0, 0, 200, 100))
	for y := 20; y < 60; y++ {
		for x := 50; x < 150; x++ {
			m.Pix[y*m.Stride+x] = 200
		}
	}
	m.Pix[90*m.Stride+10] = 47 // under the level: not the product
	for _, c := range []struct {
		margin float64
		want   image.Rectangle
	}{
		{0, image.Rect(50, 20, 150, 60)},
		{0.1, image.Rect(40, 10, 160, 70)}, // 10 % of the longer side, 100
		{0.5, image.Rect(0, 0, 200, 100)},  // kept within the mask
		{0.25, image.Rect(25, 0, 175, 85)}, // clipped at the top only
	} {
		got, ok := pipeline.ProductBox(m, 48, c.margin)
		if !ok || got != c.want {
			t.Errorf("margin %g: %v %v, want %v", c.margin, got, ok, c.want)
		}
	}
	if _, ok := pipeline.ProductBox(image.NewGray(m.Rect), 48, 0.1); ok {
		t.Error("an empty mask has a box")
	}
}
