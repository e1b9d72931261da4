package pipeline_test

import (
	"image"
	"image/color"
	"testing"

	"uplift.dev/studio/internal/domain"
	"uplift.dev/studio/internal/pipeline"
)

// tinAndCup is the photo an owner framed badly: a tin (the product, fully opaque to the
// model) with a cup beside it that the model half saw: a faint blob at
// value 110 of 255 where the cup stood (visible after hardening), joined
// to the tin by a thin haze. tin is the tin's box.
func tinAndCup() (img *image.NRGBA, mask *image.Gray, tin image.Rectangle) {
	img = solid(400, 300, color.NRGBA{235, 232, 228, 255})
	mask = image.NewGray(img.Rect)
	tin = image.Rect(60, 60, 180, 260)
	fill := func(r image.Rectangle, v uint8, c color.NRGBA) {
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				mask.SetGray(x, y, color.Gray{v})
				img.SetNRGBA(x, y, c)
			}
		}
	}
	fill(tin, 255, color.NRGBA{180, 30, 40, 255})
	fill(image.Rect(260, 150, 340, 260), 110, color.NRGBA{240, 240, 245, 255}) // the cup's ghost
	fill(image.Rect(180, 240, 260, 244), 70, color.NRGBA{230, 228, 225, 255})  // haze between them
	return img, mask, tin
}

// The cup's ghost is gone from the mask, so from the cut-out and from the
// framing: the tin is centred in the studio image and in every preset.
// Before KeepProduct, Trim counted the ghost and the tin sat off-centre.
func TestFinishFramesTheProductNotItsRemnants(t *testing.T) {
	img, mask, tin := tinAndCup()
	pipeline.Finish(img, mask, false)
	// The tin's own soft edge (EdgeWidth of the model's ramp) may stay;
	// nothing beyond it.
	edge := pipeline.EdgeWidth(400, 300)
	near := tin.Inset(-edge)
	box, err := pipeline.Trim(mask)
	if err != nil {
		t.Fatal(err)
	}
	if !box.In(near) || !tin.In(box) {
		t.Errorf("framed %v, the tin is %v", box, tin)
	}
	cut, err := pipeline.Cutout(img, mask, domain.MaxCutoutSide)
	if err != nil {
		t.Fatal(err)
	}
	for y := 0; y < cut.Rect.Dy(); y++ {
		for x := 0; x < cut.Rect.Dx(); x++ {
			if a := cut.NRGBAAt(x, y).A; a != 0 && !(image.Point{x, y}).In(near) {
				t.Fatalf("the cut-out keeps alpha %d at (%d,%d), away from the tin", a, x, y)
			}
		}
	}
	for _, p := range domain.Presets {
		_, layout, err := pipeline.Studio(img, mask, p.Width, p.Height, p.Fill, domain.White, false)
		if err != nil {
			t.Fatal(err)
		}
		// where the tin's centre lands on the canvas
		k := float64(layout.Placed.Dx()) / float64(layout.Source.Dx())
		cx := float64(layout.Placed.Min.X) + (float64(tin.Min.X+tin.Max.X)/2-float64(layout.Source.Min.X))*k
		cy := float64(layout.Placed.Min.Y) + (float64(tin.Min.Y+tin.Max.Y)/2-float64(layout.Source.Min.Y))*k
		slack := float64(edge)*k/2 + 1
		if dx, dy := cx-float64(p.Width)/2, cy-float64(p.Height)/2; dx < -slack || dx > slack || dy < -slack || dy > slack {
			t.Errorf("%s: the tin's centre is (%.0f, %.0f) px off the canvas's centre", p.ID, dx, dy)
		}
	}
}

// A photo of several products keeps them all (the second of two chairs is
// as large as the first, wherever it stands), and a small part close to
// the main one (a bottle's cap the model saw apart) stays; a small opaque
// speck far off goes, and so does haze off the product's edge.
func TestKeepProductKeepsObjectsAndDropsSpecks(t *testing.T) {
	mask := image.NewGray(image.Rect(0, 0, 400, 300))
	fill := func(r image.Rectangle, v uint8) {
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				mask.SetGray(x, y, color.Gray{v})
			}
		}
	}
	chair1, chair2 := image.Rect(20, 40, 150, 280), image.Rect(230, 50, 350, 280)
	fill(chair1, 255)
	fill(chair2, 255)
	cap := image.Rect(70, 30, 90, 37) // 3 px above chair1: near
	fill(cap, 255)
	speck := image.Rect(370, 5, 378, 13) // 64 px, far from both
	fill(speck, 255)
	fill(image.Rect(150, 100, 152, 200), 60) // the soft edge: kept
	fill(image.Rect(160, 100, 200, 200), 60) // haze 10 px off the edge: not
	n := pipeline.KeepProduct(mask, 3)
	at := func(x, y int) uint8 { return mask.GrayAt(x, y).Y }
	for name, p := range map[string]image.Point{"chair 1": {80, 150}, "chair 2": {300, 150}, "the cap": {80, 33}, "the edge": {151, 150}} {
		if at(p.X, p.Y) == 0 {
			t.Errorf("%s was cleared", name)
		}
	}
	for name, p := range map[string]image.Point{"the speck": {373, 8}, "the haze": {180, 150}} {
		if v := at(p.X, p.Y); v != 0 {
			t.Errorf("%s was kept (%d)", name, v)
		}
	}
	if want := speck.Dx()*speck.Dy() + 40*100; n != want {
		t.Errorf("cleared %d pixels, want %d", n, want)
	}
}

// Nothing opaque at all: the mask is left empty, and Trim then says there
// is no product (the job fails with the no-product message).
func TestKeepProductOnlyGhosts(t *testing.T) {
	mask := image.NewGray(image.Rect(0, 0, 50, 50))
	for i := range mask.Pix {
		mask.Pix[i] = 90
	}
	pipeline.KeepProduct(mask, 2)
	if _, err := pipeline.Trim(mask); err != pipeline.ErrNoProduct {
		t.Errorf("Trim = %v, want ErrNoProduct", err)
	}
}
