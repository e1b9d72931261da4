package app

import (
	"context"
	"errors"
	"sync"
	"time"

	"uplift.dev/categories/internal/domain"
)

// Catalogue reads products and their photos from store websites (the
// analysis engine, through its guarded fetcher).
type Catalogue interface {
	// Products reads the store's products; an unreadable site is
	// domain.ErrUnreadableSite.
	Products(ctx context.Context, siteURL string) ([]domain.Product, error)
	// FetchImage reads one photo of at most limit bytes:
	// domain.ErrProductImageSize above it, domain.ErrProductImageRead when
	// it cannot be read.
	FetchImage(ctx context.Context, imageURL string, limit int64) ([]byte, error)
}

// CatalogueTTL is how long a store's product list is kept: the studio
// lists it, then picks a product from it, and a website is not read again
// for each click.
const CatalogueTTL = 5 * time.Minute

// catalogueCacheSize bounds the kept lists; past it, lists older than half
// the TTL go, and others until there is room.
const catalogueCacheSize = 500

type catalogueEntry struct {
	products []domain.Product
	at       time.Time
}

// catalogueCache keeps each website's product list for CatalogueTTL.
// Shared by the copies WithClock and Within make.
type catalogueCache struct {
	reader Catalogue
	mu     sync.Mutex
	bySite map[string]catalogueEntry
}

// WithCatalogue returns the use cases reading catalogues through c.
func (a *App) WithCatalogue(c Catalogue) *App {
	cp := *a
	cp.catalogue = &catalogueCache{reader: c, bySite: map[string]catalogueEntry{}}
	return &cp
}

// CatalogueProducts lists the products on the category's website.
func (a *App) CatalogueProducts(ctx context.Context, caller domain.Caller, categoryID string) ([]domain.Product, error) {
	c, err := a.authorized(ctx, caller, categoryID)
	if err != nil {
		return nil, err
	}
	return a.products(ctx, c)
}

func (a *App) products(ctx context.Context, c domain.Category) ([]domain.Product, error) {
	if c.SiteURL == "" {
		return nil, domain.ErrNoWebsite
	}
	if a.catalogue == nil {
		return nil, errors.New("no catalogue reader configured")
	}
	cc := a.catalogue
	now := a.now()
	cc.mu.Lock()
	e, ok := cc.bySite[c.SiteURL]
	cc.mu.Unlock()
	if ok && now.Sub(e.at) >= 0 && now.Sub(e.at) < CatalogueTTL {
		return e.products, nil
	}
	products, err := cc.reader.Products(ctx, c.SiteURL)
	if err != nil {
		return nil, err
	}
	cc.mu.Lock()
	defer cc.mu.Unlock()
	if len(cc.bySite) >= catalogueCacheSize {
		for site, old := range cc.bySite {
			if now.Sub(old.at) >= CatalogueTTL/2 || len(cc.bySite) >= catalogueCacheSize {
				delete(cc.bySite, site)
			}
		}
	}
	cc.bySite[c.SiteURL] = catalogueEntry{products: products, at: now}
	return products, nil
}

// ProductImage reads the main photo of one product of the category's
// catalogue. Only addresses the catalogue lists are read, so a caller
// cannot make the service fetch an address of their choosing.
func (a *App) ProductImage(ctx context.Context, caller domain.Caller, categoryID, productID string) (domain.Product, []byte, error) {
	c, err := a.authorized(ctx, caller, categoryID)
	if err != nil {
		return domain.Product{}, nil, err
	}
	products, err := a.products(ctx, c)
	if err != nil {
		return domain.Product{}, nil, err
	}
	p, ok := domain.FindProduct(products, productID)
	if !ok {
		return domain.Product{}, nil, domain.ErrProductNotFound
	}
	if len(p.ImageURLs) == 0 {
		return p, nil, domain.ErrProductNoImage
	}
	data, err := a.catalogue.reader.FetchImage(ctx, p.ImageURLs[0], domain.MaxProductImageBytes)
	if err != nil {
		return p, nil, err
	}
	return p, data, nil
}
