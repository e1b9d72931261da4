package pipeline

import (
	"image"
	"image/color"
	"math"

	"github.com/disintegration/imaging"
)

// Filter is the one resampling filter the studio uses for the product, so
// "the source pixel after the same resize" is well defined (and tested).
var Filter = imaging.Lanczos

// visible is the alpha from which a mask pixel counts as product when
// trimming: fainter ones are the model's haze, not the product.
const visible = 16

// Trim is the bounding box of the mask's visible pixels; ErrNoProduct when
// there are none.
func Trim(mask *image.Gray) (image.Rectangle, error) {
	b := mask.Rect
	minX, minY, maxX, maxY := b.Max.X, b.Max.Y, b.Min.X-1, b.Min.Y-1
	for y := b.Min.Y; y < b.Max.Y; y++ {
		row := mask.Pix[(y-b.Min.Y)*mask.Stride:]
		for x := b.Min.X; x < b.Max.X; x++ {
			if row[x-b.Min.X] >= visible {
				minX, maxX = min(minX, x), max(maxX, x)
				minY, maxY = min(minY, y), max(maxY, y)
			}
		}
	}
	if maxX < minX {
		return image.Rectangle{}, ErrNoProduct
	}
	return image.Rect(minX, minY, maxX+1, maxY+1), nil
}

// Cutout is the product on a transparent background: the photo's own
// colours with the mask as alpha, in the photo's own frame (so it lines up
// with the photo in the before/after view and in the owner's other tools)
// and, if its longer side exceeds maxSide, scaled down to it. A fully
// transparent pixel keeps no colour (0, 0, 0, 0): the backdrop's grain
// under it would be invisible yet cost the PNG most of its size and its
// compression most of its time (a 1024² photo's PNG took 4× as long).
func Cutout(img *image.NRGBA, mask *image.Gray, maxSide int) (*image.NRGBA, error) {
	if _, err := Trim(mask); err != nil {
		return nil, err
	}
	w, h := img.Rect.Dx(), img.Rect.Dy()
	out := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		src := img.Pix[y*img.Stride:]
		m := mask.Pix[y*mask.Stride:]
		dst := out.Pix[y*out.Stride:]
		for x := 0; x < w; x++ {
			if a := m[x]; a != 0 {
				copy(dst[x*4:x*4+3], src[x*4:x*4+3])
				dst[x*4+3] = a
			}
		}
	}
	if s := max(w, h); s > maxSide {
		k := float64(maxSide) / float64(s)
		out = imaging.Resize(out, max(1, int(math.Round(float64(w)*k))), max(1, int(math.Round(float64(h)*k))), Filter)
	}
	return out, nil
}

// Layout says where the product went on a studio canvas: the source rectangle
// (the trimmed box) and the rectangle it was resized into.
type Layout struct {
	Source, Placed image.Rectangle
}

// Place fits the trimmed box into a w×h canvas, taking at most fill of its
// width and height, centred.
func Place(box image.Rectangle, w, h int, fill float64) image.Rectangle {
	k := math.Min(fill*float64(w)/float64(box.Dx()), fill*float64(h)/float64(box.Dy()))
	tw := max(1, int(math.Round(float64(box.Dx())*k)))
	th := max(1, int(math.Round(float64(box.Dy())*k)))
	x, y := (w-tw)/2, (h-th)/2
	return image.Rect(x, y, x+tw, y+th)
}

