package domain

import (
	"fmt"
	"math"
)

// Stroke is one stroke of the touch-up brush, in fractions of the photo's
// width and height so it does not depend on the size the owner saw it at.
type Stroke struct {
	// Keep paints the product in (fully opaque); otherwise the stroke
	// removes (fully transparent).
	Keep bool
	// Radius is a fraction of the photo's width.
	Radius float64
	// Points are the stroke's centre line, x and y in 0–1.
	Points [][2]float64
}

// Bounds of one touch-up, so a request cannot make the worker paint for
// minutes.
const (
	MaxStrokes      = 200
	MaxStrokePoints = 20000 // in all strokes together
	MaxBrushRadius  = 0.25
)

// ParseStrokes checks strokes as received: mode keep or remove, a radius
// above 0 and at most MaxBrushRadius, points as x, y pairs within the photo
// (a stroke may run a little past the edge; it is clipped).
func ParseStrokes(modes []string, radii []float32, points [][]float32) ([]Stroke, error) {
	bad := func(msg string) error { return &ValidationError{Field: "strokes", Message: msg} }
	if len(modes) == 0 {
		return nil, bad("Paint at least one stroke.")
	}
	if len(modes) > MaxStrokes {
		return nil, bad(fmt.Sprintf("At most %d strokes can be applied at once.", MaxStrokes))
	}
	total := 0
	out := make([]Stroke, len(modes))
	for i, m := range modes {
		switch m {
		case "keep":
			out[i].Keep = true
		case "remove":
		default:
			return nil, bad("A stroke's mode must be keep or remove.")
		}
		r := float64(radii[i])
		if !(r > 0 && r <= MaxBrushRadius) {
			return nil, bad(fmt.Sprintf("A brush radius must be above 0 and at most %g of the photo's width.", MaxBrushRadius))
		}
		out[i].Radius = r
		p := points[i]
		if len(p) < 2 || len(p)%2 != 0 {
			return nil, bad("A stroke needs x, y pairs of points.")
		}
		total += len(p) / 2
		if total > MaxStrokePoints {
			return nil, bad(fmt.Sprintf("At most %d points can be painted at once.", MaxStrokePoints))
		}
		for j := 0; j < len(p); j += 2 {
			x, y := float64(p[j]), float64(p[j+1])
			if math.IsNaN(x) || math.IsNaN(y) || x < -0.5 || x > 1.5 || y < -0.5 || y > 1.5 {
				return nil, bad("A stroke's points must lie on the photo (0 to 1 of its width and height).")
			}
			out[i].Points = append(out[i].Points, [2]float64{x, y})
		}
	}
	return out, nil
}
