package app

import (
	"context"
	"strings"
	"unicode/utf8"

	"uplift.dev/studio/internal/domain"
)

// Catalogue reads a product's main photo from the store's catalogue (the
// categories service, which reads the website through its guarded
// fetcher and decides who may). The caller's credentials travel in ctx.
type Catalogue interface {
	// ProductImage returns the product's name and its main photo's bytes.
	// A product that is not in the catalogue is a *domain.MissingError;
	// one that cannot be had (no website, no photo, too large) a
	// *domain.ValidationError with the reason.
	ProductImage(ctx context.Context, categoryID, productID string) (name string, data []byte, err error)
}

// WithCatalogue returns the use cases importing photos through c.
func (a *App) WithCatalogue(c Catalogue) *App {
	cp := *a
	cp.catalogue = c
	return &cp
}

// maxProductIDLen bounds a product id from a request (Shopify's gid form
// included).
const maxProductIDLen = 200

// ImportProductImage stores the main photo of a catalogue product as a
// studio photo, checked exactly like an upload (type, size, megapixels).
func (a *App) ImportProductImage(ctx context.Context, categoryID, productID string) (domain.Image, error) {
	if err := a.check(ctx, categoryID); err != nil {
		return domain.Image{}, err
	}
	productID = strings.TrimSpace(productID)
	if productID == "" || len(productID) > maxProductIDLen || !utf8.ValidString(productID) {
		return domain.Image{}, &domain.ValidationError{Field: "productId", Message: "Choose a product from your catalogue."}
	}
	if a.catalogue == nil {
		return domain.Image{}, &domain.ValidationError{Field: "productId", Message: "Picking from the catalogue is not available. Upload a photo instead."}
	}
	name, data, err := a.catalogue.ProductImage(ctx, categoryID, productID)
	if err != nil {
		return domain.Image{}, err
	}
	return a.storeImage(ctx, categoryID, name, productID, data)
}