// Studio composes the studio image: the trimmed product centred on a w×h
// backdrop, taking at most fill of it, over a soft contact shadow (unless
// shadow is false). The product's pixels are never changed: the product's
// colours are resized on their own (as an opaque image) with Filter, the
// mask with the same filter, and wherever the resized mask is fully opaque
// the output is exactly the resized colour.
func Studio(img *image.NRGBA, mask *image.Gray, w, h int, fill float64, backdrop color.NRGBA, shadow bool) (*image.NRGBA, Layout, error) {
	box, err := Trim(mask)
	if err != nil {
		return nil, Layout{}, err
	}
	placed := Place(box, w, h, fill)
	colour := imaging.Resize(opaque(img, box), placed.Dx(), placed.Dy(), Filter)
	alpha := resizeGray(mask.SubImage(box).(*image.Gray), placed.Dx(), placed.Dy())

	out := image.NewNRGBA(image.Rect(0, 0, w, h))
	fillColor(out, backdrop)
	if shadow {
		contactShadow(out, placed)
	}
	for y := 0; y < placed.Dy(); y++ {
		drow := out.Pix[(placed.Min.Y+y)*out.Stride+placed.Min.X*4:]
		crow := colour.Pix[y*colour.Stride:]
		arow := alpha.Pix[y*alpha.Stride:]
		for x := 0; x < placed.Dx(); x++ {
			a := uint32(arow[x])
			d, c := drow[x*4:x*4+3], crow[x*4:x*4+3]
			switch a {
			case 255:
				copy(d, c)
			case 0:
			default:
				for i := range 3 {
					d[i] = uint8((uint32(c[i])*a + uint32(d[i])*(255-a) + 127) / 255)
				}
			}
		}
	}
	return out, Layout{Source: box, Placed: placed}, nil
}

// opaque copies the box of img with alpha 255, so resizing it never lets the
// mask (or a transparent source) weigh the product's colours.
func opaque(img *image.NRGBA, box image.Rectangle) *image.NRGBA {
	out := image.NewNRGBA(image.Rect(0, 0, box.Dx(), box.Dy()))
	for y := 0; y < box.Dy(); y++ {
		src := img.Pix[(box.Min.Y+y)*img.Stride+box.Min.X*4 : (box.Min.Y+y)*img.Stride+box.Max.X*4]
		dst := out.Pix[y*out.Stride : y*out.Stride+box.Dx()*4]
		copy(dst, src)
		for i := 3; i < len(dst); i += 4 {
			dst[i] = 255
		}
	}
	return out
}

// resizeGray resizes a mask with Filter. imaging works on NRGBA, so the mask
// travels as an opaque grey picture and comes back from its red channel.
func resizeGray(m *image.Gray, w, h int) *image.Gray {
	b := m.Bounds()
	tmp := image.NewNRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	for y := 0; y < b.Dy(); y++ {
		row := m.Pix[y*m.Stride:]
		dst := tmp.Pix[y*tmp.Stride:]
		for x := 0; x < b.Dx(); x++ {
			v := row[x]
			dst[x*4], dst[x*4+1], dst[x*4+2], dst[x*4+3] = v, v, v, 255
		}
	}
	r := imaging.Resize(tmp, w, h, Filter)
	out := image.NewGray(image.Rect(0, 0, w, h))
	for i := range out.Pix {
		out.Pix[i] = r.Pix[i*4]
	}
	return out
}

func fillColor(img *image.NRGBA, c color.NRGBA) {
	for i := 0; i < len(img.Pix); i += 4 {
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = c.R, c.G, c.B, 255
	}
}

// contactShadow darkens the backdrop in a soft ellipse under the product's
// base, where it would touch the floor: a gaussian falloff, at most 35 %
// darker, as wide as the product and a sliver tall.
func contactShadow(img *image.NRGBA, placed image.Rectangle) {
	cx := float64(placed.Min.X+placed.Max.X) / 2
	cy := float64(placed.Max.Y)
	rx := math.Max(4, 0.5*float64(placed.Dx()))
	ry := math.Max(3, 0.045*float64(placed.Dy()))
	const strength = 0.35
	b := img.Rect
	x0, x1 := max(b.Min.X, int(cx-2*rx)), min(b.Max.X, int(cx+2*rx)+1)
	y0, y1 := max(b.Min.Y, int(cy-2*ry)), min(b.Max.Y, int(cy+2*ry)+1)
	for y := y0; y < y1; y++ {
		dy := (float64(y) + 0.5 - cy) / ry
		for x := x0; x < x1; x++ {
			dx := (float64(x) + 0.5 - cx) / rx
			k := strength * math.Exp(-2*(dx*dx+dy*dy))
			if k < 0.004 {
				continue
			}
			p := img.Pix[(y-b.Min.Y)*img.Stride+(x-b.Min.X)*4:]
			for i := range 3 {
				p[i] = uint8(float64(p[i])*(1-k) + 0.5)
			}
		}
	}
}
