package pipeline

import "image"

// The product and its remnants. The model's mask can hold more than the
// product: the faint ghost of a second object it half saw (a cup beside a
// tin: cut away, but a blob at a third of full alpha stays where it
// stood), specks of the backdrop, haze beyond the product's edge. Each is
// invisible in the model's eyes (below half alpha) or small and far from
// the product, yet a pale blob in the cut-out and, worse, counted by the
// framing, which then puts the product off-centre in every studio image
// and preset. KeepProduct keeps the product (its main part and the other
// objects of the photo that are large or close to it, such as the second
// chair of a pair) and clears everything else.

const (
	// productCore is the alpha from which a pixel is the product's for
	// certain: the mask's own threshold (IoU is counted at it, and the
	// model's soft ramp crosses it at the object's edge).
	productCore = 128
	// minPartShare: a part at least this share of the main part's area is
	// an object of its own (the second of two chairs, one of five bottles)
	// wherever it is.
	minPartShare = 0.1
	// nearShare: a smaller part within this share of the main part's
	// size (the longer side of its box) belongs with it (a bottle's cap, a
	// cable's far end, a handle the model saw in pieces).
	nearShare = 0.1
)

// KeepProduct clears, in place, every pixel of the mask that is not the
// product's and reports how many it cleared. The product's parts are the
// 8-connected regions at productCore or more; the largest is the main
// part, and a part is kept when it is at least minPartShare of its area
// or within nearShare of its size from it. A pixel under productCore is
// kept only on the soft edge of a kept part (within edge pixels of it):
// the faint ghost of a removed object, and haze off the edge, go.
func KeepProduct(mask *image.Gray, edge int) int {
	w, h := mask.Rect.Dx(), mask.Rect.Dy()
	if w == 0 || h == 0 {
		return 0
	}
	label := make([]int32, w*h)
	var areas []int
	var stack []int
	for start := range label {
		if label[start] != 0 || mask.Pix[(start/w)*mask.Stride+start%w] < productCore {
			continue
		}
		id := int32(len(areas) + 1)
		area := 0
		label[start] = id
		stack = append(stack[:0], start)
		for len(stack) > 0 {
			p := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			area++
			x, y := p%w, p/w
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					qx, qy := x+dx, y+dy
					if qx < 0 || qy < 0 || qx >= w || qy >= h {
						continue
					}
					q := qy*w + qx
					if label[q] == 0 && mask.Pix[qy*mask.Stride+qx] >= productCore {
						label[q] = id
						stack = append(stack, q)
					}
				}
			}
		}
		areas = append(areas, area)
	}
	keep := make([]bool, len(areas)+1)
	if len(areas) > 0 {
		main := 0
		for i, a := range areas {
			if a > areas[main] {
				main = i
			}
		}
		box := partBox(label, w, h, int32(main+1))
		near := int(nearShare*float64(max(box.Dx(), box.Dy())) + 0.5)
		dist := chamfer(w, h, func(i int) bool { return label[i] == int32(main+1) }, near+1)
		for i, a := range areas {
			keep[i+1] = i == main || float64(a) >= minPartShare*float64(areas[main])
		}
		for i, d := range dist {
			if l := label[i]; l != 0 && !keep[l] && int(d) <= near {
				keep[l] = true
			}
		}
	}
	// The soft edge: pixels within edge of a kept part.
	dist := chamfer(w, h, func(i int) bool { return keep[label[i]] && label[i] != 0 }, edge+1)
	cleared := 0
	for y := 0; y < h; y++ {
		row := mask.Pix[y*mask.Stride : y*mask.Stride+w]
		for x, v := range row {
			if v == 0 {
				continue
			}
			i := y*w + x
			if l := label[i]; (l != 0 && !keep[l]) || (l == 0 && int(dist[i]) > edge) {
				row[x] = 0
				cleared++
			}
		}
	}
	return cleared
}

// partBox is the bounding box of the pixels labelled id.
func partBox(label []int32, w, h int, id int32) image.Rectangle {
	minX, minY, maxX, maxY := w, h, -1, -1
	for i, l := range label {
		if l == id {
			x, y := i%w, i/w
			minX, maxX = min(minX, x), max(maxX, x)
			minY, maxY = min(minY, y), max(maxY, y)
		}
	}
	return image.Rect(minX, minY, maxX+1, maxY+1)
}

// chamfer is each pixel's distance in pixels (8-connected steps, the
// diagonal counting as 1: the chessboard distance) to the nearest pixel
// where in is true, capped at limit (so it fits a uint16 and the passes
// stop counting early): two passes, O(pixels).
func chamfer(w, h int, in func(i int) bool, limit int) []uint16 {
	limit = min(limit, 65534)
	d := make([]uint16, w*h)
	for i := range d {
		if !in(i) {
			d[i] = uint16(limit)
		}
	}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			i := y*w + x
			v := d[i]
			if v == 0 {
				continue
			}
			if x > 0 {
				v = min(v, d[i-1]+1)
			}
			if y > 0 {
				v = min(v, d[i-w]+1)
				if x > 0 {
					v = min(v, d[i-w-1]+1)
				}
				if x < w-1 {
					v = min(v, d[i-w+1]+1)
				}
			}
			d[i] = v
		}
	}
	for y := h - 1; y >= 0; y-- {
		for x := w - 1; x >= 0; x-- {
			i := y*w + x
			v := d[i]
			if v == 0 {
				continue
			}
			if x < w-1 {
				v = min(v, d[i+1]+1)
			}
			if y < h-1 {
				v = min(v, d[i+w]+1)
				if x < w-1 {
					v = min(v, d[i+w+1]+1)
				}
				if x > 0 {
					v = min(v, d[i+w-1]+1)
				}
			}
			d[i] = v
		}
	}
	return d
}
