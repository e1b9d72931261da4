package review

import (
	"encoding/json"
	"fmt"
	"html"
	"net"
	"net/url"
	"path"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"uplift.dev/categories/internal/analysis/page"
	"uplift.dev/categories/internal/analysis/site"
	"uplift.dev/categories/internal/analysis/words"
)

// genericTitles are title parts that name no store.
var genericTitles = map[string]bool{"home": true, "homepage": true, "home page": true, "welcome": true, "index": true, "shop": true, "store": true, "online store": true, "accueil": true, "startseite": true, "inicio": true}

// titleSeparators split a page title into brand and description parts.
var titleSeparators = []string{" | ", " – ", " — ", " - ", " :: ", ": ", " · "}

// StoreName is the store's name from its own markup, in this order:
// og:site_name, the business in JSON-LD (Organization and its kinds, then
// WebSite), the brand part of the home page's title, then the host name.
// Navigation text (a "logo" link, a "log out" button) is never used: it
// names menus, not stores.
func StoreName(s *site.Site) string {
	h := s.Home
	if n := cleanName(h.OG["og:site_name"]); n != "" {
		return n
	}
	for _, website := range []bool{false, true} {
		for _, obj := range h.JSONLD {
			if page.JSONLDIs(obj, OrgTypes...) && page.JSONLDIs(obj, "website") == website {
				if n := cleanName(page.JSONString(obj["name"])); n != "" {
					return n
				}
			}
		}
	}
	var subjects []string
	for _, pr := range page.ProductsFrom(h) {
		subjects = append(subjects, pr.Name)
	}
	if page.IsProductPage(h) {
		subjects = append(subjects, h.H1...) // a product page's h1 is the product
	}
	if n := titleBrand(h.Title, s.URL, subjects...); n != "" {
		return n
	}
	u, err := url.Parse(s.URL)
	if err != nil || net.ParseIP(u.Hostname()) != nil || !strings.Contains(u.Hostname(), ".") {
		return "your store"
	}
	host := strings.TrimPrefix(u.Hostname(), "www.")
	if i := strings.IndexByte(host, '.'); i > 0 {
		host = host[:i]
	}
	return words.TitleCase(strings.ReplaceAll(host, "-", " "))
}

// cleanName trims a name read from markup and refuses what is no name.
func cleanName(n string) string {
	n = words.Collapse(html.UnescapeString(n))
	if n == "" || len([]rune(n)) > 60 || genericTitles[strings.ToLower(n)] {
		return ""
	}
	return n
}

// welcomePrefixes open titles that greet or describe rather than name.
var welcomePrefixes = []string{"welcome to the ", "welcome to ", "bienvenue chez ", "bienvenue sur ", "willkommen bei ", "bienvenido a ",
	"online store ", "online shop ", "интернет-магазин ", "spletna trgovina ", "boutique en ligne "}

// pageWords name a kind of page, never a store ("Contact us", "О компании").
var pageWords = []string{"about", "über uns", "о компании", "qui sommes", "chi siamo", "sobre nosotros", "quem somos"}

var domainWord = regexp.MustCompile(`(?i)\b[a-z0-9][a-z0-9-]*\.(com|net|org|shop|store|co\.uk|co|de|fr|si|it|es|pt|nl|eu|ca|au|uk)\b`)

