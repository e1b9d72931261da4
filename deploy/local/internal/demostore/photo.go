package demostore

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"math"
	"strconv"
	"strings"
)

// photo draws a product photo for the product studio to pick from the
// catalogue: a tea tin in the product's colour, with a lighter label and a
// lid, on light paper with a soft vignette, 800×800 JPEG. The pages keep
// their flat SVG swatches; the structured data names this photo.
func photo(hex string) []byte {
	const size = 800
	c := parseHex(hex)
	img := image.NewRGBA(image.Rect(0, 0, size, size))
	for y := 0; y < size; y++ {
		for x := 0; x < size; x++ {
			u, v := (float64(x)+0.5)/size, (float64(y)+0.5)/size
			vig := 1 - 0.12*((u-0.5)*(u-0.5)+(v-0.5)*(v-0.5))
			px := color.RGBA{uint8(238 * vig), uint8(235 * vig), uint8(229 * vig), 255}
			dx := math.Abs(u - 0.5)
			switch {
			case v > 0.22 && v < 0.30 && dx < 0.19: // the lid, darker
				px = shade(c, 0.7-0.3*dx)
			case v >= 0.30 && v < 0.80 && dx < 0.17: // the tin, lit from the left
				px = shade(c, 1.05-0.6*(u-0.33))
				if v > 0.45 && v < 0.62 && dx < 0.12 { // the label
					px = color.RGBA{245, 240, 225, 255}
				}
			}
			img.SetRGBA(x, y, px)
		}
	}
	var b bytes.Buffer
	_ = jpeg.Encode(&b, img, &jpeg.Options{Quality: 90})
	return b.Bytes()
}

func parseHex(hex string) [3]float64 {
	v, err := strconv.ParseUint(strings.TrimPrefix(hex, "#"), 16, 32)
	if err != nil {
		return [3]float64{61, 107, 79}
	}
	return [3]float64{float64(v >> 16 & 0xff), float64(v >> 8 & 0xff), float64(v & 0xff)}
}

func shade(c [3]float64, k float64) color.RGBA {
	f := func(x float64) uint8 { return uint8(math.Max(0, math.Min(255, x*k))) }
	return color.RGBA{f(c[0]), f(c[1]), f(c[2]), 255}
}
