package domain

import (
	"errors"
	"strings"
)

// Product is one product on the store's website, as the product studio
// offers it.
type Product struct {
	ID, Name, URL string
	Price         float64
	Currency      string
	// ImageURLs are its photos, main photo first.
	ImageURLs []string
}

// MaxProductImageBytes is the largest product photo read for the studio:
// the studio's own upload limit (25 MB).
const MaxProductImageBytes = 25 << 20

// Refusals of the catalogue, each with a message for the owner.
var (
	ErrNoWebsite        = errors.New("no website")
	ErrProductNotFound  = errors.New("product not found")
	ErrProductNoImage   = errors.New("product has no photo")
	ErrProductImageSize = errors.New("product photo too large")
	ErrProductImageRead = errors.New("product photo unreadable")
)

// Messages for the refusals above.
const (
	NoWebsiteMessage           = "Add your store's website in the Business profile to pick photos from your catalogue."
	CatalogueUnreadableMessage = "Your website could not be read just now, so its catalogue is not available. Try again later, or upload a photo."
	ProductNotFoundMessage     = "This product is not in your website's catalogue."
	ProductNoImageMessage      = "This product has no photo on your website. Upload one instead."
	ProductImageSizeMessage    = "This product's photo is larger than 25 MB. Upload a smaller copy instead."
	ProductImageReadMessage    = "This product's photo could not be read from your website. Upload it instead."
)

// FindProduct finds a product by the id the studio's `?product=` carries:
// the catalogue's id, or Shopify's gid://shopify/Product/<id>.
func FindProduct(products []Product, id string) (Product, bool) {
	id = strings.TrimSpace(id)
	if i := strings.LastIndexByte(id, '/'); strings.HasPrefix(id, "gid://shopify/Product/") && i >= 0 {
		id = id[i+1:]
	}
	if id == "" {
		return Product{}, false
	}
	for _, p := range products {
		if p.ID == id {
			return p, true
		}
	}
	return Product{}, false
}
