package analysis

import (
	"bytes"
	"encoding/json"
	"net/url"
	"strings"
	"unicode"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// page is what the review and the summary need from one HTML page: its head
// elements, headings, images, links, forms and the structured data it carries.
type page struct {
	URL        string
	Status     int
	Bytes      int
	Truncated  bool
	Compressed bool
	CacheCtl   string

	Lang         string
	Title        string
	MetaDesc     string
	HasMetaDesc  bool
	Canonical    string
	HasCanonical bool // a rel=canonical link exists, even with an empty href
	Viewport     string
	HasViewport  bool
	OG           map[string]string // og:* and product:* meta properties
	H1           []string
	H2           []string
	Images       []imageRef
	BlockingJS   []string // external scripts in <head> without async/defer/module
	Scripts      []string // every external script
	Stylesheets  []string
	Links        []linkRef
	Forms        []formRef
	Buttons      []string // text of buttons and submit inputs
	Paragraphs   []string // first paragraphs of visible text, for drafting copy
	JSONLD       []map[string]any
	Logo         string // text or alt of the first element marked as the logo
	ReviewMarker bool   // a review widget or review markup was seen
	Shopify      bool
	MixedContent []string // http:// resources on an https page
}

type imageRef struct {
	Src    string
	Alt    string
	HasAlt bool
	Tag    string // the element as a short string for findings
}

type linkRef struct {
	Href string // absolute URL
	Text string
}

type formRef struct {
	Action      string
	HasEmail    bool
	HasPassword bool
	HasTextarea bool
	Text        string // visible text near the form (its own text)
	CartAdd     bool
}

// reviewHints are class, id and script fragments of common review widgets.
var reviewHints = []string{"review", "rating", "stars", "yotpo", "judgeme", "judge.me", "okendo", "stamped", "trustpilot", "loox", "feefo", "bazaarvoice", "trustedshops", "avis", "bewertung"}

// parsePage parses an HTML document fetched from pageURL.
func parsePage(pageURL string, body []byte) *page {
	p := &page{URL: pageURL, Bytes: len(body), OG: map[string]string{}}
	base, _ := url.Parse(pageURL)
	doc, err := html.Parse(bytes.NewReader(body))
	if err != nil || base == nil {
		return p
	}
	if bytes.Contains(body, []byte("cdn.shopify.com")) || bytes.Contains(body, []byte("Shopify.theme")) ||
		bytes.Contains(body, []byte("shopify-section")) || bytes.Contains(body, []byte("myshopify.com")) {
		p.Shopify = true
	}
	https := base.Scheme == "https"
	resolve := func(ref string) string {
		ref = strings.TrimSpace(ref)
		if ref == "" || strings.HasPrefix(ref, "data:") || strings.HasPrefix(ref, "javascript:") {
			return ""
		}
		u, err := base.Parse(ref)
		if err != nil {
			return ""
		}
		u.Fragment = ""
		return u.String()
	}
	// <base href> changes how relative links resolve.
	var walk func(n *html.Node, inHead bool, inForm *formRef)
	walk = func(n *html.Node, inHead bool, inForm *formRef) {
		if n.Type == html.ElementNode {
			switch n.DataAtom {
			case atom.Html:
				p.Lang = attr(n, "lang")
			case atom.Head:
				inHead = true
			case atom.Body:
				inHead = false
			case atom.Base:
				if b := resolve(attr(n, "href")); b != "" {
					if nb, err := url.Parse(b); err == nil {
						base = nb
					}
				}
			case atom.Title:
				if p.Title == "" && !insideSVG(n) {
					p.Title = collapse(textOf(n))
				}
			case atom.Meta:
				name := strings.ToLower(attr(n, "name"))
				prop := strings.ToLower(attr(n, "property"))
				content := attr(n, "content")
				switch {
				case name == "description" && !p.HasMetaDesc:
					p.HasMetaDesc, p.MetaDesc = true, collapse(content)
				case name == "viewport":
					p.HasViewport, p.Viewport = true, content
				case strings.HasPrefix(prop, "og:") || strings.HasPrefix(prop, "product:"):
					if _, ok := p.OG[prop]; !ok {
						p.OG[prop] = collapse(content)
					}
				}
				if attr(n, "itemprop") == "price" && content != "" {
					p.OG["itemprop:price"] = content
				}
			case atom.Link:
				rel := strings.ToLower(attr(n, "rel"))
				href := resolve(attr(n, "href"))
				switch {
				case hasToken(rel, "canonical") && p.Canonical == "":
					p.Canonical, p.HasCanonical = href, true
				case hasToken(rel, "stylesheet") && href != "":
					p.Stylesheets = append(p.Stylesheets, href)
					if https && strings.HasPrefix(href, "http://") {
						p.MixedContent = append(p.MixedContent, href)
					}
				}
			case atom.Script:
				typ := strings.ToLower(attr(n, "type"))
				if typ == "application/ld+json" {
					p.JSONLD = append(p.JSONLD, decodeJSONLD(rawText(n))...)
					break
				}
				src := resolve(attr(n, "src"))
				if src == "" {
					if strings.Contains(strings.ToLower(rawText(n)), "shopify") {
						p.Shopify = true
					}
					break
				}
				p.Scripts = append(p.Scripts, src)
				if containsAny(strings.ToLower(src), reviewHints[3:]) {
					p.ReviewMarker = true
				}
				if https && strings.HasPrefix(src, "http://") {
					p.MixedContent = append(p.MixedContent, src)
				}
				if inHead && !hasAttr(n, "async") && !hasAttr(n, "defer") && typ != "module" {
					p.BlockingJS = append(p.BlockingJS, src)
				}
			case atom.H1:
				p.H1 = append(p.H1, collapse(textOf(n)))
			case atom.H2:
				if len(p.H2) < 30 {
					p.H2 = append(p.H2, collapse(textOf(n)))
				}
			case atom.Img:
				src := attr(n, "src")
				if src == "" {
					src = attr(n, "data-src")
				}
				if abs := resolve(src); abs != "" && !isTrackingPixel(n) {
					alt, has := attrOK(n, "alt")
					p.Images = append(p.Images, imageRef{Src: abs, Alt: collapse(alt), HasAlt: has, Tag: shortTag(n)})
					if https && strings.HasPrefix(abs, "http://") {
						p.MixedContent = append(p.MixedContent, abs)
					}
				}
			case atom.A:
				if href := resolve(attr(n, "href")); href != "" && len(p.Links) < 2000 {
					text := collapse(textOf(n))
					if text == "" {
						text = collapse(attr(n, "title") + " " + attr(n, "aria-label"))
					}
					p.Links = append(p.Links, linkRef{Href: href, Text: text})
				}
			case atom.Form:
				f := &formRef{Action: resolve(attr(n, "action"))}
				f.CartAdd = strings.Contains(f.Action, "/cart/add") || strings.Contains(strings.ToLower(attr(n, "class")+attr(n, "id")), "add-to-cart")
				for c := n.FirstChild; c != nil; c = c.NextSibling {
					walk(c, inHead, f)
				}
				f.Text = truncateWords(collapse(textOf(n)), 200)
				p.Forms = append(p.Forms, *f)
				return
			case atom.Input:
				typ := strings.ToLower(attr(n, "type"))
				name := strings.ToLower(attr(n, "name") + " " + attr(n, "id"))
				if inForm != nil {
					switch {
					case typ == "email" || (typ != "hidden" && strings.Contains(name, "email")):
						inForm.HasEmail = true
					case typ == "password":
						inForm.HasPassword = true
					}
				}
				if typ == "submit" || typ == "button" {
					p.Buttons = append(p.Buttons, collapse(attr(n, "value")))
				}
			case atom.Textarea:
				if inForm != nil {
					inForm.HasTextarea = true
				}
			case atom.Button:
				p.Buttons = append(p.Buttons, collapse(textOf(n)+" "+attr(n, "value")))
				if inForm != nil && isAddToCart(textOf(n)) {
					inForm.CartAdd = true
				}
			case atom.P:
				if len(p.Paragraphs) < 12 {
					if t := collapse(textOf(n)); len(t) >= 40 {
						p.Paragraphs = append(p.Paragraphs, t)
					}
				}
			case atom.Noscript, atom.Template:
				return
			}
			if p.Logo == "" && n.DataAtom != atom.Html && n.DataAtom != atom.Body && strings.Contains(strings.ToLower(attr(n, "class")+" "+attr(n, "id")), "logo") {
				if t := collapse(textOf(n)); t != "" && len(t) <= 40 {
					p.Logo = t
				} else if n.DataAtom == atom.Img && len(collapse(attr(n, "alt"))) <= 40 {
					p.Logo = collapse(attr(n, "alt"))
				}
			}
			if !p.ReviewMarker {
				cls := strings.ToLower(attr(n, "class") + " " + attr(n, "id") + " " + attr(n, "itemprop"))
				if cls != "  " && containsAny(cls, reviewHints) {
					p.ReviewMarker = true
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, inHead, inForm)
		}
	}
	walk(doc, false, nil)
	for _, obj := range p.JSONLD {
		if jsonldHasReview(obj) {
			p.ReviewMarker = true
		}
	}
	return p
}

// decodeJSONLD returns the objects in a JSON-LD script, flattening arrays
// and @graph. Invalid JSON yields nothing: broken markup is a finding, not
// an error.
func decodeJSONLD(text string) []map[string]any {
	var v any
	dec := json.NewDecoder(strings.NewReader(strings.TrimSpace(text)))
	if err := dec.Decode(&v); err != nil {
		return nil
	}
	var out []map[string]any
	var add func(v any, depth int)
	add = func(v any, depth int) {
		if depth > 4 {
			return
		}
		switch t := v.(type) {
		case []any:
			for _, e := range t {
				add(e, depth+1)
			}
		case map[string]any:
			out = append(out, t)
			if g, ok := t["@graph"]; ok {
				add(g, depth+1)
			}
		}
	}
	add(v, 0)
	return out
}

// jsonldTypes returns the lower-cased @type values of a JSON-LD object.
func jsonldTypes(obj map[string]any) []string {
	switch t := obj["@type"].(type) {
	case string:
		return []string{strings.ToLower(t)}
	case []any:
		var out []string
		for _, e := range t {
			if s, ok := e.(string); ok {
				out = append(out, strings.ToLower(s))
			}
		}
		return out
	}
	return nil
}

func jsonldIs(obj map[string]any, types ...string) bool {
	for _, t := range jsonldTypes(obj) {
		for _, want := range types {
			if t == want {
				return true
			}
		}
	}
	return false
}

func jsonldHasReview(obj map[string]any) bool {
	if _, ok := obj["aggregateRating"]; ok {
		return true
	}
	if _, ok := obj["review"]; ok {
		return true
	}
	return jsonldIs(obj, "review", "aggregaterating")
}

func attr(n *html.Node, key string) string {
	v, _ := attrOK(n, key)
	return v
}

func attrOK(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Namespace == "" && strings.EqualFold(a.Key, key) {
			return a.Val, true
		}
	}
	return "", false
}

func hasAttr(n *html.Node, key string) bool {
	_, ok := attrOK(n, key)
	return ok
}

func hasToken(list, tok string) bool {
	for _, f := range strings.Fields(list) {
		if f == tok {
			return true
		}
	}
	return false
}

func insideSVG(n *html.Node) bool {
	for p := n.Parent; p != nil; p = p.Parent {
		if p.DataAtom == atom.Svg {
			return true
		}
	}
	return false
}

// textOf returns the text inside n, skipping nested scripts and styles,
// bounded so a huge page cannot make one heading enormous.
func textOf(root *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if b.Len() > 4000 {
			return
		}
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
			b.WriteByte(' ')
			return
		}
		if n != root && n.Type == html.ElementNode {
			switch n.DataAtom {
			case atom.Script, atom.Style, atom.Noscript, atom.Template, atom.Svg:
				return
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(root)
	return b.String()
}

// rawText returns the unbounded text children of a script element.
func rawText(n *html.Node) string {
	var b strings.Builder
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.TextNode {
			b.WriteString(c.Data)
		}
	}
	return b.String()
}

// collapse trims and folds runs of white space into one space.
func collapse(s string) string {
	return strings.Join(strings.FieldsFunc(s, unicode.IsSpace), " ")
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

func isTrackingPixel(n *html.Node) bool {
	w, h := attr(n, "width"), attr(n, "height")
	return (w == "1" || w == "0") && (h == "1" || h == "0")
}

// shortTag renders an element's opening tag with its identifying
// attributes, for naming it in a finding.
func shortTag(n *html.Node) string {
	var b strings.Builder
	b.WriteString("<" + n.Data)
	for _, key := range []string{"src", "href", "rel", "name", "property", "type", "alt"} {
		if v, ok := attrOK(n, key); ok {
			if len(v) > 120 {
				v = v[:120] + "…"
			}
			b.WriteString(" " + key + `="` + v + `"`)
		}
	}
	b.WriteString(">")
	return b.String()
}

// addToCartWords are add-to-cart button labels in the languages of the
// stores we have seen.
var addToCartWords = []string{
	"add to cart", "add to bag", "add to basket", "buy now", "buy it now", "add to trolley",
	"ajouter au panier", "in den warenkorb", "in den einkaufswagen", "añadir al carrito", "agregar al carrito",
	"adicionar ao carrinho", "comprar", "aggiungi al carrello", "in winkelwagen", "dodaj v košarico", "dodaj do koszyka",
	"kosár", "köp", "lägg i varukorg", "купить", "в корзину", "panier", "warenkorb", "carrinho", "carrito",
}

func isAddToCart(s string) bool {
	return containsAny(strings.ToLower(collapse(s)), addToCartWords)
}

// truncateWords shortens s to at most n bytes at a word boundary, adding "…".
func truncateWords(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := strings.LastIndexByte(s[:n], ' ')
	if cut < n/2 {
		cut = n
		for cut > 0 && !utf8Start(s[cut]) {
			cut--
		}
	}
	return strings.TrimRight(s[:cut], " ,.;:-–") + "…"
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }
