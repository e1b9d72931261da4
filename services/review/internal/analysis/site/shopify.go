package site

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"uplift.dev/review/internal/analysis/page"
	"uplift.dev/review/internal/analysis/words"
)

// Catalogue is a store's products in a stable order with its currency.
type Catalogue struct {
	Products []page.Product
	Currency string
	Source   string // where the list came from, for evidence
}

// shopifyProducts is the part of Shopify's public /products.json we read.
type shopifyProducts struct {
	Products []struct {
		ID          json.RawMessage   `json:"id"` // a number; a string is taken too
		Title       string            `json:"title"`
		Handle      string            `json:"handle"`
		BodyHTML    string            `json:"body_html"`
		ProductType string            `json:"product_type"`
		Vendor      string            `json:"vendor"`
		Images      []json.RawMessage `json:"images"`
		Variants    []struct {
			Title     string     `json:"title"`
			Price     flexNumber `json:"price"`
			CompareAt flexNumber `json:"compare_at_price"`
			Available *bool      `json:"available"`
		} `json:"variants"`
	} `json:"products"`
}

// flexNumber accepts prices written as JSON numbers or strings ("12.00").
type flexNumber float64

func (f *flexNumber) UnmarshalJSON(b []byte) error {
	s := strings.Trim(string(b), `"`)
	if s == "" || s == "null" {
		*f = 0
		return nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return nil // a price we cannot read is treated as unknown
	}
	*f = flexNumber(v)
	return nil
}

// rawID reads an id written as a JSON number or string ("" otherwise).
func rawID(b json.RawMessage) string {
	var n json.Number
	if json.Unmarshal(b, &n) == nil {
		return n.String()
	}
	var s string
	if json.Unmarshal(b, &s) == nil {
		return strings.TrimSpace(s)
	}
	return ""
}

// parseShopifyProducts reads a /products.json body.
func parseShopifyProducts(body []byte, siteURL, currency string) ([]page.Product, error) {
	var sp shopifyProducts
	if err := json.Unmarshal(body, &sp); err != nil {
		return nil, fmt.Errorf("products.json: %w", err)
	}
	var out []page.Product
	for _, p := range sp.Products {
		name := words.Collapse(p.Title)
		if name == "" {
			continue
		}
		desc := words.Collapse(page.StripTags(p.BodyHTML))
		pr := page.Product{
			Name: name, Type: words.Collapse(p.ProductType), Vendor: words.Collapse(p.Vendor),
			URL:         strings.TrimRight(siteURL, "/") + "/products/" + p.Handle,
			Description: words.Truncate(desc, 300), HasDescription: len(desc) >= 20,
			Images: len(p.Images), Variants: len(p.Variants), Currency: currency, Source: "products.json",
			ID: words.FirstNonEmpty(rawID(p.ID), p.Handle),
		}
		var srcs []string
		for _, raw := range p.Images {
			var img struct {
				Src string `json:"src"`
			}
			if json.Unmarshal(raw, &img) == nil {
				srcs = append(srcs, img.Src)
			}
		}
		pr.ImageURLs = page.AbsoluteURLs(pr.URL, srcs...)
		pr.Price = math.Inf(1)
		for _, v := range p.Variants {
			price := float64(v.Price)
			if price > 0 {
				pr.Price = min(pr.Price, price)
				pr.MaxPrice = max(pr.MaxPrice, price)
			}
			if float64(v.CompareAt) > price && price > 0 {
				pr.CompareAt = max(pr.CompareAt, float64(v.CompareAt))
			}
			if v.Available == nil || *v.Available {
				pr.Available = true
			}
		}
		if math.IsInf(pr.Price, 1) {
			pr.Price = 0
		}
		out = append(out, pr)
		if len(out) == page.MaxProducts {
			break
		}
	}
	return out, nil
}

// mergeProducts adds products not already known by name, keeping order.
func mergeProducts(into []page.Product, more ...page.Product) []page.Product {
	for _, m := range more {
		if len(into) >= page.MaxProducts {
			break
		}
		if !slices.ContainsFunc(into, func(p page.Product) bool { return strings.EqualFold(p.Name, m.Name) }) {
			into = append(into, m)
		}
	}
	return into
}
