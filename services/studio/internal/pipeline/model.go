package pipeline

import (
	"image"

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
	small := image.NewNRGBA(image.Rect(0, 0, ModelSide, ModelSide))
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
	out := image.NewGray(image.Rect(0, 0, w, h))
	draw.BiLinear.Scale(out, out.Rect, small, small.Rect, draw.Src, nil)
	return out
}
