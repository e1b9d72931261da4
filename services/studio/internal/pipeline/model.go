package pipeline

import (
	"image"
	"runtime"
	"sync"

	"golang.org/x/image/draw"
)

// ModelSide is u2netp's input and output side.
const ModelSide = 320

// The ImageNet mean and standard deviation U²-Net was trained with.
var (
	modelMean = [3]float32{0.485, 0.456, 0.406}
	modelStd  = [3]float32{0.229, 0.224, 0.225}
)

// ModelInput turns a photo into u2netp's input tensor (1×3×320×320, planar
// RGB): resized bilinearly, scaled by the brightest value as the model's
// reference code does, then normalised per channel.
func ModelInput(img *image.NRGBA) []float32 {
	// An *image.RGBA destination takes draw's byte fast path (an NRGBA one
	// goes through a colour conversion per pixel); a decoded photo is
	// opaque, so the bytes are the same.
	small := image.NewRGBA(image.Rect(0, 0, ModelSide, ModelSide))
	draw.BiLinear.Scale(small, small.Rect, img, img.Rect, draw.Src, nil)
	var peak uint8 = 1
	for i := 0; i < len(small.Pix); i += 4 {
		peak = max(peak, small.Pix[i], small.Pix[i+1], small.Pix[i+2])
	}
	const plane = ModelSide * ModelSide
	out := make([]float32, 3*plane)
	for p := 0; p < plane; p++ {
		for c := 0; c < 3; c++ {
			v := float32(small.Pix[p*4+c]) / float32(peak)
			out[c*plane+p] = (v - modelMean[c]) / modelStd[c]
		}
	}
	return out
}

// ModelMask turns u2netp's first output (320×320 saliency) into a w×h mask:
// stretched to the full 0–255 range (as the reference code does) and
// resized bilinearly.
func ModelMask(pred []float32, w, h int) *image.Gray {
	lo, hi := pred[0], pred[0]
	for _, v := range pred {
		lo, hi = min(lo, v), max(hi, v)
	}
	span := hi - lo
	if span <= 0 {
		span = 1
	}
	small := image.NewGray(image.Rect(0, 0, ModelSide, ModelSide))
	for i, v := range pred[:ModelSide*ModelSide] {
		small.Pix[i] = uint8((v-lo)/span*255 + 0.5)
	}
	return upscaleGray(small, w, h)
}

// upscaleGray resizes a grey image bilinearly to w×h (not smaller), sampling at pixel
// centres as x/image/draw's BiLinear does. draw has no fast path for a
// *image.Gray destination (it goes through RGBA64 per pixel); this is the
// same arithmetic on bytes, with the weights of each column computed once
// and rows in parallel. For a 1024² mask it takes a few milliseconds
// instead of tens.
func upscaleGray(src *image.Gray, w, h int) *image.Gray {
	out := image.NewGray(image.Rect(0, 0, w, h))
	sw, sh := src.Rect.Dx(), src.Rect.Dy()
	if w < sw || h < sh {
		// Shrinking filters over several source pixels: draw does that.
		draw.BiLinear.Scale(out, out.Rect, src, src.Rect, draw.Src, nil)
		return out
	}
	type tap struct {
		i0, i1 int
		f      float32
	}
	taps := func(n, sn int) []tap {
		t := make([]tap, n)
		for d := range t {
			s := (float32(d)+0.5)*float32(sn)/float32(n) - 0.5
			s = max(0, min(s, float32(sn-1)))
			i0 := int(s)
			i1 := min(i0+1, sn-1)
			t[d] = tap{i0, i1, s - float32(i0)}
		}
		return t
	}
	xs, ys := taps(w, sw), taps(h, sh)
	parallelRows(h, func(y0, y1 int) {
		for y := y0; y < y1; y++ {
			ty := ys[y]
			r0 := src.Pix[ty.i0*src.Stride:]
			r1 := src.Pix[ty.i1*src.Stride:]
			row := out.Pix[y*out.Stride : y*out.Stride+w]
			for x, tx := range xs {
				a := float32(r0[tx.i0]) + (float32(r0[tx.i1])-float32(r0[tx.i0]))*tx.f
				b := float32(r1[tx.i0]) + (float32(r1[tx.i1])-float32(r1[tx.i0]))*tx.f
				row[x] = uint8(a + (b-a)*ty.f + 0.5)
			}
		}
	})
	return out
}

// parallelRows splits rows [0, h) across the cores.
func parallelRows(h int, fn func(y0, y1 int)) {
	n := min(runtime.GOMAXPROCS(0), max(1, h/64))
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn(h*i/n, h*(i+1)/n)
		}()
	}
	wg.Wait()
}
