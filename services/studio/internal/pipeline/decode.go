// Package pipeline is the studio's image work, in pure Go so it is tested
// without the model: decoding uploads safely, the model's pre- and
// post-processing, shadow suppression, cut-outs, studio compositing, channel
// presets, watermarked previews and encoding. The worker runs it; the API
// uses Inspect and Verify to refuse a bad upload before it is stored.
package pipeline

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/draw"
	_ "image/jpeg" // registered for image.Decode
	_ "image/png"  // registered for image.Decode

	"github.com/disintegration/imaging"
	_ "golang.org/x/image/webp" // registered for image.Decode

	"uplift.dev/studio/internal/domain"
)

// Upload limits: larger photos are refused from their
// header, before decoding, so a small file claiming huge dimensions (a
// decompression bomb) never gets to allocate its pixels. Pixels alone are
// not enough: a 7000×7000 16-bit PNG is 49 MP but decodes to 392 MB, and a
// progressive JPEG holds four bytes of coefficients per sample besides its
// pixels, so the bytes decoding holds at once are capped too.
const (
	MaxUploadBytes  = 25 << 20
	MaxUploadPixels = 50_000_000
	// MaxDecodeBytes lets a 50 MP photo in 8-bit colour through, as PNG
	// (200 MB) or baseline JPEG (75 MB for 4:2:0), and refuses what would
	// take the worker past its memory: it is also the API's budget for the
	// decodes it runs at once.
	MaxDecodeBytes = 256 << 20
)

// Messages for refused uploads; they are shown to the owner as they are.
const (
	msgType    = "Upload a JPEG, PNG or WebP photo."
	msgBytes   = "The photo is larger than 25 MB. Upload a smaller one."
	msgPixels  = "The photo has more than 50 megapixels. Upload a smaller one."
	msgDecode  = "The photo is too large to work on once opened (16-bit colour takes twice the memory). Save it as an 8-bit JPEG or PNG, or upload a smaller one."
	msgCorrupt = "The photo could not be read; the file may be damaged."
)

func invalid(msg string) error { return &domain.ValidationError{Field: "content", Message: msg} }

// Info is what Inspect learns from a file's header alone.
type Info struct {
	Format        string // jpeg, png or webp
	Width, Height int
	// DecodeBytes is about the most memory decoding the file holds at once.
	DecodeBytes int64
	// orientation is the JPEG's EXIF orientation (1–8; 0 when it has none).
	orientation int
}

// sniff names the format from the file's magic bytes, whatever the file is
// called: an upload's name and declared type are the client's word only.
func sniff(data []byte) string {
	switch {
	case bytes.HasPrefix(data, []byte{0xFF, 0xD8, 0xFF}):
		return "jpeg"
	case bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")):
		return "png"
	case len(data) >= 12 && string(data[:4]) == "RIFF" && string(data[8:12]) == "WEBP":
		return "webp"
	}
	return ""
}

// Inspect checks an upload's size, type, dimensions and the memory its
// decoding would take from its header, without decoding its pixels.
func Inspect(data []byte) (Info, error) {
	if len(data) == 0 {
		return Info{}, invalid(msgType)
	}
	if len(data) > MaxUploadBytes {
		return Info{}, invalid(msgBytes)
	}
	format := sniff(data)
	if format == "" {
		return Info{}, invalid(msgType)
	}
	cfg, got, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil || got != format || cfg.Width <= 0 || cfg.Height <= 0 {
		return Info{}, invalid(msgCorrupt)
	}
	if int64(cfg.Width)*int64(cfg.Height) > MaxUploadPixels {
		return Info{}, invalid(msgPixels)
	}
	info := Info{Format: format, Width: cfg.Width, Height: cfg.Height}
	pixels := float64(cfg.Width) * float64(cfg.Height)
	switch format {
	case "jpeg":
		h, ok := readJPEGHeader(data)
		if !ok {
			return Info{}, invalid(msgCorrupt)
		}
		info.DecodeBytes, info.orientation = h.decodeBytes(), h.orientation
	case "png":
		bpp := bytesPerPixel(cfg.ColorModel)
		// An interlaced PNG's passes are decoded apart, then merged: the
		// largest is a quarter of the image.
		if len(data) > 28 && data[28] == 1 {
			bpp *= 1.25
		}
		info.DecodeBytes = int64(pixels * bpp)
	default:
		info.DecodeBytes = int64(pixels * bytesPerPixel(cfg.ColorModel))
	}
	if info.DecodeBytes > MaxDecodeBytes {
		return Info{}, invalid(msgDecode)
	}
	return info, nil
}

