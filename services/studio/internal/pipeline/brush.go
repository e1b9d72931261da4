package pipeline

import (
	"fmt"
	"image"
	"math"

	"uplift.dev/studio/internal/domain"
)

// The owner's touch-ups are kept as a layer of their own, apart from the
// photo's mask: the mask's plan-dependent refinement (hole recovery, a
// beta feature) is made again for each job under the owner's plan of the
// moment, and the touch-ups are laid over it, so a plan change applies at
// once and never undoes what the owner painted.
const (
	// EditNone is a pixel the owner has not touched.
	EditNone = 0
	// EditRemove is a pixel a remove stroke covered last.
	EditRemove = 1
	// EditKeep is a pixel a keep stroke covered last.
	EditKeep = 255
)

// PaintStrokes paints the owner's touch-up strokes into the edits layer,
// in order (a later stroke wins where strokes overlap). Each stroke is a
// capsule (a disc swept along each segment), filled one row span at a
// time, so the cost is the painted area, not the area times the number
// of points.
func PaintStrokes(edits *image.Gray, strokes []domain.Stroke) {
	w, h := edits.Rect.Dx(), edits.Rect.Dy()
	for _, s := range strokes {
		v := uint8(EditRemove)
		if s.Keep {
			v = EditKeep
		}
		r := s.Radius * float64(w)
		pts := s.Points
		if len(pts) == 1 {
			pts = append(pts, pts[0])
		}
		for i := 1; i < len(pts); i++ {
			ax, ay := pts[i-1][0]*float64(w), pts[i-1][1]*float64(h)
			bx, by := pts[i][0]*float64(w), pts[i][1]*float64(h)
			paintCapsule(edits, w, h, ax, ay, bx, by, r, v)
		}
	}
}

// ApplyEdits lays the edits layer over a finished mask: a kept pixel
// becomes fully opaque (255), a removed one fully transparent. The brush
// has a hard edge on purpose: a pixel the owner kept is exactly 255, so
// the studio image shows the photo's own pixel there, unaltered. A layer
// of another size (a different photo) is refused.
func ApplyEdits(mask, edits *image.Gray) error {
	if edits.Rect != mask.Rect {
		return fmt.Errorf("edits %v for a mask %v", edits.Rect, mask.Rect)
	}
	w, h := mask.Rect.Dx(), mask.Rect.Dy()
	for y := 0; y < h; y++ {
		row, e := mask.Pix[y*mask.Stride:y*mask.Stride+w], edits.Pix[y*edits.Stride:y*edits.Stride+w]
		for x, v := range e {
			switch v {
			case EditKeep:
				row[x] = 255
			case EditRemove:
				row[x] = 0
			}
		}
	}
	return nil
}

// paintCapsule sets every pixel whose centre lies within r of the segment
// A–B to v.
func paintCapsule(layer *image.Gray, w, h int, ax, ay, bx, by, r float64, v uint8) {
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
		row := layer.Pix[y*layer.Stride:]
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
