// Package testphotos draws the studio's test photos: products of several
// shapes (two with holes) on plain, textured and shadowed backdrops, each
// with its exact mask, so mask quality is measured against a known truth
// (IoU) rather than judged by eye. Deterministic: the same scene always
// gives the same pixels.
package testphotos

import (
	"fmt"
	"image"
	"math"
	"math/rand/v2"

	"uplift.dev/studio/internal/pipeline"
)

// Shapes and backdrops the set is made of.
var (
	Shapes    = []string{"bottle", "mug", "shoe", "box"}
	Backdrops = []string{"plain", "fabric", "paper-shadow", "wood-shadow"}
)

// Scene is one test photo.
type Scene struct {
	Shape, Backdrop string
}

// Name is "shape/backdrop".
func (s Scene) Name() string { return s.Shape + "/" + s.Backdrop }

// CastShadow reports whether the scene has a hard cast shadow.
func (s Scene) CastShadow() bool { return s.Backdrop == "paper-shadow" || s.Backdrop == "wood-shadow" }

// All is every shape on every backdrop: 16 scenes.
func All() []Scene {
	var out []Scene
	for _, b := range Backdrops {
		for _, s := range Shapes {
			out = append(out, Scene{s, b})
		}
	}
	return out
}

// inside reports whether unit coordinates (u, v) in [0,1]² are on the shape.
func inside(shape string, u, v float64) bool {
	switch shape {
	case "bottle":
		// body with rounded shoulders, a neck and a cap
		if v > 0.42 && v < 0.88 && math.Abs(u-0.5) < 0.14 {
			return true
		}
		if v > 0.30 && v <= 0.42 {
			w := 0.05 + 0.09*math.Sqrt(max(0, (v-0.30)/0.12))
			return math.Abs(u-0.5) < w
		}
		return v > 0.16 && v <= 0.30 && math.Abs(u-0.5) < 0.05
	case "mug":
		body := u > 0.28 && u < 0.60 && v > 0.34 && v < 0.78 && !(v > 0.74 && (u < 0.30 || u > 0.58))
		// handle: a ring on the right, its hole showing the backdrop
		dx, dy := (u-0.60)/0.13, (v-0.55)/0.15
		r := math.Hypot(dx, dy)
		handle := u > 0.59 && r < 1 && r > 0.55
		return body || handle
	case "shoe":
		e := func(cx, cy, rx, ry float64) bool { return sq((u-cx)/rx)+sq((v-cy)/ry) < 1 }
		return e(0.52, 0.66, 0.30, 0.09) || e(0.34, 0.55, 0.13, 0.14) || (u > 0.30 && u < 0.78 && v > 0.62 && v < 0.72)
	case "box":
		// a box tilted by 12°
		a := 12 * math.Pi / 180
		x, y := u-0.5, v-0.56
		rx, ry := x*math.Cos(a)+y*math.Sin(a), -x*math.Sin(a)+y*math.Cos(a)
		return math.Abs(rx) < 0.2 && math.Abs(ry) < 0.16
	}
	panic("testphotos: unknown shape " + shape)
}

func sq(x float64) float64 { return x * x }

var base = map[string][3]float64{
	"bottle": {40, 140, 90}, "mug": {200, 50, 45}, "shoe": {40, 80, 190}, "box": {210, 140, 40},
}

// productColor shades the product: lit from the top left, with a label band
// (bottle, box) so it has detail of its own.
func productColor(shape string, u, v float64, rng *rand.Rand) [3]float64 {
	c := base[shape]
	shade := 0.75 + 0.45*(1-u) - 0.2*v
	if (shape == "bottle" && v > 0.55 && v < 0.70) || (shape == "box" && math.Abs(u-0.5) < 0.1 && math.Abs(v-0.56) < 0.06) {
		c = [3]float64{230, 225, 200}
	}
	var out [3]float64
	for i := range out {
		out[i] = c[i]*shade + rng.NormFloat64()*3
	}
	return out
}

