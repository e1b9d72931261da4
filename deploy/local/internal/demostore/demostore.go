// Package demostore serves a small, realistic online store on loopback for
// the local stack, so a newcomer on an offline machine has a website the
// review can read: save its address in the Business profile and Home fills
// with a review, a summary, insights and ideas; /website-score scores it.
//
// It is deliberately imperfect in ways the website review reports: the home
// page has no meta description and no Open Graph tags, one image has no alt
// text, one product page lacks structured data, there are no customer
// reviews and no newsletter sign-up, nothing is cached, and it is served
// over plain HTTP. Its contact, shipping, returns and privacy pages exist, so
// the review also shows what a store does right.
package demostore

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"html/template"
	"net/http"
	"strings"

	"uplift.dev/shopifysim/teashop"
)

//go:embed templates/*.html
var templatesFS embed.FS

// Name is the demo store's name, as its pages and the tests show it.
const Name = teashop.Name

// Product is one product of the demo catalogue, as the website shows it.
type Product struct {
	teashop.Product
	// NoStructuredData leaves the product page without JSON-LD: one of the
	// store's deliberate imperfections.
	NoStructuredData bool
}

// Catalogue is what the demo store sells: the demo business's own catalogue
// (the Shopify simulator's demo shop holds the same products).
var Catalogue = func() []Product {
	out := make([]Product, len(teashop.Catalogue))
	for i, p := range teashop.Catalogue {
		out[i] = Product{Product: p, NoStructuredData: p.Handle == "chamomile-flowers"}
	}
	return out
}()

// Handler serves the store. origin is the store's own address
// (http://127.0.0.1:PORT), used for canonical links and the sitemap.
func Handler(origin string) http.Handler {
	origin = strings.TrimSuffix(origin, "/")
	tpl := template.Must(template.New("").Funcs(template.FuncMap{
		"jsonld": func(p Product) template.JS { return productJSONLD(origin, p) },
	}).ParseFS(templatesFS, "templates/*.html"))
	byHandle := map[string]Product{}
	for _, p := range Catalogue {
		byHandle[p.Handle] = p
	}
	pages := map[string]struct{ tpl, title string }{
		"/":                         {"home.html", Name + " – loose-leaf tea from single estates"},
		"/collections/all":          {"collection.html", "All teas and teaware – " + Name},
		"/pages/contact":            {"contact.html", "Contact us – " + Name},
		"/policies/shipping-policy": {"shipping.html", "Shipping – " + Name},
		"/policies/refund-policy":   {"returns.html", "Returns and refunds – " + Name},
		"/policies/privacy-policy":  {"privacy.html", "Privacy policy – " + Name},
	}
	render := func(w http.ResponseWriter, name string, data any) {
		var buf bytes.Buffer
		if err := tpl.ExecuteTemplate(&buf, name, data); err != nil {
			http.Error(w, "template error", http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write(buf.Bytes())
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		render(w, "home.html", pageData{Name: Name, Title: pages["/"].title, Origin: origin, Path: "/", Products: Catalogue})
	})
	for path, pg := range pages {
		if path == "/" {
			continue
		}
		mux.HandleFunc("GET "+path, func(w http.ResponseWriter, r *http.Request) {
			render(w, pg.tpl, pageData{Name: Name, Title: pg.title, Origin: origin, Path: path, Products: Catalogue})
		})
	}
	mux.HandleFunc("GET /products/{handle}", func(w http.ResponseWriter, r *http.Request) {
		p, ok := byHandle[r.PathValue("handle")]
		if !ok {
			http.NotFound(w, r)
			return
		}
		render(w, "product.html", pageData{Name: Name, Title: p.Title + " – " + Name, Origin: origin,
			Path: "/products/" + p.Handle, Products: Catalogue, Product: p})
	})
	// Product photos (JPEG) for the product studio, named by the JSON-LD.
	mux.HandleFunc("GET /photos/{file}", func(w http.ResponseWriter, r *http.Request) {
		p, ok := byHandle[strings.TrimSuffix(r.PathValue("file"), ".jpg")]
		if !ok || !strings.HasSuffix(r.PathValue("file"), ".jpg") {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "image/jpeg")
		_, _ = w.Write(photo(p.Colour))
	})
	mux.HandleFunc("GET /images/{handle}", func(w http.ResponseWriter, r *http.Request) {
		handle := strings.TrimSuffix(r.PathValue("handle"), ".svg")
		colour := "#3d6b4f"
		if p, ok := byHandle[handle]; ok {
			colour = p.Colour
		} else if handle != "banner" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "image/svg+xml")
		fmt.Fprintf(w, `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="400" viewBox="0 0 600 400"><rect width="600" height="400" fill="%s"/><circle cx="300" cy="200" r="120" fill="#ffffff" opacity="0.25"/></svg>`, colour)
	})
	mux.HandleFunc("GET /robots.txt", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprintf(w, "User-agent: *\nDisallow: /cart\nSitemap: %s/sitemap.xml\n", origin)
	})
	mux.HandleFunc("GET /sitemap.xml", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/xml")
		var b strings.Builder
		b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
		for _, path := range []string{"/", "/collections/all", "/pages/contact", "/policies/shipping-policy", "/policies/refund-policy", "/policies/privacy-policy"} {
			fmt.Fprintf(&b, "<url><loc>%s%s</loc></url>\n", origin, path)
		}
		for _, p := range Catalogue {
			fmt.Fprintf(&b, "<url><loc>%s/products/%s</loc></url>\n", origin, p.Handle)
		}
		b.WriteString("</urlset>\n")
		_, _ = w.Write([]byte(b.String()))
	})
	mux.HandleFunc("POST /cart/add", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/collections/all", http.StatusSeeOther)
	})
	return mux
}

type pageData struct {
	Name, Title, Origin, Path string
	Products                  []Product
	Product                   Product
}

// productJSONLD is the schema.org Product the product page carries, with its
// price and availability, as search engines and the review read them.
func productJSONLD(origin string, p Product) template.JS {
	doc := map[string]any{
		"@context":    "https://schema.org",
		"@type":       "Product",
		"name":        p.Title,
		"description": p.Description,
		"image":       origin + p.PhotoPath(),
		"sku":         p.SKU(),
		"brand":       map[string]any{"@type": "Brand", "name": Name},
		"offers": map[string]any{
			"@type":         "Offer",
			"url":           origin + "/products/" + p.Handle,
			"priceCurrency": "USD",
			"price":         fmt.Sprintf("%d.%02d", p.PriceCents/100, p.PriceCents%100),
			"availability":  "https://schema.org/InStock",
		},
	}
	b, _ := json.Marshal(doc)
	return template.JS(b)
}
