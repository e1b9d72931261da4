package pipeline_test

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"testing"

	"golang.org/x/image/webp"

	"uplift.dev/studio/internal/domain"
	"uplift.dev/studio/internal/pipeline"
	"uplift.dev/studio/internal/testphotos"
)

// TestStudioNeverAltersTheProduct is the promise: wherever the mask is
// fully opaque, every output pixel equals the source pixel after the same
// resize, exactly.
func TestStudioNeverAltersTheProduct(t *testing.T) {
	for _, sc := range []testphotos.Scene{{Shape: "mug", Backdrop: "plain"}, {Shape: "bottle", Backdrop: "wood-shadow"}} {
		img, truth := testphotos.Generate(sc, 300)
		mask := softMask(truth)
		for _, size := range [][2]int{{1080, 1350}, {1200, 628}, {200, 200}} {
			out, layout, err := pipeline.Studio(img, mask, size[0], size[1], 0.8, domain.LightGrey, true)
			if err != nil {
				t.Fatal(err)
			}
			assertProductUnaltered(t, fmt.Sprintf("%s %v", sc.Name(), size), img, mask, out, layout)
		}
	}
}

func TestStudioCentresAndFills(t *testing.T) {
	img, truth := testphotos.Generate(testphotos.Scene{Shape: "box", Backdrop: "plain"}, 256)
	for _, p := range domain.Presets {
		c, shadow := domain.LightGrey, true
		if p.PureWhite {
			c, shadow = domain.White, false
		}
		out, layout, err := pipeline.Studio(img, truth, p.Width, p.Height, p.Fill, c, shadow)
		if err != nil {
			t.Fatal(err)
		}
		if out.Rect.Dx() != p.Width || out.Rect.Dy() != p.Height {
			t.Errorf("%s: %v", p.ID, out.Rect)
		}
		pl := layout.Placed
		// fills its share on the limiting side, never more on either
		wantW, wantH := float64(p.Width)*p.Fill, float64(p.Height)*p.Fill
		if float64(pl.Dx()) > wantW+1 || float64(pl.Dy()) > wantH+1 ||
			(float64(pl.Dx()) < wantW-1 && float64(pl.Dy()) < wantH-1) {
			t.Errorf("%s: placed %v in %dx%d, fill %.2f", p.ID, pl, p.Width, p.Height, p.Fill)
		}
		// centred
		if dx := pl.Min.X - (p.Width - pl.Max.X); dx < -1 || dx > 1 {
			t.Errorf("%s: not centred horizontally: %v", p.ID, pl)
		}
		corner := out.NRGBAAt(0, 0)
		if p.PureWhite && corner != (color.NRGBA{255, 255, 255, 255}) {
			t.Errorf("%s: backdrop %v, want pure white", p.ID, corner)
		}
		// a contact shadow darkens under the product's base, none on Amazon
		below := out.NRGBAAt((pl.Min.X+pl.Max.X)/2, pl.Max.Y+1)
		if shadow && below.R >= c.R {
			t.Errorf("%s: no contact shadow under the product: %v", p.ID, below)
		}
		if !shadow && pl.Max.Y+1 < p.Height && below != c {
			t.Errorf("%s: shadow on a pure white backdrop: %v", p.ID, below)
		}
	}
}

func TestStudioWithoutProduct(t *testing.T) {
	img := solid(50, 50, color.NRGBA{255, 255, 255, 255})
	if _, _, err := pipeline.Studio(img, image.NewGray(img.Rect), 100, 100, 0.8, domain.White, true); err != pipeline.ErrNoProduct {
		t.Fatalf("err %v, want ErrNoProduct", err)
	}
	if !pipeline.IsClientError(pipeline.ErrNoProduct) {
		t.Error("no product should be the photo's problem, not ours")
	}
}

func TestCutoutIsTransparentInThePhotosFrameAndCapped(t *testing.T) {
	img, truth := testphotos.Generate(testphotos.Scene{Shape: "bottle", Backdrop: "plain"}, 400)
	cut, err := pipeline.Cutout(img, truth, domain.MaxCutoutSide)
	if err != nil {
		t.Fatal(err)
	}
	if cut.Rect != img.Rect {
		t.Fatalf("cut %v, photo %v", cut.Rect, img.Rect)
	}
	// transparent (with no colour left under it) where the mask is empty,
	// the photo's own colour where full
	for y := 0; y < cut.Rect.Dy(); y++ {
		for x := 0; x < cut.Rect.Dx(); x++ {
			m := truth.GrayAt(x, y).Y
			c := cut.NRGBAAt(x, y)
			s := img.NRGBAAt(x, y)
			if c.A != m || (m == 255 && (c.R != s.R || c.G != s.G || c.B != s.B)) || (m == 0 && c != (color.NRGBA{})) {
				t.Fatalf("(%d,%d): cut %v, mask %d, photo %v", x, y, c, m, s)
			}
		}
	}
	small, err := pipeline.Cutout(img, truth, 100)
	if err != nil || small.Rect.Dx() != 100 || small.Rect.Dy() != 100 {
		t.Fatalf("capped cut-out %v, %v", small.Rect, err)
	}
	if _, err := pipeline.Cutout(img, image.NewGray(img.Rect), 100); err != pipeline.ErrNoProduct {
		t.Fatalf("empty mask: %v", err)
	}
}

