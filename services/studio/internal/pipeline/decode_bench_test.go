package pipeline_test

import (
	"bytes"
	"image"
	"testing"

	"uplift.dev/platform/benchmem"
	"uplift.dev/studio/internal/domain"
	"uplift.dev/studio/internal/pipeline"
)

// ellipse is a mask with the product as a centred ellipse.
func ellipse(r image.Rectangle) *image.Gray {
	m := image.NewGray(r)
	w, h := float64(r.Dx()), float64(r.Dy())
	for y := 0; y < r.Dy(); y++ {
		for x := 0; x < r.Dx(); x++ {
			u, v := (float64(x)-w/2)/(w*0.4), (float64(y)-h/2)/(h*0.4)
			if u*u+v*v <= 1 {
				m.Pix[y*m.Stride+x] = 255
			}
		}
	}
	return m
}

// BenchmarkDecodeLargePNG is a cut-out job's work without the model on
// the largest photos the limits let through: decoding to the
// working size, then the cut-out and its PNG, with the peak Go heap. The
// baseline is the standard decoder alone at full size, the floor of any
// decode. The 0.38 MB 7000² 16-bit PNG that took the worker to 1 GB of
// heap is refused from its header (TestInspectCapsTheMemoryDecodingTakes).
func BenchmarkDecodeLargePNG(b *testing.B) {
	data := bigPNG(b, 7000, 7000, 8, 2) // 196 MB of pixels once decoded
	b.Run("baseline=image.Decode", func(b *testing.B) {
		peak := benchmem.WatchHeap()
		for b.Loop() {
			if _, _, err := image.Decode(bytes.NewReader(data)); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(peak()/(1<<20), "peak-heap-MiB")
	})
	b.Run("product=Decode+RenderCutout", func(b *testing.B) {
		peak := benchmem.WatchHeap()
		for b.Loop() {
			img, _, err := pipeline.Decode(data, domain.MaxCutoutSide, pipeline.Filter)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := pipeline.RenderCutout(img, ellipse(img.Rect)); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(peak()/(1<<20), "peak-heap-MiB")
	})
}
