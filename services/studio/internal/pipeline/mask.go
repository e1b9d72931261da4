package pipeline

import (
	"image"
	"image/color"
	"math"
	"slices"
)

// Mask post-processing. u2netp's one known weakness on product photos is a
// cast shadow on a light backdrop: it takes the shadow for part of the
// product. SuppressShadow removes mask pixels that look like the backdrop
// in shade (the backdrop's own colour, only darker) and that reach the
// mask's edge through such pixels; Harden then turns the model's soft
// ramp into an alpha that is fully opaque inside the product.

// backdropColor estimates the backdrop from a band along the photo's border
// where the mask says "background": the per-channel median, so a product
// that touches the border does not skew it, and how much the band's luma
// varies (its median absolute deviation from the median). ok is false
// when too little of the border is background to tell.
func backdropColor(img *image.NRGBA, mask *image.Gray) (c color.NRGBA, spread float64, ok bool) {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	band := max(2, min(w, h)/32)
	var rs, gs, bs []uint8
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			if x >= band && x < w-band && y >= band && y < h-band {
				x = w - band - 1
				continue
			}
			if mask.Pix[y*mask.Stride+x] >= 32 {
				continue
			}
			i := y*img.Stride + x*4
			rs, gs, bs = append(rs, img.Pix[i]), append(gs, img.Pix[i+1]), append(bs, img.Pix[i+2])
		}
	}
	if len(rs) < 64 {
		return color.NRGBA{}, 0, false
	}
	ls := make([]float64, len(rs))
	for i := range rs {
		ls[i] = luma(float64(rs[i]), float64(gs[i]), float64(bs[i]))
	}
	slices.Sort(ls)
	ml := ls[len(ls)/2]
	for i, l := range ls {
		ls[i] = math.Abs(l - ml)
	}
	slices.Sort(ls)
	med := func(v []uint8) uint8 { slices.Sort(v); return v[len(v)/2] }
	return color.NRGBA{med(rs), med(gs), med(bs), 255}, ls[len(ls)/2], true
}

func luma(r, g, b float64) float64 { return 0.299*r + 0.587*g + 0.114*b }

// LightBackdropLuma is how light (0–255) the backdrop must be for shadow
// suppression: light paper and mid-toned wood (luma about 130) qualify; on
// dark backdrops the model already leaves the shadow out, and a dark
// product could pass for shade. (It was 150 until the mug on wood showed
// the model taking a wood backdrop's shadow whole: IoU 0.83, 0.99 now.)
const LightBackdropLuma = 110

// shadeTolerance is how far (a share of full scale, per channel) a pixel
// may be from the backdrop's colour darkened by a common factor and still
// count as the backdrop in shade.
const shadeTolerance = 0.07

// maxBackdropSpread is how much (median absolute deviation of luma, 0–255)
// the backdrop along the border may vary for shadow suppression to run:
// half the shade test's tolerance, so the backdrop's own variety stays
// well inside it. A studio sweep (paper, a plain wall, wood) varies by a
// few levels; a room or a kitchen behind the product varies by far more,
// and there "the backdrop's colour in shade" matches the product itself
// (a translucent bottle, a wicker basket, a mug's shaded side).
const maxBackdropSpread = shadeTolerance * 255 / 2

// shadowLike reports whether a pixel is the backdrop colour in shade: darker
// by a common factor on every channel (within tolerance), not near-black.
// It returns the darkening factor k (pixel ≈ k × backdrop) and whether the
// pixel is shade at all (k below 0.9: a vignette is not a shadow).
func shadowLike(p []uint8, bg color.NRGBA, bgLuma float64) (float64, bool) {
	r, g, b := float64(p[0]), float64(p[1]), float64(p[2])
	l := luma(r, g, b)
	k := l / bgLuma
	if k >= 0.9 || k < 0.2 {
		return k, false
	}
	for _, pair := range [3][2]float64{{r, float64(bg.R)}, {g, float64(bg.G)}, {b, float64(bg.B)}} {
		if d := pair[0]/255 - k*pair[1]/255; d > shadeTolerance || d < -shadeTolerance {
			return k, false
		}
	}
	return k, true
}

// shadeFactor is the cast shadow's own depth: the median darkening of the
// shade just outside the mask (where the model left the shadow out), or,
// when there is none, of the shade inside it (the model took it all).
// ok is false when there is no shade at all.
//
// "Just outside" starts past the model's soft edge (EdgeWidth): the
// product's antialiased outline, mostly backdrop with a little of the
// product, is the backdrop slightly darker (about 0.87) and lies wherever
// the model's ramp happens to cross 128. Counted as a shadow left out, it
// made a light label at 0.78 on a shadowless photo "shade" at some sizes
// and not others. The counts are in the model's own pixels (it sees the
// photo at ModelSide²), so a rule means the same at 512² as at 3840².
func shadeFactor(img *image.NRGBA, mask *image.Gray, bg color.NRGBA, bgLuma float64) (float64, bool) {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	edge := EdgeWidth(w, h)
	near := chamfer(w, h, func(i int) bool { return mask.Pix[(i/w)*mask.Stride+i%w] >= 128 }, edge+1)
	var outside, inside []float64
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			i := y*img.Stride + x*4
			k, ok := shadowLike(img.Pix[i:i+3], bg, bgLuma)
			if !ok {
				continue
			}
			switch d := int(near[y*w+x]); {
			case d == 0:
				inside = append(inside, k)
			case d > edge:
				outside = append(outside, k)
			}
		}
	}
	modelPixels := func(n int) int { return max(1, n*w*h/(ModelSide*ModelSide)) }
	if len(outside) >= modelPixels(64) {
		slices.Sort(outside)
		return outside[len(outside)/2], true
	}
	if len(inside) < modelPixels(16) {
		return 0, false
	}
	// Without shade outside to confirm it, only deep shade inside counts: a
	// light label or a pale product in soft light is lighter than this.
	slices.Sort(inside)
	k := inside[len(inside)/2]
	return k, k <= maxInsideShade
}

