package domain

import (
	"encoding/hex"
	"fmt"
	"image/color"
	"slices"
	"strings"
)

// ImageWidths are the spec's image widths (section 9): wherever the studio
// may choose a width itself (studio image size, cut-out and preview caps),
// it picks one of these.
var ImageWidths = []int{640, 750, 828, 1080, 1200, 1920, 2048, 3840}

// DefaultQuality is the spec's default image quality, used for every JPEG
// and WebP the studio writes.
const DefaultQuality = 75

// PreviewWidth caps previews (what the free plan sees watermarked).
const PreviewWidth = 640

// MaxCutoutSide caps the cut-out PNG's longer side: the widest spec width.
const MaxCutoutSide = 3840

// DefaultStudioSize is the studio image's side when the owner picks none.
const DefaultStudioSize = 2048

// Preset is a channel's image: its canvas, how much of it the product
// fills, and whether the channel demands a pure white backdrop.
type Preset struct {
	ID, Name      string
	Width, Height int
	// Fill is the share of the canvas's width and height the trimmed
	// product may take (it is fitted inside both).
	Fill float64
	// PureWhite forces #FFFFFF without a shadow (Amazon's main image rule).
	PureWhite bool
}

// Presets are the channel sizes the studio renders, in the order shown.
var Presets = []Preset{
	{ID: "shopify", Name: "Shopify product", Width: 2048, Height: 2048, Fill: 0.8},
	{ID: "instagram-square", Name: "Instagram square", Width: 1080, Height: 1080, Fill: 0.8},
	{ID: "instagram-portrait", Name: "Instagram portrait", Width: 1080, Height: 1350, Fill: 0.8},
	{ID: "story", Name: "Story", Width: 1080, Height: 1920, Fill: 0.7},
	{ID: "feed", Name: "Facebook/Google feed", Width: 1200, Height: 628, Fill: 0.8},
	{ID: "amazon", Name: "Amazon main image", Width: 2048, Height: 2048, Fill: 0.85, PureWhite: true},
}

// Backdrop is the studio image's background.
type Backdrop struct {
	// Kind is "white", "grey" or "color".
	Kind  string
	Color color.NRGBA
}

// Named backdrops.
var (
	White     = color.NRGBA{255, 255, 255, 255}
	LightGrey = color.NRGBA{242, 242, 242, 255}
)

// ParseBackdrop reads the owner's choice: "white" (the default), "grey", or
// a colour as "#rrggbb".
func ParseBackdrop(kind, code string) (Backdrop, error) {
	switch strings.ToLower(kind) {
	case "", "white":
		return Backdrop{Kind: "white", Color: White}, nil
	case "grey", "gray":
		return Backdrop{Kind: "grey", Color: LightGrey}, nil
	case "color", "colour":
		rgb, err := hex.DecodeString(strings.TrimPrefix(code, "#"))
		if len(code) != 7 || code[0] != '#' || err != nil {
			return Backdrop{}, &ValidationError{Field: "color", Message: "Choose the backdrop colour as #rrggbb."}
		}
		return Backdrop{Kind: "color", Color: color.NRGBA{rgb[0], rgb[1], rgb[2], 255}}, nil
	}
	return Backdrop{}, &ValidationError{Field: "backdrop", Message: "The backdrop must be white, grey or a colour."}
}

// Hex is the backdrop colour as #rrggbb.
func (b Backdrop) Hex() string {
	return fmt.Sprintf("#%02x%02x%02x", b.Color.R, b.Color.G, b.Color.B)
}

// ValidateStudioSize checks a studio image size against the spec widths (0
// means DefaultStudioSize).
func ValidateStudioSize(size int) (int, error) {
	if size == 0 {
		return DefaultStudioSize, nil
	}
	if !slices.Contains(ImageWidths, size) {
		return 0, &ValidationError{Field: "size", Message: "The size must be one of 640, 750, 828, 1080, 1200, 1920, 2048 or 3840."}
	}
	return size, nil
}