// titleBrand picks the store's name out of a title. The page's own
// subject (its h1, its product) is taken out first; of what is left, the
// name is a part that repeats, a part that matches the host, a domain
// written in the title, the only part, or the end part with fewer words
// (titles read "Page | Store" or "Store | tagline").
func titleBrand(title, siteURL string, subjects ...string) string {
	for _, sub := range subjects {
		if strings.EqualFold(strings.TrimSpace(sub), strings.TrimSpace(title)) {
			return "" // the title is the product's name alone
		}
		if sub = strings.TrimSpace(sub); len(sub) >= 4 && strings.Contains(title, sub) && strings.TrimSpace(strings.Replace(title, sub, "", 1)) != "" {
			title = strings.Replace(title, sub, "", 1)
		}
	}
	parts := splitTitle(strings.Trim(title, " |–—-:·"))
	for i, p := range parts {
		lp := strings.ToLower(p)
		for _, w := range welcomePrefixes {
			if strings.HasPrefix(lp, w) {
				parts[i] = strings.TrimSpace(p[len(w):])
				break
			}
		}
	}
	parts = slices.DeleteFunc(parts, func(p string) bool {
		lp := strings.ToLower(p)
		return p == "" || genericTitles[lp] || len(page.Kinds("", lp)) > 0 || words.ContainsAny(lp, pageWords)
	})
	if len(parts) == 0 {
		return ""
	}
	seen := map[string]bool{}
	for _, p := range parts {
		if seen[strings.ToLower(p)] {
			return p
		}
		seen[strings.ToLower(p)] = true
	}
	host := ""
	if u, err := url.Parse(siteURL); err == nil {
		host = strings.ReplaceAll(strings.TrimPrefix(strings.ToLower(u.Hostname()), "www."), "-", "")
	}
	for _, p := range parts {
		squashed := strings.ToLower(strings.Join(strings.FieldsFunc(p, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }), ""))
		if squashed != "" && host != "" && strings.HasPrefix(host, squashed) {
			return p
		}
	}
	for _, p := range parts {
		if d := domainWord.FindString(p); d != "" && len(parts) > 1 {
			return d
		}
	}
	if len(parts) == 1 {
		if p := parts[0]; len([]rune(p)) <= 30 {
			return p
		}
		// "Micromania, acheter jeux vidéo, PS4, …": a short lead before a comma.
		if lead, _, ok := strings.Cut(parts[0], ","); ok && len([]rune(lead)) <= 25 && len(strings.Fields(lead)) <= 3 {
			return strings.TrimSpace(lead)
		}
		return ""
	}
	first, last := parts[0], parts[len(parts)-1]
	best := last
	if len(strings.Fields(first)) < len(strings.Fields(last)) {
		best = first
	}
	if len([]rune(best)) <= 40 {
		return best
	}
	return ""
}