// maxInsideShade is the lightest shade taken for a cast shadow when the
// model left none of it outside the mask.
const maxInsideShade = 0.72

// SuppressShadow clears, in place, the mask's shadow pixels (see above) and
// reports how many it cleared. It does nothing when the backdrop is not
// light or not uniform (see maxBackdropSpread), or when the "shadow"
// would be most of the mask (then it is more likely a grey product than a
// shadow).
func SuppressShadow(img *image.NRGBA, mask *image.Gray) int {
	bg, spread, ok := backdropColor(img, mask)
	if !ok || spread > maxBackdropSpread {
		return 0
	}
	bgLuma := luma(float64(bg.R), float64(bg.G), float64(bg.B))
	if bgLuma < LightBackdropLuma {
		return 0
	}
	ks, ok := shadeFactor(img, mask, bg, bgLuma)
	if !ok {
		return 0
	}
	// Inside the mask, shade counts as shadow only at the shadow's own depth
	// (a light label on a shaded product is lighter than any cast shadow).
	shadow := func(p []uint8) bool {
		k, ok := shadowLike(p, bg, bgLuma)
		return ok && k > ks-0.12 && k < ks+0.12
	}
	w, h := img.Rect.Dx(), img.Rect.Dy()
	const inside = 128
	cand := make([]bool, w*h)
	area := 0
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			if mask.Pix[y*mask.Stride+x] < inside {
				continue
			}
			area++
			i := y*img.Stride + x*4
			cand[y*w+x] = shadow(img.Pix[i : i+3])
		}
	}
	// Seeds: candidates on the mask's edge; the shadow is what the flood
	// reaches from them.
	out := func(x, y int) bool {
		return x < 0 || y < 0 || x >= w || y >= h || mask.Pix[y*mask.Stride+x] < inside
	}
	var seeds []int
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			if cand[y*w+x] && (out(x-1, y) || out(x+1, y) || out(x, y-1) || out(x, y+1)) {
				seeds = append(seeds, y*w+x)
			}
		}
	}
	removed := flood(w, h, seeds, func(i int) bool { return cand[i] })
	n := 0
	for _, r := range removed {
		if r {
			n++
		}
	}
	if n == 0 || n*2 > area {
		return 0
	}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			if removed[y*w+x] {
				mask.Pix[y*mask.Stride+x] = 0
			}
		}
	}
	return n
}

// Harden maps the model's soft mask to the cut-out's alpha: values up to lo
// become transparent, from hi fully opaque, linear between. The model's
// confidence inside a product is rarely a clean 255; without this the
// product would be faintly see-through.
func Harden(mask *image.Gray, lo, hi uint8) {
	for i, v := range mask.Pix {
		switch {
		case v <= lo:
			mask.Pix[i] = 0
		case v >= hi:
			mask.Pix[i] = 255
		default:
			mask.Pix[i] = uint8((int(v-lo)*255 + int(hi-lo)/2) / int(hi-lo))
		}
	}
}

// Refine is the post-processing of a model mask: the shadow first, so the
// backdrop's colours include its shade when the holes are looked for,
// then Finish. The worker keeps a photo's mask after SuppressShadow (it
// does not depend on the plan) and finishes a copy for each job.
func Refine(img *image.NRGBA, mask *image.Gray, holes bool) {
	SuppressShadow(img, mask)
	Finish(img, mask, holes)
}

// Finish turns a mask after shadow suppression into the cut-out's alpha:
// holes opened (holes turns hole recovery on, a beta feature on for paid
// plans first: domain.BetaHoleRecovery), the soft mask hardened, then
// only the product kept (KeepProduct), so neither the cut-out nor the
// framing of a studio image or preset holds a remnant of anything else.
func Finish(img *image.NRGBA, mask *image.Gray, holes bool) {
	if holes {
		RecoverHoles(img, mask)
	}
	Harden(mask, 48, 208)
	KeepProduct(mask, EdgeWidth(mask.Rect.Dx(), mask.Rect.Dy()))
}

// EdgeWidth is how wide, in a w×h photo's pixels, the model's soft edge
// is: two of its own pixels (it sees the photo at ModelSide), scaled up.
func EdgeWidth(w, h int) int {
	return max(2, (2*max(w, h)+ModelSide-1)/ModelSide)
}
