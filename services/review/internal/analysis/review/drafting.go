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

	"uplift.dev/review/internal/analysis/page"
	"uplift.dev/review/internal/analysis/site"
	"uplift.dev/review/internal/analysis/words"
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

// descMaxDraft is the length a drafted meta description keeps to: what
// search engines show in full.
const descMaxDraft = 155

// suggestDescription drafts a meta description from the page's own facts,
// each said once: a product page's product (its name, type, brand, price
// and description), the home page's store, tagline and what it sells, or
// another page's topic, the products it lists and its first paragraph.
// Whole sentences are kept while they fit, so no product list is said
// twice and the draft does not stop mid-word.
func (r *reviewer) suggestDescription(p *page.Page) string {
	var sentences []string
	add := func(s string) {
		if s = strings.TrimSpace(words.Collapse(s)); s != "" {
			if !strings.HasSuffix(s, ".") && !strings.HasSuffix(s, "!") && !strings.HasSuffix(s, "?") && !strings.HasSuffix(s, "…") {
				s += "."
			}
			sentences = append(sentences, s)
		}
	}
	said := func(s string) bool {
		all := strings.ToLower(strings.Join(sentences, " "))
		return strings.Contains(all, strings.ToLower(strings.TrimRight(s, ".")))
	}
	switch pr := page.ProductsFrom(p); {
	case page.IsProductPage(p) && len(pr) > 0:
		k := r.catalogueProduct(pr[0])
		head := k.Name
		if t := strings.TrimSpace(k.Type); t != "" && !strings.Contains(strings.ToLower(head), strings.ToLower(t)) {
			head += " (" + strings.ToLower(t) + ")"
		}
		if v := strings.TrimSpace(k.Vendor); v != "" && !strings.EqualFold(v, r.store) && !strings.Contains(strings.ToLower(k.Name), strings.ToLower(v)) {
			head += " by " + v
		}
		if k.Price > 0 {
			head += " for " + words.Money(k.Price, words.FirstNonEmpty(k.Currency, r.s.Catalogue.Currency))
		}
		add(head + " at " + r.store)
		if d := strings.TrimSpace(strings.TrimPrefix(k.Description, k.Name)); d != "" && !said(d) {
			add(d)
		}
	case p == r.s.Home:
		if t := r.tagline(); t != "" {
			add(r.store + ": " + t)
		} else {
			add(r.store)
		}
		if what := r.sellsSentence(r.s.Catalogue.Products, said); what != "" {
			add(what)
		}
		if lead := words.First(p.Paragraphs); lead != "" && !said(lead) {
			add(lead)
		}
	default:
		topic := pageTopic(p)
		if topic != "" && !strings.EqualFold(topic, r.store) {
			add(topic + " – " + r.store)
		} else {
			add(r.store)
		}
		if what := r.sellsSentence(pr, said); what != "" {
			add(what)
		}
		if lead := words.FirstNonEmpty(words.First(p.Paragraphs), p.OG["og:description"]); lead != "" && !said(lead) {
			add(lead)
		}
	}
	if len(sentences) == 1 && sentences[0] == r.store+"." {
		sentences = []string{"Shop " + r.store + " online."}
	}
	return strings.ReplaceAll(fitSentences(sentences, descMaxDraft), `"`, "'")
}

// fitSentences joins whole sentences while they fit in n bytes; the first
// is shortened at a word when it alone is longer, and a later one when
// most of the room would otherwise go unused.
func fitSentences(sentences []string, n int) string {
	var out string
	for i, s := range sentences {
		next := s
		if i > 0 {
			next = out + " " + s
		}
		switch {
		case len(next) <= n:
			out = next
		case i == 0:
			return words.Truncate(s, n)
		case n-len(out) > n/2:
			return words.Truncate(next, n)
		default:
			return out
		}
	}
	return out
}

// catalogueProduct is the catalogue's record of a product read from a
// page (it knows the type and vendor), else the page's own.
func (r *reviewer) catalogueProduct(pr page.Product) page.Product {
	for _, c := range r.s.Catalogue.Products {
		if strings.EqualFold(c.Name, pr.Name) || (pr.URL != "" && c.URL == pr.URL) {
			c.Description = words.FirstNonEmpty(c.Description, pr.Description)
			return c
		}
	}
	return pr
}

// tagline is what the home page says the store is, apart from its name:
// the h1, else the title without the store's name.
func (r *reviewer) tagline() string {
	h := r.s.Home
	if len(h.H1) > 0 {
		if t := strings.TrimSpace(h.H1[0]); t != "" && len(t) <= 80 && !strings.EqualFold(t, r.store) && !genericTitles[strings.ToLower(t)] {
			return t
		}
	}
	// The title's parts that name the store (or its domain) are left out:
	// the draft names the store once, itself.
	squash := func(s string) string {
		return strings.ToLower(strings.Join(strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }), ""))
	}
	var rest []string
	for _, part := range splitTitle(h.Title) {
		if !strings.Contains(squash(part), squash(r.store)) && !genericTitles[strings.ToLower(part)] && domainWord.FindString(part) == "" {
			rest = append(rest, part)
		}
	}
	if t := strings.Join(rest, ", "); len(t) <= 80 {
		return t
	}
	return ""
}

