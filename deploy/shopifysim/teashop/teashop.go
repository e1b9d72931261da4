// Package teashop is the local stack's one demo business, Fernhill Tea Co.:
// the catalogue that its website (devstack's demo store) sells and that the
// Shopify simulator's demo shop holds and seeds orders of, so the website
// review, the shop's numbers and the ideas drawn from both speak of the same
// teas (a website of teas beside a shop of rain shells gave ideas that
// mixed the two).
package teashop

import (
	"fmt"
	"strings"
)

// Name is the business's name, as its pages and the demo shop show it.
const Name = "Fernhill Tea Co."

// Product is one product of the catalogue.
type Product struct {
	// ID is the product's id in the demo shop (Shopify's legacy resource id).
	ID          int64
	Handle      string
	Title       string
	Type        string
	Description string
	PriceCents  int64
	// Colour is the swatch drawn as the product's photo.
	Colour string
}

// SKU is the product's stock-keeping unit, on the website's structured data
// and the shop's order lines alike.
func (p Product) SKU() string { return strings.ToUpper(p.Handle) }

// Price is the price as the website shows it.
func (p Product) Price() string { return fmt.Sprintf("$%d.%02d", p.PriceCents/100, p.PriceCents%100) }

// PhotoPath is the product photo's path on the website; the demo shop's
// product image is the same file.
func (p Product) PhotoPath() string { return "/photos/" + p.Handle + ".jpg" }

// Catalogue is what the business sells.
var Catalogue = []Product{
	{ID: 8400000001, Handle: "morning-assam", Title: "Morning Assam", Type: "Black tea", PriceCents: 1450, Colour: "#7a3b1d",
		Description: "A malty, full-bodied black tea from a single estate in Upper Assam. Strong enough for milk, smooth enough without."},
	{ID: 8400000002, Handle: "first-flush-darjeeling", Title: "First Flush Darjeeling", Type: "Black tea", PriceCents: 2200, Colour: "#b5822f",
		Description: "Spring-picked Darjeeling with a bright, muscatel finish. Brew it light and drink it without milk."},
	{ID: 8400000003, Handle: "sencha-kagoshima", Title: "Sencha Kagoshima", Type: "Green tea", PriceCents: 1800, Colour: "#6b8e23",
		Description: "A steamed Japanese green tea with a grassy sweetness. Brew at 70 °C for one minute."},
	{ID: 8400000004, Handle: "jasmine-pearls", Title: "Jasmine Pearls", Type: "Green tea", PriceCents: 2600, Colour: "#c9d77a",
		Description: "Hand-rolled green tea pearls scented with fresh jasmine blossom over six nights."},
	{ID: 8400000005, Handle: "chamomile-flowers", Title: "Whole Chamomile Flowers", Type: "Herbal tea", PriceCents: 1100, Colour: "#e8c547",
		Description: "Whole Egyptian chamomile flowers for a calm, honeyed cup before bed. Caffeine free."},
	{ID: 8400000006, Handle: "cast-iron-teapot", Title: "Cast-Iron Teapot 0.8 l", Type: "Teaware", PriceCents: 5900, Colour: "#2f3640",
		Description: "An enamel-lined cast-iron teapot with a stainless steel infuser. Keeps tea hot for an hour."},
}
