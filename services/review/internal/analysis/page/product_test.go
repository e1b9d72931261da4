package page

import (
	"fmt"
	"testing"
)

func TestAvailabilityAndPriceSpecification(t *testing.T) {
	page := func(offer string) *Page {
		return ParsePage("https://shop.example/products/x", []byte(`<html><head><script type="application/ld+json">
{"@context":"https://schema.org","@type":"Product","name":"Tent","offers":`+offer+`}</script></head><body></body></html>`))
	}
	for _, tt := range []struct {
		offer     string
		available bool
		price     float64
	}{
		{`{"@type":"Offer","price":"20","availability":"https://schema.org/BackOrder"}`, true, 20},
		{`{"@type":"Offer","price":"20","availability":"http://schema.org/PreOrder"}`, true, 20},
		{`{"@type":"Offer","price":"20","availability":"MadeToOrder"}`, true, 20},
		{`{"@type":"Offer","price":"20","availability":"https://schema.org/OutOfStock"}`, false, 20},
		{`{"@type":"Offer","price":"20","availability":"schema:SoldOut"}`, false, 20},
		{`{"@type":"Offer","price":"20","availability":"https://schema.org/Discontinued"}`, false, 20},
		{`{"@type":"Offer","priceSpecification":{"@type":"UnitPriceSpecification","price":"149.50","priceCurrency":"EUR"}}`, true, 149.5},
		{`{"@type":"Offer","priceSpecification":[{"@type":"UnitPriceSpecification","price":"99"},{"@type":"UnitPriceSpecification","price":"129","priceType":"https://schema.org/ListPrice"}]}`, true, 99},
	} {
		ps := ProductsFrom(page(tt.offer))
		if len(ps) != 1 || ps[0].Available != tt.available || ps[0].Price != tt.price {
			t.Errorf("%s: got %+v, want available=%v price=%v", tt.offer, ps, tt.available, tt.price)
		}
	}
}

// The product studio picks a product's photo from these: every form
// schema.org allows for image, resolved against the page, http(s) only.
func TestProductImagesAndID(t *testing.T) {
	for _, tt := range []struct {
		name, head string
		wantID     string
		wantImages []string
	}{
		{"url string", `<script type="application/ld+json">{"@type":"Product","name":"Tea","sku":"T-1","image":"/img/tea.jpg"}</script>`,
			"T-1", []string{"https://shop.example/img/tea.jpg"}},
		{"list and object", `<script type="application/ld+json">{"@type":"Product","name":"Tea","productID":"42","image":[{"@type":"ImageObject","contentUrl":"https://cdn.example/a.png"},"b.webp","javascript:alert(1)","https://cdn.example/a.png#x"]}</script>`,
			"42", []string{"https://cdn.example/a.png", "https://shop.example/products/b.webp"}},
		{"no id: the address's last segment", `<script type="application/ld+json">{"@type":"Product","name":"Tea"}</script>`,
			"green-tea", nil},
		{"open graph only", `<meta property="og:type" content="product"><meta property="og:title" content="Tea"><meta property="og:image" content="//cdn.example/og.jpg">`,
			"green-tea", []string{"https://cdn.example/og.jpg"}},
	} {
		p := ParsePage("https://shop.example/products/green-tea", []byte(`<html><head>`+tt.head+`</head><body></body></html>`))
		ps := ProductsFrom(p)
		if len(ps) != 1 {
			t.Fatalf("%s: %d products", tt.name, len(ps))
		}
		if ps[0].ID != tt.wantID || fmt.Sprint(ps[0].ImageURLs) != fmt.Sprint(tt.wantImages) {
			t.Errorf("%s: id %q images %q, want %q %q", tt.name, ps[0].ID, ps[0].ImageURLs, tt.wantID, tt.wantImages)
		}
	}
}
