package pipeline

import "image"

// flood marks every pixel of a w×h image that the seeds reach through
// 4-connected pixels where in is true (the seeds themselves are marked
// whatever in says of them).
func flood(w, h int, seeds []int, in func(i int) bool) []bool {
	marked := make([]bool, w*h)
	stack := make([]int, 0, len(seeds))
	for _, s := range seeds {
		if !marked[s] {
			marked[s] = true
			stack = append(stack, s)
		}
	}
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		x, y := p%w, p/w
		for _, q := range [4][2]int{{x - 1, y}, {x + 1, y}, {x, y - 1}, {x, y + 1}} {
			if q[0] < 0 || q[1] < 0 || q[0] >= w || q[1] >= h {
				continue
			}
			j := q[1]*w + q[0]
			if !marked[j] && in(j) {
				marked[j] = true
				stack = append(stack, j)
			}
		}
	}
	return marked
}

// Outside is the backdrop a mask leaves around the product: the pixels
// under level that the photo's border reaches without crossing one at
// level or more (4-connected). What the mask encloses (a mug's handle
// filled or open) is not outside.
func Outside(mask *image.Gray, level uint8) []bool {
	w, h := mask.Rect.Dx(), mask.Rect.Dy()
	below := func(i int) bool { return mask.Pix[(i/w)*mask.Stride+i%w] < level }
	var seeds []int
	for y := range h {
		for x := range w {
			if (x == 0 || y == 0 || x == w-1 || y == h-1) && below(y*w+x) {
				seeds = append(seeds, y*w+x)
			}
		}
	}
	return flood(w, h, seeds, below)
}