// sellsSentence names what products sells once: its types, else up to
// three of its names, leaving out what the draft has said already.
func (r *reviewer) sellsSentence(products []page.Product, said func(string) bool) string {
	if types := page.TopTypes(products, 3); len(types) > 0 {
		var fresh []string
		for _, t := range types {
			if !said(t) {
				fresh = append(fresh, strings.ToLower(t))
			}
		}
		if len(fresh) > 0 {
			return "Shop " + words.JoinAnd(fresh)
		}
		return ""
	}
	var names []string
	for _, pr := range products {
		if len(names) < 3 && !said(pr.Name) && !slices.Contains(names, pr.Name) {
			names = append(names, pr.Name)
		}
	}
	if len(names) == 0 {
		return ""
	}
	return "Shop " + words.JoinAnd(names)
}

func (r *reviewer) suggestH1(p *page.Page) string {
	if t := pageTopic(p); t != "" {
		return t
	}
	return r.store
}

// altUnknown is suggestAlt's answer when nothing on the page says what
// an image shows.
const altUnknown = ""

// uiIconWords name pictures that only decorate or are controls whose
// button already says what they do: alt="" hides them from screen readers.
var uiIconWords = []string{"plus", "minus", "equal", "close", "arrow", "chevron", "caret", "back-to-top", "spinner", "loader",
	"loading", "spacer", "pixel", "blank", "transparent", "icon", "sprite", "search", "menu", "hamburger", "pause"}

// paymentNames are the payment icons store themes show, by their file
// name's key, as a shopper would read them.
var paymentNames = map[string]string{"american_express": "American Express", "amex": "American Express", "diners_club": "Diners Club",
	"discover": "Discover", "jcb": "JCB", "master": "Mastercard", "mastercard": "Mastercard", "maestro": "Maestro", "visa": "Visa",
	"paypal": "PayPal", "apple_pay": "Apple Pay", "google_pay": "Google Pay", "shopify_pay": "Shop Pay", "klarna": "Klarna", "ideal": "iDEAL"}

// suggestAlt drafts alt text from what the page knows about the image:
// the product it shows (a product page's photo, a product's link or
// caption, a file named after a product's address), its own title, link
// or caption, the payment method of a payment icon, "" for an icon that
// only decorates, and, when first (the page's first image nothing else
// describes: a hero, a product page's photo), the page's product or
// topic. A file name alone is never used
// ("IMG_5134" describes nothing); with nothing known it returns
// altUnknown and false.
func (r *reviewer) suggestAlt(p *page.Page, img page.Image, first bool) (string, bool) {
	clean := func(s string) string { return strings.ReplaceAll(words.Collapse(s), `"`, "'") }
	if page.IsProductPage(p) {
		if pr := page.ProductsFrom(p); len(pr) == 1 && (img.Src == p.OG["og:image"] || slices.Contains(pr[0].ImageURLs, img.Src) ||
			slices.Contains(r.catalogueProduct(pr[0]).ImageURLs, img.Src)) {
			return clean(pr[0].Name), true
		}
	}
	if c := img.Context; c != "" {
		for _, pr := range r.s.Catalogue.Products {
			if pr.Name != "" && strings.Contains(strings.ToLower(c), strings.ToLower(pr.Name)) {
				return clean(pr.Name), true
			}
		}
		return clean(words.Truncate(c, 100)), true
	}
	u, err := url.Parse(img.Src)
	if err != nil {
		return altUnknown, false
	}
	file := strings.ToLower(path.Base(u.Path))
	stem := strings.TrimSuffix(file, path.Ext(file))
	for _, pr := range r.s.Catalogue.Products {
		if pu, err := url.Parse(pr.URL); err == nil && pr.Name != "" {
			if slug := strings.ToLower(path.Base(pu.Path)); len(slug) >= 4 && (stem == slug || strings.HasPrefix(stem, slug+"_") || strings.HasPrefix(stem, slug+"-")) {
				return clean(pr.Name), true
			}
		}
	}
	key := strings.TrimPrefix(stem, "creditcards_")
	if i := strings.LastIndexByte(key, '-'); i > 0 && strings.Contains(strings.ToLower(u.Path), "payment") {
		key = key[:i] // a fingerprint: "visa-54be4e6b…"
	}
	if name, ok := paymentNames[key]; ok {
		return name, true
	}
	if strings.Contains(stem, "logo") {
		return clean(r.store), true
	}
	for _, w := range uiIconWords {
		if strings.Contains(stem, w) {
			return "", true
		}
	}
	if !first {
		return altUnknown, false
	}
	if pr := page.ProductsFrom(p); len(pr) == 1 && page.IsProductPage(p) {
		return clean(pr[0].Name), true
	}
	if p == r.s.Home {
		if t := r.tagline(); t != "" {
			return clean(t), true
		}
		return clean(r.store), true
	}
	if t := pageTopic(p); t != "" {
		return clean(t), true
	}
	return altUnknown, false
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