// bytesPerPixel is what the standard decoders allocate per pixel for
// colour model m (WebP's lossy YCbCr is 4:2:0).
func bytesPerPixel(m color.Model) float64 {
	if _, ok := m.(color.Palette); ok {
		return 1
	}
	switch m {
	case color.GrayModel, color.AlphaModel:
		return 1
	case color.Gray16Model, color.Alpha16Model:
		return 2
	case color.YCbCrModel:
		return 1.5
	case color.NYCbCrAModel:
		return 2.5
	case color.RGBA64Model, color.NRGBA64Model:
		return 8
	}
	return 4
}

// Verify decodes the whole file and drops the pixels: the upload's proof
// that the worker will be able to read it (a truncated file or a damaged
// stream passes the header checks). It holds about Info.DecodeBytes.
func Verify(data []byte) (Info, error) {
	info, err := Inspect(data)
	if err != nil {
		return Info{}, err
	}
	if _, _, err := image.Decode(bytes.NewReader(data)); err != nil {
		return Info{}, invalid(msgCorrupt)
	}
	return info, nil
}

// Decode inspects data and decodes it scaled down with filter to fit
// maxSide (never up), with its EXIF orientation applied, as NRGBA. The
// full-size pixels live only until the scaled copy is made: no step after
// decoding works at more than maxSide.
func Decode(data []byte, maxSide int, filter imaging.ResampleFilter) (*image.NRGBA, Info, error) {
	info, err := Inspect(data)
	if err != nil {
		return nil, Info{}, err
	}
	full, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, Info{}, invalid(msgCorrupt)
	}
	var out *image.NRGBA
	if b := full.Bounds(); max(b.Dx(), b.Dy()) > maxSide {
		out = imaging.Fit(full, maxSide, maxSide, filter)
	} else {
		out = toNRGBA(full)
	}
	// full is not used past this point, so the collector may take it
	// before the orientation's copy is made.
	out = orient(out, info.orientation)
	info.Width, info.Height = out.Rect.Dx(), out.Rect.Dy()
	return out, info, nil
}

// orientations are the transforms that show a photo as its EXIF
// orientation (2–8) asks; 1 and a missing tag need none.
var orientations = [9]func(image.Image) *image.NRGBA{2: imaging.FlipH, 3: imaging.Rotate180, 4: imaging.FlipV,
	5: imaging.Transpose, 6: imaging.Rotate270, 7: imaging.Transverse, 8: imaging.Rotate90}

// orient applies an EXIF orientation, as a viewer shows the photo.
func orient(img *image.NRGBA, o int) *image.NRGBA {
	if o < 0 || o >= len(orientations) || orientations[o] == nil {
		return img
	}
	return orientations[o](img)
}

// toNRGBA returns img as an NRGBA whose bounds start at (0,0).
func toNRGBA(img image.Image) *image.NRGBA {
	if n, ok := img.(*image.NRGBA); ok && n.Rect.Min == (image.Point{}) {
		return n
	}
	b := img.Bounds()
	out := image.NewNRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(out, out.Rect, img, b.Min, draw.Src)
	return out
}

// ErrNoProduct: the mask found nothing to cut out.
var ErrNoProduct = errors.New("no product was found in the photo")

// IsClientError reports whether err is about the photo itself.
func IsClientError(err error) bool {
	var ve *domain.ValidationError
	return errors.As(err, &ve) || errors.Is(err, ErrNoProduct)
}
