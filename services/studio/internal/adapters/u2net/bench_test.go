package u2net_test

import (
	"context"
	"image"
	"syscall"
	"testing"

	"github.com/disintegration/imaging"

	"uplift.dev/studio/internal/domain"
	"uplift.dev/studio/internal/pipeline"
	"uplift.dev/studio/internal/testphotos"
)

// The studio's benchmarks (`make bench`), each product figure beside a bare
// baseline in the same run, with the process's peak memory (the worker's
// work runs in this process: model, pipeline, encoders). Goals on 2 cores:
// background removal of a 1024² photo ≤ 0.5 s, a studio image ≤ 1 s, all
// presets of one product ≤ 2 s; mask IoU ≥ 0.97 without cast shadows and
// ≥ 0.93 with them.

func peakMB(b *testing.B) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err == nil {
		b.ReportMetric(float64(ru.Maxrss)/1024, "peak-MB")
	}
}

var benchScene = testphotos.Scene{Shape: "mug", Backdrop: "paper-shadow"}

// BenchmarkRemoveBackground1024 is the cut-out job's work on a paid plan:
// mask, shadow suppression, hole recovery, cut-out, PNG.
func BenchmarkRemoveBackground1024(b *testing.B) {
	m := load(b)
	img, _ := testphotos.Generate(benchScene, 1024)
	b.ResetTimer()
	for b.Loop() {
		mask, err := m.Mask(context.Background(), img)
		if err != nil {
			b.Fatal(err)
		}
		pipeline.Refine(img, mask, true)
		if _, err := pipeline.RenderCutout(img, mask); err != nil {
			b.Fatal(err)
		}
	}
	peakMB(b)
}

// BenchmarkBaselineInference1024 is the model alone on the same photo.
func BenchmarkBaselineInference1024(b *testing.B) {
	m := load(b)
	img, _ := testphotos.Generate(benchScene, 1024)
	b.ResetTimer()
	for b.Loop() {
		if _, err := m.Mask(context.Background(), img); err != nil {
			b.Fatal(err)
		}
	}
	peakMB(b)
}

// BenchmarkStudioImage is a 2048² studio image (mask kept from the cut-out,
// as the worker does) in JPEG and WebP.
func BenchmarkStudioImage(b *testing.B) {
	img, truth := testphotos.Generate(benchScene, 1024)
	bg := domain.Backdrop{Kind: "grey", Color: domain.LightGrey}
	b.ResetTimer()
	for b.Loop() {
		if _, err := pipeline.RenderStudio(img, truth, domain.DefaultStudioSize, bg); err != nil {
			b.Fatal(err)
		}
	}
	peakMB(b)
}

// BenchmarkBaselineResize2048 is a plain Lanczos resize of the photo to
// 2048² and a JPEG, with no compositing and no WebP.
func BenchmarkBaselineResize2048(b *testing.B) {
	img, _ := testphotos.Generate(benchScene, 1024)
	b.ResetTimer()
	for b.Loop() {
		out := imaging.Resize(img, 2048, 2048, imaging.Lanczos)
		if _, err := pipeline.Encode(out, "jpeg"); err != nil {
			b.Fatal(err)
		}
	}
	peakMB(b)
}

// BenchmarkAllPresets is every channel preset of one product in JPEG and WebP.
func BenchmarkAllPresets(b *testing.B) {
	img, truth := testphotos.Generate(benchScene, 1024)
	bg := domain.Backdrop{Kind: "white", Color: domain.White}
	b.ResetTimer()
	for b.Loop() {
		if _, err := pipeline.RenderPresets(img, truth, bg, nil); err != nil {
			b.Fatal(err)
		}
	}
	peakMB(b)
}

// BenchmarkBaselinePresetResizes resizes the photo to each preset's size and
// writes a JPEG: what a plain resizer does, without trimming, compositing,
// shadow or WebP.
func BenchmarkBaselinePresetResizes(b *testing.B) {
	img, _ := testphotos.Generate(benchScene, 1024)
	b.ResetTimer()
	for b.Loop() {
		for _, p := range domain.Presets {
			if _, err := pipeline.Encode(imaging.Fit(img, p.Width, p.Height, imaging.Lanczos), "jpeg"); err != nil {
				b.Fatal(err)
			}
		}
	}
	peakMB(b)
}