func TestRenderPresetsMakesEveryChannelInBothFormats(t *testing.T) {
	img, truth := testphotos.Generate(testphotos.Scene{Shape: "shoe", Backdrop: "plain"}, 256)
	var calls []int
	outs, err := pipeline.RenderPresets(img, truth, domain.Backdrop{Kind: "color", Color: color.NRGBA{20, 60, 200, 255}},
		func(done, total int) { calls = append(calls, done) })
	if err != nil {
		t.Fatal(err)
	}
	if len(outs) != 2*len(domain.Presets) || len(calls) != len(domain.Presets) || calls[len(calls)-1] != len(domain.Presets) {
		t.Fatalf("%d outputs, progress %v", len(outs), calls)
	}
	for i, o := range outs {
		p := domain.Presets[i/2]
		var cfg image.Config
		var err error
		switch o.Format {
		case "jpeg":
			cfg, err = jpeg.DecodeConfig(bytes.NewReader(o.Data))
		case "webp":
			cfg, err = webp.DecodeConfig(bytes.NewReader(o.Data))
		}
		if err != nil || o.Name != p.ID || cfg.Width != p.Width || cfg.Height != p.Height {
			t.Errorf("output %d (%s %s): %dx%d, %v; want %s %dx%d", i, o.Name, o.Format, cfg.Width, cfg.Height, err, p.ID, p.Width, p.Height)
		}
		if o.Preview.Rect.Dx() > domain.PreviewWidth {
			t.Errorf("%s preview %v wider than %d", o.Name, o.Preview.Rect, domain.PreviewWidth)
		}
	}
	// Amazon's main image stays pure white whatever the chosen colour.
	amazon, err := jpeg.Decode(bytes.NewReader(outs[len(outs)-2].Data))
	if err != nil {
		t.Fatal(err)
	}
	if r, g, b, _ := amazon.At(2, 2).RGBA(); r>>8 < 250 || g>>8 < 250 || b>>8 < 250 {
		t.Errorf("amazon corner %d,%d,%d: want white", r>>8, g>>8, b>>8)
	}
}

func TestWatermarkReducesAndMarks(t *testing.T) {
	img := solid(1600, 1000, color.NRGBA{120, 120, 120, 255})
	wm := pipeline.Watermark(img)
	if wm.Rect.Dx() != domain.PreviewWidth || wm.Rect.Dy() != 400 {
		t.Fatalf("watermarked size %v", wm.Rect)
	}
	changed := 0
	for i := 0; i < len(wm.Pix); i += 4 {
		if wm.Pix[i] != 120 {
			changed++
		}
	}
	if share := float64(changed) / float64(len(wm.Pix)/4); share < 0.03 {
		t.Errorf("only %.1f%% of the preview carries the mark", 100*share)
	}
	// a transparent cut-out stays transparent away from the mark
	clear := pipeline.Watermark(solid(300, 300, color.NRGBA{}))
	if clear.NRGBAAt(299, 299).A != 0 && clear.NRGBAAt(0, 0).A != 0 {
		t.Error("the watermark filled a transparent preview")
	}
}

func TestEncodeQualityAndFormats(t *testing.T) {
	img, _ := testphotos.Generate(testphotos.Scene{Shape: "mug", Backdrop: "fabric"}, 200)
	q75, err := pipeline.Encode(img, "jpeg")
	if err != nil {
		t.Fatal(err)
	}
	var q95 bytes.Buffer
	_ = jpeg.Encode(&q95, img, &jpeg.Options{Quality: 95})
	if len(q75) >= q95.Len() {
		t.Errorf("quality 75 (%d B) should be smaller than 95 (%d B)", len(q75), q95.Len())
	}
	if _, err := pipeline.Encode(img, "gif"); err == nil {
		t.Error("gif encoded")
	}
}