func backdropColor(kind string, u, v float64, rng *rand.Rand) [3]float64 {
	switch kind {
	case "plain", "paper-shadow":
		vig := 1 - 0.12*(sq(u-0.5)+sq(v-0.5))
		n := rng.NormFloat64() * 2
		return [3]float64{238*vig + n, 235*vig + n, 229*vig + n}
	case "fabric":
		check := (int(u*14)+int(v*14))%2 == 0
		stripe := math.Mod(u*60+v*20, 1) < 0.3
		c := [3]float64{120, 150, 170}
		if check {
			c = [3]float64{190, 170, 120}
		}
		if stripe {
			c = [3]float64{c[0] * 0.8, c[1] * 0.85, c[2] * 0.9}
		}
		for i := range c {
			c[i] += rng.NormFloat64() * 10
		}
		return c
	case "wood-shadow":
		g := math.Sin(v*90+6*math.Sin(u*7)) * 0.5
		k := 1 + 0.12*g
		n := rng.NormFloat64() * 3
		return [3]float64{165*k + n, 120*k + n, 80*k + n}
	}
	panic(fmt.Sprintf("testphotos: unknown backdrop %q", kind))
}

// Generate draws the scene at size×size: the photo and its exact mask (255 on
// the product at the pixel's centre, else 0). Edges are antialiased by 4×4
// supersampling, as a camera would blur them.
func Generate(s Scene, size int) (*image.NRGBA, *image.Gray) {
	rng := rand.New(rand.NewPCG(uint64(len(s.Name())), 42))
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	truth := image.NewGray(img.Rect)
	const ss = 4
	// the cast shadow: the shape pushed right and down and squashed
	shadowAt := func(u, v float64) bool {
		if !s.CastShadow() {
			return false
		}
		return inside(s.Shape, u-0.08-0.25*(0.8-v), 0.8-(0.8-v)/0.7+0.02)
	}
	for y := 0; y < size; y++ {
		for x := 0; x < size; x++ {
			var acc [3]float64
			for sy := 0; sy < ss; sy++ {
				for sx := 0; sx < ss; sx++ {
					u := (float64(x) + (float64(sx)+0.5)/ss) / float64(size)
					v := (float64(y) + (float64(sy)+0.5)/ss) / float64(size)
					var c [3]float64
					if inside(s.Shape, u, v) {
						c = productColor(s.Shape, u, v, rng)
					} else {
						c = backdropColor(s.Backdrop, u, v, rng)
						if shadowAt(u, v) {
							for i := range c {
								c[i] *= 0.58
							}
						}
					}
					for i := range acc {
						acc[i] += c[i]
					}
				}
			}
			p := img.Pix[y*img.Stride+x*4:]
			for i := range 3 {
				p[i] = uint8(math.Round(min(255, max(0, acc[i]/(ss*ss)))))
			}
			p[3] = 255
			if inside(s.Shape, (float64(x)+0.5)/float64(size), (float64(y)+0.5)/float64(size)) {
				truth.Pix[y*truth.Stride+x] = 255
			}
		}
	}
	return img, truth
}

// IoU is the intersection over union of the predicted mask (alpha ≥ 128)
// and the truth.
func IoU(pred, truth *image.Gray) float64 {
	var inter, union int
	for i, t := range truth.Pix {
		p := pred.Pix[i] >= 128
		g := t >= 128
		if p && g {
			inter++
		}
		if p || g {
			union++
		}
	}
	if union == 0 {
		return 1
	}
	return float64(inter) / float64(union)
}

// Filled is the truth with every enclosed hole filled, as u2netp returns a
// mug: the backdrop not reachable from the border becomes "product".
func Filled(truth *image.Gray) *image.Gray {
	out := image.NewGray(truth.Rect)
	for i, o := range pipeline.Outside(truth, 1) {
		if !o {
			out.Pix[i] = 255
		}
	}
	return out
}
