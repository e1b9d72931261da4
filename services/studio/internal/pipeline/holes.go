package pipeline

import "image"

// Hole recovery. u2netp fills small enclosed holes (a mug's handle, a
// ring, the gap in a bag's strap), so the backdrop shows through them in
// the cut-out. RecoverHoles finds regions inside the mask, enclosed by the
// product, whose colours are far likelier on the backdrop than on the
// product, and clears them.
//
// Colours are compared through two coarse histograms (4 bits a channel):
// the backdrop's from where the model is sure there is none of the
// product, the product's from where it is sure there is. A region must
// be enclosed (touch neither the mask's outside nor the photo's border),
// so a product's edge is never eaten into, and big enough to be a hole
// rather than a speck of colour.

const (
	holeBins = 16 * 16 * 16
	// minBackdropShare is how common on the backdrop a colour must be to
	// make a pixel a candidate.
	minBackdropShare = 0.0005
	// holeColoured is the share of a region's pixels that must be in
	// backdrop colours (see holeLikelihood) for it to be a hole.
	holeColoured = 0.8
	// holeLikelihood is how much likelier on the backdrop than on the
	// product a colour must be (as a share: bg/(bg+fg)) to count.
	holeLikelihood = 0.9
	// minHoleShare is the smallest hole, as a share of the photo's pixels.
	minHoleShare = 0.0002
	// maxHoleShare of the mask's area: a region larger than this is more
	// likely part of the product in the backdrop's colours.
	maxHoleShare = 0.25
)

func holeBin(p []uint8) int { return int(p[0]>>4)<<8 | int(p[1]>>4)<<4 | int(p[2]>>4) }

// RecoverHoles clears, in place, enclosed backdrop-coloured regions of the
// mask and reports how many pixels it cleared.
func RecoverHoles(img *image.NRGBA, mask *image.Gray) int {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	var bg, fg [holeBins]float64
	var nbg, nfg float64
	area := 0
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			m := mask.Pix[y*mask.Stride+x]
			if m >= 128 {
				area++
			}
			b := holeBin(img.Pix[y*img.Stride+x*4:])
			switch {
			case m <= 16:
				bg[b]++
				nbg++
			case m >= 250:
				fg[b]++
				nfg++
			}
		}
	}
	if nbg < 1000 || nfg < 1000 {
		return 0
	}
	// A candidate pixel is inside the mask in a colour the backdrop
	// really has (not a stray bin of noise).
	var onBackdrop [holeBins]bool
	for i := range onBackdrop {
		onBackdrop[i] = bg[i]/nbg >= minBackdropShare
	}
	cand := make([]bool, w*h)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			if mask.Pix[y*mask.Stride+x] >= 128 && onBackdrop[holeBin(img.Pix[y*img.Stride+x*4:])] {
				cand[y*w+x] = true
			}
		}
	}
	// The outside: the backdrop reachable from the photo's border without
	// crossing the mask. A region touching it is the product's edge, not a
	// hole; a region touching only mask pixels left open inside the
	// product (a hole the model half saw) is still enclosed.
	outside := Outside(mask, 128)
	minArea := max(16, int(minHoleShare*float64(w*h)))
	maxArea := int(maxHoleShare * float64(area))
	seen := make([]bool, w*h)
	var comp, stack []int
	cleared := 0
	for start := range cand {
		if !cand[start] || seen[start] {
			continue
		}
		comp, stack = comp[:0], append(stack[:0], start)
		seen[start] = true
		enclosed := true
		for len(stack) > 0 {
			p := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			comp = append(comp, p)
			x, y := p%w, p/w
			for _, q := range [4][2]int{{x - 1, y}, {x + 1, y}, {x, y - 1}, {x, y + 1}} {
				if q[0] < 0 || q[1] < 0 || q[0] >= w || q[1] >= h {
					enclosed = false
					continue
				}
				j := q[1]*w + q[0]
				if outside[j] {
					enclosed = false
				}
				if cand[j] && !seen[j] {
					seen[j] = true
					stack = append(stack, j)
				}
			}
		}
		if !enclosed || len(comp) < minArea || len(comp) > maxArea || !backdropColoured(img, mask, comp, w, &bg, &fg, nbg, nfg) {
			continue
		}
		for _, p := range comp {
			mask.Pix[(p/w)*mask.Stride+p%w] = 0
		}
		cleared += len(comp)
	}
	return cleared
}

// backdropColoured reports whether most of the region comp is in colours
// far likelier on the backdrop than on the rest of the product. The
// region's own pixels are taken out of the product's histogram first: a
// filled hole is, to the model, product, and would otherwise vouch for
// its own colours.
func backdropColoured(img *image.NRGBA, mask *image.Gray, comp []int, w int, bg, fg *[holeBins]float64, nbg, nfg float64) bool {
	own := map[int]float64{}
	var nown float64
	for _, p := range comp {
		x, y := p%w, p/w
		if mask.Pix[y*mask.Stride+x] >= 250 {
			own[holeBin(img.Pix[y*img.Stride+x*4:])]++
			nown++
		}
	}
	rest := max(1, nfg-nown)
	likely := 0
	for _, p := range comp {
		x, y := p%w, p/w
		b := holeBin(img.Pix[y*img.Stride+x*4:])
		pb, pf := bg[b]/nbg, (fg[b]-own[b])/rest
		if pb/(pb+pf) >= holeLikelihood {
			likely++
		}
	}
	return float64(likely) >= holeColoured*float64(len(comp))
}
