// Package pipeline is the studio's image work, in pure Go so it is tested
// without the model: decoding uploads safely, the model's pre- and
// post-processing, shadow suppression, cut-outs, studio compositing, channel
// presets, watermarked previews and encoding. The worker runs it; the API
// uses only Inspect, to refuse a bad upload before it is queued.
package pipeline

import (
	"bytes"
	"errors"
	"image"
	"image/draw"
	_ "image/jpeg" // registered for image.DecodeConfig
	_ "image/png"  // registered for image.DecodeConfig

	"github.com/disintegration/imaging"
	_ "golang.org/x/image/webp" // registered for image.DecodeConfig

	"uplift.dev/studio/internal/domain"
)

// Upload limits (issue 10): larger photos are refused before decoding, so a
// small file claiming huge dimensions (a decompression bomb) never gets to
// allocate its pixels.
const (
	MaxUploadBytes  = 25 << 20
	MaxUploadPixels = 50_000_000
)

// Messages for refused uploads; they are shown to the owner as they are.
const (
	msgType    = "Upload a JPEG, PNG or WebP photo."
	msgBytes   = "The photo is larger than 25 MB. Upload a smaller one."
	msgPixels  = "The photo has more than 50 megapixels. Upload a smaller one."
	msgCorrupt = "The photo could not be read; the file may be damaged."
)

func invalid(msg string) error { return &domain.ValidationError{Field: "content", Message: msg} }

// Info is what Inspect learns from a file's header alone.
type Info struct {
	Format        string // jpeg, png or webp
	Width, Height int
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

// Inspect checks an upload's size, type and dimensions from its header,
// without decoding its pixels.
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
	return Info{Format: format, Width: cfg.Width, Height: cfg.Height}, nil
}

// Decode inspects data and decodes it with its EXIF orientation applied,
// as opaque-or-not NRGBA.
func Decode(data []byte) (*image.NRGBA, Info, error) {
	info, err := Inspect(data)
	if err != nil {
		return nil, Info{}, err
	}
	img, err := imaging.Decode(bytes.NewReader(data), imaging.AutoOrientation(true))
	if err != nil {
		return nil, Info{}, invalid(msgCorrupt)
	}
	out := toNRGBA(img)
	info.Width, info.Height = out.Rect.Dx(), out.Rect.Dy()
	return out, info, nil
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