func splitTitle(t string) []string {
	parts := []string{t}
	for _, sep := range titleSeparators {
		var next []string
		for _, p := range parts {
			next = append(next, strings.Split(p, sep)...)
		}
		parts = next
	}
	var out []string
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// pageTopic is the best short statement of what a page is about.
func pageTopic(p *page.Page) string {
	if pr := page.ProductsFrom(p); len(pr) == 1 && page.IsProductPage(p) {
		return pr[0].Name
	}
	if len(p.H1) > 0 && p.H1[0] != "" && len(p.H1[0]) <= 70 {
		return p.H1[0]
	}
	if parts := splitTitle(p.Title); len(parts) > 0 {
		return parts[0]
	}
	u, _ := url.Parse(p.URL)
	if u != nil && u.Path != "/" && u.Path != "" {
		return words.TitleCase(strings.NewReplacer("-", " ", "_", " ").Replace(path.Base(u.Path)))
	}
	return ""
}

// suggestTitle drafts a title: "Topic – Store" for inner pages, and
// "Store – what it sells" for the home page.
func (r *reviewer) suggestTitle(p *page.Page) string {
	if p == r.s.Home {
		what := r.sellsPhrase()
		if what == "" {
			return r.store
		}
		return words.Truncate(r.store+" – "+what, 60)
	}
	topic := pageTopic(p)
	if topic == "" || strings.EqualFold(topic, r.store) {
		return r.store
	}
	return words.Truncate(topic+" – "+r.store, 60)
}

// sellsPhrase names what the store sells from its catalogue or headings.
func (r *reviewer) sellsPhrase() string {
	types := page.TopTypes(r.s.Catalogue.Products, 3)
	if len(types) > 0 {
		return words.JoinAnd(types)
	}
	if n := len(r.s.Catalogue.Products); n > 0 {
		names := make([]string, 0, 2)
		for _, p := range r.s.Catalogue.Products[:min(2, n)] {
			names = append(names, p.Name)
		}
		return words.JoinAnd(names)
	}
	if len(r.s.Home.H1) > 0 && !strings.EqualFold(r.s.Home.H1[0], r.store) && len(r.s.Home.H1[0]) <= 50 {
		return r.s.Home.H1[0]
	}
	return ""
}

// suggestDescription drafts a 155-character meta description from the page's
// own content: its product, its first paragraph, or the catalogue.
func (r *reviewer) suggestDescription(p *page.Page) string {
	var text string
	if page.IsProductPage(p) {
		if pr := page.ProductsFrom(p); len(pr) > 0 {
			price := ""
			if pr[0].Price > 0 {
				price = " for " + words.Money(pr[0].Price, words.FirstNonEmpty(pr[0].Currency, r.s.Catalogue.Currency))
			}
			desc := strings.TrimSpace(strings.TrimPrefix(pr[0].Description, pr[0].Name))
			text = fmt.Sprintf("%s%s at %s. %s", pr[0].Name, price, r.store, desc)
		}
	}
	if text == "" && p == r.s.Home {
		names := page.ProductNames(r.s.Catalogue.Products, 3)
		lead := words.First(p.Paragraphs)
		if len(names) > 0 {
			text = fmt.Sprintf("Shop %s at %s: %s. %s", words.FirstNonEmpty(r.sellsPhrase(), "our range"), r.store, words.JoinAnd(names), lead)
		} else if lead != "" {
			text = r.store + ": " + lead
		}
	}
	if text == "" {
		text = words.FirstNonEmpty(words.First(p.Paragraphs), p.OG["og:description"])
		if topic := pageTopic(p); topic != "" {
			text = strings.TrimSpace(topic + " – " + r.store + ". " + text)
		}
	}
	if text == "" {
		text = "Shop " + r.store + " online."
	}
	return strings.ReplaceAll(words.Truncate(words.Collapse(text), 155), `"`, "'")
}

func (r *reviewer) suggestH1(p *page.Page) string {
	if t := pageTopic(p); t != "" {
		return t
	}
	return r.store
}

// suggestAlt drafts alt text from what the page knows about the image:
// the product it shows on a product page, the image's own title, the link
// or caption around it. A file name is never used ("IMG_5134" describes
// nothing); when nothing better is known it asks the owner to describe it.
func (r *reviewer) suggestAlt(p *page.Page, img page.Image) string {
	if page.IsProductPage(p) {
		if pr := page.ProductsFrom(p); len(pr) == 1 && img.Src == p.OG["og:image"] {
			return pr[0].Name
		}
	}
	if c := img.Context; c != "" && len([]rune(c)) <= 100 {
		for _, pr := range r.s.Catalogue.Products {
			if strings.Contains(strings.ToLower(c), strings.ToLower(pr.Name)) {
				return pr.Name
			}
		}
		return strings.ReplaceAll(c, `"`, "'")
	}
	return "describe the image"
}

// productSnippet drafts Product JSON-LD for a product page from what the page
// and the catalogue say about it.
func (r *reviewer) productSnippet(p *page.Page) string {
	name := pageTopic(p)
	var pr *page.Product
	for i := range r.s.Catalogue.Products {
		c := &r.s.Catalogue.Products[i]
		if strings.EqualFold(c.Name, name) || c.URL == p.URL {
			pr = c
			break
		}
	}
	obj := map[string]any{"@context": "https://schema.org", "@type": "Product", "name": name}
	if len(p.Images) > 0 {
		obj["image"] = words.FirstNonEmpty(p.OG["og:image"], p.Images[0].Src) // the first image is often the logo
	}
	desc := words.FirstNonEmpty(p.MetaDesc, words.First(p.Paragraphs))
	if pr != nil {
		desc = words.FirstNonEmpty(pr.Description, desc)
	}
	if desc != "" {
		obj["description"] = words.Truncate(desc, 200)
	}
	offer := map[string]any{"@type": "Offer", "availability": "https://schema.org/InStock", "url": p.URL}
	price := page.ParsePrice(words.FirstNonEmpty(p.OG["product:price:amount"], p.OG["og:price:amount"], p.OG["itemprop:price"]))
	if pr != nil && pr.Price > 0 {
		price = pr.Price
	}
	if price > 0 {
		offer["price"] = fmt.Sprintf("%.2f", price)
	} else {
		offer["price"] = "PRICE"
	}
	offer["priceCurrency"] = words.FirstNonEmpty(r.s.Catalogue.Currency, "USD")
	obj["offers"] = offer
	b, _ := json.Marshal(obj)
	return string(b)
}

func (r *reviewer) ctaLabel() string {
	if t := page.TopTypes(r.s.Catalogue.Products, 1); len(t) > 0 {
		return strings.ToLower(t[0])
	}
	return "now"
}