// BenchmarkMaskIoU reports mean IoU on the 16 test photos (1024²), with the
// worker's post-processing on a paid plan (iou-*: shadow suppression and
// hole recovery) and on the free plan (free-iou-*: no hole recovery, a
// beta feature) beside the model's raw mask (baseline-iou-*).
func BenchmarkMaskIoU(b *testing.B) {
	m := load(b)
	scenes := testphotos.All()
	b.ResetTimer()
	for b.Loop() {
		var sum, free, raw [2]float64
		var n [2]int
		for _, sc := range scenes {
			img, truth := testphotos.Generate(sc, 1024)
			mask, err := m.Mask(context.Background(), img)
			if err != nil {
				b.Fatal(err)
			}
			g := 0
			if sc.CastShadow() {
				g = 1
			}
			raw[g] += testphotos.IoU(mask, truth)
			f := image.NewGray(mask.Rect)
			copy(f.Pix, mask.Pix)
			pipeline.Refine(img, f, false)
			free[g] += testphotos.IoU(f, truth)
			pipeline.Refine(img, mask, true)
			sum[g] += testphotos.IoU(mask, truth)
			n[g]++
		}
		b.ReportMetric(sum[0]/float64(n[0]), "iou-no-shadow")
		b.ReportMetric(sum[1]/float64(n[1]), "iou-cast-shadow")
		b.ReportMetric(free[0]/float64(n[0]), "free-iou-no-shadow")
		b.ReportMetric(free[1]/float64(n[1]), "free-iou-cast-shadow")
		b.ReportMetric(raw[0]/float64(n[0]), "baseline-iou-no-shadow")
		b.ReportMetric(raw[1]/float64(n[1]), "baseline-iou-cast-shadow")
	}
	peakMB(b)
}

// BenchmarkRealPhotoIoU is the cut-out's IoU on each real product photo of
// the corpus (masks drawn by people; skipped where the corpus is absent):
// the product's mask (the model's three runs, pipeline.Look, and the
// paid plan's post-processing) beside the raw model's (one plain view,
// nothing after it, as u2netp's reference code gives it), the mean of
// each over the photos, whose goal is 0.90, and each step's mean beside
// the mean without it (step/…).
func BenchmarkRealPhotoIoU(b *testing.B) {
	photos := testphotos.RealPhotos(b)
	m := load(b)
	product := func(p testphotos.RealPhoto) (*image.Gray, error) {
		mask, err := m.Mask(context.Background(), p.Img)
		if err == nil {
			pipeline.Refine(p.Img, mask, true)
		}
		return mask, err
	}
	raw := func(p testphotos.RealPhoto) (*image.Gray, error) {
		return pipeline.Saliency(p.Img, []pipeline.View{{}}, m.Run)
	}
	// Each photo's figure, set (not added: a sub-benchmark's body runs
	// more than once) for the mean.
	var ious [2][]float64
	ious[0], ious[1] = make([]float64, len(photos)), make([]float64, len(photos))
	for k, p := range photos {
		b.Run(p.Name, func(b *testing.B) {
			for i, side := range []struct {
				name string
				mask func(testphotos.RealPhoto) (*image.Gray, error)
			}{{"product", product}, {"baseline", raw}} {
				b.Run(side.name, func(b *testing.B) {
					var iou float64
					for b.Loop() {
						mask, err := side.mask(p)
						if err != nil {
							b.Fatal(err)
						}
						iou = testphotos.IoU(mask, p.Truth)
					}
					b.ReportMetric(iou, "IoU")
					ious[i][k] = iou
				})
			}
		})
	}
	b.Run("mean", func(b *testing.B) {
		for i, side := range []string{"product", "baseline"} {
			b.Run(side, func(b *testing.B) {
				for b.Loop() {
				}
				var sum float64
				for _, v := range ious[i] {
					sum += v
				}
				b.ReportMetric(sum/float64(len(photos)), "IoU")
				if side == "product" {
					b.ReportMetric(0.90, "goal-IoU")
				}
			})
		}
	})
	// What each step adds, as mean IoU over the photos: the close-ups
	// beside the first look alone, then the post-processing beside the
	// model's mask it starts from. Each photo's masks are made once here;
	// the rows are figures, not timings.
	var first, look, final float64
	for _, p := range photos {
		f, err := pipeline.Saliency(p.Img, pipeline.FirstLook, m.Run)
		if err != nil {
			b.Fatal(err)
		}
		mask, err := m.Mask(context.Background(), p.Img)
		if err != nil {
			b.Fatal(err)
		}
		first += testphotos.IoU(f, p.Truth)
		look += testphotos.IoU(mask, p.Truth)
		pipeline.Refine(p.Img, mask, true)
		final += testphotos.IoU(mask, p.Truth)
	}
	n := float64(len(photos))
	for _, st := range []struct {
		name              string
		product, baseline float64
	}{{"closer-look", look / n, first / n}, {"post-processing", final / n, look / n}} {
		b.Run("step/"+st.name, func(b *testing.B) {
			for _, side := range []struct {
				name string
				iou  float64
			}{{"product", st.product}, {"baseline", st.baseline}} {
				b.Run(side.name, func(b *testing.B) {
					for b.Loop() {
					}
					b.ReportMetric(side.iou, "IoU")
				})
			}
		})
	}
}
