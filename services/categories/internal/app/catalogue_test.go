package app

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"uplift.dev/categories/internal/domain"
)

// fakeCatalogue counts reads and records which photo addresses were fetched.
type fakeCatalogue struct {
	mu      sync.Mutex
	reads   int
	fetched []string
}

func (f *fakeCatalogue) Products(_ context.Context, siteURL string) ([]domain.Product, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reads++
	return []domain.Product{
		{ID: "7001", Name: "Red mug", ImageURLs: []string{siteURL + "/mug.jpg", siteURL + "/mug-2.jpg"}},
		{ID: "7002", Name: "Gift card"},
	}, nil
}

func (f *fakeCatalogue) FetchImage(_ context.Context, imageURL string, limit int64) ([]byte, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.fetched = append(f.fetched, imageURL)
	if limit != domain.MaxProductImageBytes {
		return nil, errors.New("wrong limit")
	}
	return []byte("jpeg bytes"), nil
}

func TestCatalogueForTheStudio(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	cat := &fakeCatalogue{}
	now := time.Date(2026, 3, 29, 0, 30, 0, 0, time.UTC) // the night Europe's clocks go forward
	a := f.app.WithCatalogue(cat).WithClock(func() time.Time { return now })

	// No website yet: refused with its own error, nothing read.
	if _, err := a.CatalogueProducts(ctx, f.owner, f.catID); !errors.Is(err, domain.ErrNoWebsite) {
		t.Fatalf("without a website: %v", err)
	}
	if _, err := a.UpdateContentParams(ctx, f.owner, f.catID, ContentParams{SiteURL: ptr(shop)}); err != nil {
		t.Fatal(err)
	}
	ps, err := a.CatalogueProducts(ctx, f.owner, f.catID)
	if err != nil || len(ps) != 2 {
		t.Fatalf("products %v %v", ps, err)
	}
	// A stranger may not read it.
	if _, err := a.CatalogueProducts(ctx, domain.Caller{UID: "someone"}, f.catID); !errors.Is(err, domain.ErrPermissionDenied) {
		t.Fatalf("stranger: %v", err)
	}

	// Shopify's gid form finds the product; only its main photo is fetched.
	p, data, err := a.ProductImage(ctx, f.owner, f.catID, "gid://shopify/Product/7001")
	if err != nil || p.Name != "Red mug" || string(data) != "jpeg bytes" {
		t.Fatalf("photo %+v %q %v", p, data, err)
	}
	if len(cat.fetched) != 1 || cat.fetched[0] != shop+"/mug.jpg" {
		t.Fatalf("fetched %v", cat.fetched)
	}
	for id, want := range map[string]error{"7002": domain.ErrProductNoImage, "https://evil.example/x.jpg": domain.ErrProductNotFound, "": domain.ErrProductNotFound} {
		if _, _, err := a.ProductImage(ctx, f.owner, f.catID, id); !errors.Is(err, want) {
			t.Errorf("product %q: %v, want %v", id, err, want)
		}
	}
	// The list is read once for all of the above, and again once it is
	// CatalogueTTL old (on the clock, across the DST night).
	if cat.reads != 1 {
		t.Fatalf("%d reads within the TTL", cat.reads)
	}
	now = now.Add(CatalogueTTL - time.Second)
	_, _ = a.CatalogueProducts(ctx, f.owner, f.catID)
	now = now.Add(2 * time.Second)
	_, _ = a.CatalogueProducts(ctx, f.owner, f.catID)
	if cat.reads != 2 {
		t.Fatalf("%d reads after the TTL, want 2", cat.reads)
	}
}

func TestFindProduct(t *testing.T) {
	ps := []domain.Product{{ID: "7001"}, {ID: "green-tea"}}
	for id, want := range map[string]bool{"7001": true, " green-tea ": true, "gid://shopify/Product/7001": true,
		"gid://shopify/Product/": false, "70": false, "": false, "gid://shopify/Collection/7001": false} {
		if _, ok := domain.FindProduct(ps, id); ok != want {
			t.Errorf("%q: %v, want %v", id, ok, want)
		}
	}
}
