package u2net_test

import (
	"context"
	"image"
	"os"
	"testing"
	"time"

	"uplift.dev/studio/internal/adapters/u2net"
	"uplift.dev/studio/internal/pipeline"
	"uplift.dev/studio/internal/testphotos"
)

// load opens the real model from STUDIO_ORT_LIB and STUDIO_MODEL (`make
// studio-assets` fetches them; the Makefile exports both), laid out as
// STUDIO_MODEL_MEMORY says (as the worker's setting; unset: fast). Without
// them the test skips on a laptop but fails in CI, where the assets must
// be there.
func load(t testing.TB) *u2net.Model {
	t.Helper()
	lib, model := os.Getenv("STUDIO_ORT_LIB"), os.Getenv("STUDIO_MODEL")
	missing := lib == "" || model == ""
	if !missing {
		for _, p := range []string{lib, model} {
			if _, err := os.Stat(p); err != nil {
				missing = true
			}
		}
	}
	if missing {
		if os.Getenv("CI") == "true" {
			t.Fatalf("the studio's model assets are missing (STUDIO_ORT_LIB=%q STUDIO_MODEL=%q): run make studio-assets", lib, model)
		}
		t.Skip("STUDIO_ORT_LIB / STUDIO_MODEL not set: run make studio-assets")
	}
	m, err := u2net.Load(lib, model, u2net.Options{Threads: 2, Memory: u2net.Memory(os.Getenv("STUDIO_MODEL_MEMORY"))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	return m
}

// TestRealModelMasks runs u2netp on every test photo and checks the masks,
// after the worker's own post-processing, against the exact truth: the
// issue's goals are mean IoU ≥ 0.97 without cast shadows and ≥ 0.93 with
// them, and no photo may fall apart (≥ 0.8).
func TestRealModelMasks(t *testing.T) {
	m := load(t)
	var sum [2]float64
	var n [2]int
	for _, sc := range testphotos.All() {
		img, truth := testphotos.Generate(sc, 512)
		start := time.Now()
		mask, err := m.Mask(context.Background(), img)
		if err != nil {
			t.Fatal(err)
		}
		raw := testphotos.IoU(mask, truth)
		free := image.NewGray(mask.Rect)
		copy(free.Pix, mask.Pix)
		pipeline.Refine(img, free, false)
		pipeline.Refine(img, mask, true)
		iou := testphotos.IoU(mask, truth)
		t.Logf("%-20s raw IoU %.4f refined %.4f (free plan, no hole recovery: %.4f) (%v)", sc.Name(), raw, iou,
			testphotos.IoU(free, truth), time.Since(start).Round(time.Millisecond))
		if iou < 0.8 {
			t.Errorf("%s: IoU %.4f, want ≥ 0.8", sc.Name(), iou)
		}
		// The handle's hole is opened: its pixels stay out of the mask.
		if sc.Shape == "mug" && sc.Backdrop != "plain" && iou < 0.97 {
			t.Errorf("%s: IoU %.4f with hole recovery, want ≥ 0.97", sc.Name(), iou)
		}
		g := 0
		if sc.CastShadow() {
			g = 1
		}
		sum[g] += iou
		n[g]++
	}
	if mean := sum[0] / float64(n[0]); mean < 0.97 {
		t.Errorf("mean IoU without cast shadows %.4f, want ≥ 0.97", mean)
	}
	if mean := sum[1] / float64(n[1]); mean < 0.93 {
		t.Errorf("mean IoU with cast shadows %.4f, want ≥ 0.93", mean)
	}
}

// TestShadowSuppressionWithoutAShadowAtLargerSizes: on a plain backdrop
// with no shadow, shadow suppression may take nothing from the model's
// mask at sizes other than TestRealModelMasks' 512². At 1024² it once
// cleared the bottle's label (the product's antialiased rim taken for a
// shadow left out: IoU 0.996 → 0.759) while 512² was fine.
func TestShadowSuppressionWithoutAShadowAtLargerSizes(t *testing.T) {
	m := load(t)
	for _, size := range []int{768, 1024} {
		for _, shape := range testphotos.Shapes {
			img, truth := testphotos.Generate(testphotos.Scene{Shape: shape, Backdrop: "plain"}, size)
			mask, err := m.Mask(context.Background(), img)
			if err != nil {
				t.Fatal(err)
			}
			raw := testphotos.IoU(mask, truth)
			if n := pipeline.SuppressShadow(img, mask); n != 0 {
				t.Errorf("%s at %d²: shadow suppression cleared %d pixels with no shadow (IoU %.4f → %.4f)",
					shape, size, n, raw, testphotos.IoU(mask, truth))
			}
		}
	}
}

// TestRealPhotoMasks runs the worker's cut-out (the model's views, then the
// paid plan's post-processing) on the real product photos with masks drawn
// by people (shared/corpus/photos; skipped where the corpus is absent) and
// logs each photo's IoU. The goal is a mean of 0.90; today's 0.892 (the
// closer look's two close-ups, 2026-12-03; 0.884 with one, 0.864 before
// it) is the floor a change may not fall below, and no photo may collapse.
func TestRealPhotoMasks(t *testing.T) {
	photos := testphotos.RealPhotos(t)
	m := load(t)
	var sum float64
	for _, p := range photos {
		mask, err := m.Mask(context.Background(), p.Img)
		if err != nil {
			t.Fatal(err)
		}
		pipeline.Refine(p.Img, mask, true)
		iou := testphotos.IoU(mask, p.Truth)
		t.Logf("%-20s IoU %.4f", p.Name, iou)
		if iou < 0.75 {
			t.Errorf("%s: IoU %.4f, want ≥ 0.75", p.Name, iou)
		}
		sum += iou
	}
	mean := sum / float64(len(photos))
	t.Logf("mean IoU on %d real photos: %.4f (goal 0.90)", len(photos), mean)
	if mean < 0.89 {
		t.Errorf("mean IoU %.4f on the real photos, below today's 0.892", mean)
	}
}
