package pipeline

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"

	"github.com/gen2brain/webp"
	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"

	"github.com/disintegration/imaging"

	"uplift.dev/studio/internal/domain"
)

// Encode writes img as format ("png", "jpeg" or "webp") at the spec's
// default quality. JPEG has no alpha: a transparent image is flattened on
// white first.
func Encode(img *image.NRGBA, format string) ([]byte, error) {
	var buf bytes.Buffer
	var err error
	switch format {
	case "png":
		// Speed over the last few percent of size: cut-outs are large.
		err = (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&buf, img)
	case "jpeg":
		// An opaque NRGBA has the same bytes as an RGBA, and image/jpeg only
		// takes its fast path for *image.RGBA (else it calls At per pixel).
		flat := flatten(img, domain.White)
		rgba := &image.RGBA{Pix: flat.Pix, Stride: flat.Stride, Rect: flat.Rect}
		err = jpeg.Encode(&buf, rgba, &jpeg.Options{Quality: domain.DefaultQuality})
	case "webp":
		// gen2brain/webp runs libwebp compiled to WebAssembly (or the
		// system's libwebp when present): no cgo, nothing from apt.
		err = webp.Encode(&buf, img, webp.Options{Quality: domain.DefaultQuality, Method: 2})
	default:
		return nil, fmt.Errorf("encode: unknown format %q", format)
	}
	if err != nil {
		return nil, fmt.Errorf("encode %s: %w", format, err)
	}
	return buf.Bytes(), nil
}

// flatten lays img over c, for formats without alpha.
func flatten(img *image.NRGBA, c color.NRGBA) *image.NRGBA {
	opaqueAlready := true
	for i := 3; i < len(img.Pix); i += 4 {
		if img.Pix[i] != 255 {
			opaqueAlready = false
			break
		}
	}
	if opaqueAlready {
		return img
	}
	out := image.NewNRGBA(img.Rect)
	for i := 0; i < len(img.Pix); i += 4 {
		a := uint32(img.Pix[i+3])
		out.Pix[i] = uint8((uint32(img.Pix[i])*a + uint32(c.R)*(255-a) + 127) / 255)
		out.Pix[i+1] = uint8((uint32(img.Pix[i+1])*a + uint32(c.G)*(255-a) + 127) / 255)
		out.Pix[i+2] = uint8((uint32(img.Pix[i+2])*a + uint32(c.B)*(255-a) + 127) / 255)
		out.Pix[i+3] = 255
	}
	return out
}

// Reduce scales img down so its width is at most width (never up).
func Reduce(img *image.NRGBA, width int) *image.NRGBA {
	if img.Rect.Dx() <= width {
		return img
	}
	h := max(1, img.Rect.Dy()*width/img.Rect.Dx())
	return imaging.Resize(img, width, h, imaging.Linear)
}

// WatermarkText is written across the free plan's previews.
const WatermarkText = "UPLIFT PREVIEW"

// Watermark returns a reduced copy of img (PreviewWidth wide at most) with
// WatermarkText tiled across it in translucent white on a dark outline, so
// it shows on light and dark images alike and cannot be cropped away.
func Watermark(img *image.NRGBA) *image.NRGBA {
	small := Reduce(img, domain.PreviewWidth)
	out := image.NewNRGBA(small.Rect)
	copy(out.Pix, small.Pix)
	// Basicfont is 7×13 px; draw it once on a tile and scale the tile 2×.
	face := basicfont.Face7x13
	tw := font.MeasureString(face, WatermarkText).Ceil() + 4
	tile := image.NewNRGBA(image.Rect(0, 0, tw, 17))
	write := func(c color.NRGBA, dx, dy int) {
		d := font.Drawer{Dst: tile, Src: image.NewUniform(c), Face: face,
			Dot: fixed.P(2+dx, 13+dy)}
		d.DrawString(WatermarkText)
	}
	for _, o := range [][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}} {
		write(color.NRGBA{0, 0, 0, 110}, o[0], o[1])
	}
	write(color.NRGBA{255, 255, 255, 170}, 0, 0)
	big := imaging.Resize(tile, tw*2, 34, imaging.NearestNeighbor)
	stepX, stepY := big.Rect.Dx()+40, 90
	for row, y := 0, 20; y < out.Rect.Dy(); row, y = row+1, y+stepY {
		for x := -(row % 2) * stepX / 2; x < out.Rect.Dx(); x += stepX {
			over(out, big, x, y)
		}
	}
	return out
}

// over draws src onto dst at (x, y) with alpha compositing, keeping dst's
// own alpha (a transparent cut-out stays transparent around the mark).
func over(dst, src *image.NRGBA, x0, y0 int) {
	for y := 0; y < src.Rect.Dy(); y++ {
		for x := 0; x < src.Rect.Dx(); x++ {
			dx, dy := x0+x, y0+y
			if !(image.Point{dx, dy}.In(dst.Rect)) {
				continue
			}
			s := src.Pix[y*src.Stride+x*4:]
			a := uint32(s[3])
			if a == 0 {
				continue
			}
			d := dst.Pix[dy*dst.Stride+dx*4:]
			for i := range 3 {
				d[i] = uint8((uint32(s[i])*a + uint32(d[i])*(255-a) + 127) / 255)
			}
			d[3] = max(d[3], uint8(a))
		}
	}
}
