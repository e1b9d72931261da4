package pipeline

import (
	"image"
	"math"

	"uplift.dev/studio/internal/domain"
)

// ApplyStrokes paints the owner's touch-up strokes into mask, in order:
// a keep stroke makes what it covers fully opaque (255), a remove stroke
// fully transparent (0). The brush has a hard edge on purpose: a pixel
// the owner kept is exactly 255, so the studio image shows the photo's own
// pixel there, unaltered. Each stroke is a capsule (a disc swept along
// each segment), filled one row span at a time, so the cost is the
// painted area, not the area times the number of points.
func ApplyStrokes(mask *image.Gray, strokes []domain.Stroke) {
	w, h := mask.Rect.Dx(), mask.Rect.Dy()
	for _, s := range strokes {
		v := uint8(0)
		if s.Keep {
			v = 255
		}
		r := s.Radius * float64(w)
		pts := s.Points
		if len(pts) == 1 {
			pts = append(pts, pts[0])
		}
		for i := 1; i < len(pts); i++ {
			ax, ay := pts[i-1][0]*float64(w), pts[i-1][1]*float64(h)
			bx, by := pts[i][0]*float64(w), pts[i][1]*float64(h)
			paintCapsule(mask, w, h, ax, ay, bx, by, r, v)
		}
	}
}

// paintCapsule sets every pixel whose centre lies within r of the segment
// A–B to v.
func paintCapsule(mask *image.Gray, w, h int, ax, ay, bx, by, r float64, v uint8) {
	y0 := max(0, int(math.Floor(min(ay, by)-r)))
	y1 := min(h-1, int(math.Ceil(max(ay, by)+r)))
	dx, dy := bx-ax, by-ay
	length := math.Hypot(dx, dy)
	for y := y0; y <= y1; y++ {
		yc := float64(y) + 0.5
		lo, hi := math.Inf(1), math.Inf(-1)
		grow := func(l, u float64) {
			if l <= u {
				lo, hi = min(lo, l), max(hi, u)
			}
		}
		grow(discSpan(ax, ay, r, yc))
		grow(discSpan(bx, by, r, yc))
		if length > 0 {
			ux, uy := dx/length, dy/length
			// Along the segment: 0 ≤ (X−A)·u ≤ length; across it: |(X−A)·n| ≤ r
			// with n = (−uy, ux); X = (x, yc). Both are linear in x.
			l1, u1 := linearSpan(ux, (yc-ay)*uy-ax*ux, 0, length)
			l2, u2 := linearSpan(-uy, (yc-ay)*ux+ax*uy, -r, r)
			grow(max(l1, l2), min(u1, u2))
		}
		if lo > hi {
			continue
		}
		xs := max(0, int(math.Ceil(lo-0.5)))
		xe := min(w-1, int(math.Floor(hi-0.5)))
		row := mask.Pix[y*mask.Stride:]
		for x := xs; x <= xe; x++ {
			row[x] = v
		}
	}
}

// discSpan is where the row at height yc crosses the disc at (cx, cy).
func discSpan(cx, cy, r, yc float64) (float64, float64) {
	d := yc - cy
	if math.Abs(d) > r {
		return 1, 0
	}
	half := math.Sqrt(r*r - d*d)
	return cx - half, cx + half
}

// linearSpan is the x for which lo ≤ a·x + b ≤ hi.
func linearSpan(a, b, lo, hi float64) (float64, float64) {
	if math.Abs(a) < 1e-12 {
		if b >= lo && b <= hi {
			return math.Inf(-1), math.Inf(1)
		}
		return 1, 0
	}
	x0, x1 := (lo-b)/a, (hi-b)/a
	if x0 > x1 {
		x0, x1 = x1, x0
	}
	return x0, x1
}
