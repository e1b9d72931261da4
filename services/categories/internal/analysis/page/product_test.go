package page

import "testing"

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
