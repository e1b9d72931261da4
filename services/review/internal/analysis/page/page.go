// Package page reads one HTML page into what the review needs: its head
// elements, headings, images, links, forms, structured data and the store
// platform its markup proves. No I/O.
package page

import (
	"encoding/json"
	"net/url"
	"slices"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
	"uplift.dev/review/internal/analysis/words"
)

// Page is what the review and the summary need from one HTML page: its head
// elements, headings, images, links, forms and the structured data it carries.
type Page struct {
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
	Images       []Image
	BlockingJS   []string // external scripts in <head> without async/defer/module
	Scripts      []string // every external script
	Stylesheets  []string
	Links        []Link
	Forms        []Form
	Buttons      []string // text of buttons and submit inputs
	Paragraphs   []string // first paragraphs of visible text, for drafting copy
	JSONLD       []map[string]any
	ReviewMarker bool     // a review widget or review markup was seen
	MixedContent []string // http:// resources on an https page
	Platform     string   // the store platform the page's markup proves, "" when none

	// What Lighthouse's SEO audits read, kept as Lighthouse sees it.
	HasTitle      bool              // a <title> with text (document-title)
	HeadMetaDesc  *string           // the first <meta name="description"> in <head>, trimmed; nil when none (meta-description)
	Canonicals    []string          // raw hrefs of rel=canonical links in <head> or Link headers
	Hreflangs     []Hreflang        // rel=alternate links with hreflang, from <head>, the body or Link headers
	Anchors       []Anchor          // every <a>, for link-text and crawlable-anchors
	MetaRobots    map[string]string // name → content of the first <meta name="robots"> and of each crawler's own (googlebot, bingbot...)
	XRobotsTag    []string          // X-Robots-Tag response headers
	ImgNoAltCount int               // <img> with no text alternative, as axe's image-alt rule counts
}

// Hreflang is a <link rel="alternate" hreflang> as written.
type Hreflang struct {
	Lang, RawHref string
	InHead        bool // in <head> or a Link header, where Lighthouse reads it
}

// robotsMetaNames are the robots meta tags Lighthouse's is-crawlable reads:
// the generic one and those of the crawlers it asks for.
var robotsMetaNames = map[string]bool{"robots": true, "googlebot": true, "bingbot": true, "duckduckbot": true, "archive.org_bot": true}

// Anchor is an <a> element as Lighthouse's AnchorElements artifact has it.
type Anchor struct {
	RawHref    string // the href attribute as written
	HasHref    bool
	Href       string // resolved, "" when it does not resolve
	Text       string
	Lang       string // the nearest lang attribute
	Rel        string // as written: Lighthouse's nofollow test is case-sensitive
	Name, Role string
	ID         string
	Attrs      []string // attribute names
}

type Image struct {
	Src     string
	Alt     string
	HasAlt  bool
	Tag     string // the element as a short string for findings
	Context string // what the page says around the image: its title, link or caption
}

type Link struct {
	Href string // absolute URL
	Text string
}

type Form struct {
	Action      string
	HasEmail    bool
	HasPassword bool
	HasTextarea bool
	Text        string // visible text near the form (its own text)
	CartAdd     bool
}

// reviewHints are class, id and script fragments of common review widgets.
var reviewHints = []string{"review", "rating", "stars", "yotpo", "judgeme", "judge.me", "okendo", "stamped", "trustpilot", "loox", "feefo", "bazaarvoice", "trustedshops", "avis", "bewertung"}

// maxAnchors bounds the <a> elements kept for the link audits.
const maxAnchors = 3000

// walkState is what the walk knows about a node's ancestors.
type walkState struct {
	inHead bool
	form   *Form
	lang   string // the nearest lang attribute
	near   string // what an enclosing link or figure says, for images
	hidden bool   // an ancestor is hidden on phones (see hiddenOnPhones)
	// an ancestor has aria-hidden="true": axe leaves what is inside out
	// of the accessibility tree, and so out of image-alt
	ariaHidden bool
}

// documentLang is the page's one language when a single element carries a
// lang attribute and it is <html> or <body> (Lighthouse then gives every
// link that language), else nil.
func documentLang(doc *html.Node) *string {
	var found []*html.Node
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if len(found) > 1 {
			return
		}
		if n.Type == html.ElementNode && hasAttr(n, "lang") {
			found = append(found, n)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	if len(found) != 1 || (found[0].DataAtom != atom.Html && found[0].DataAtom != atom.Body) {
		return nil
	}
	l := attr(found[0], "lang")
	return &l
}

// linkLang is the language of a link's text as Lighthouse reads it: the
// page's one language, else the lang of the elements with text inside the
// link (none when they disagree), else the link's own.
func linkLang(a *html.Node, inherited string, single *string) string {
	if single != nil {
		return *single
	}
	var cur string
	mixed := false
	var walk func(n *html.Node, lang string)
	walk = func(n *html.Node, lang string) {
		for c := n.FirstChild; c != nil && !mixed; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			l := lang
			if v, ok := attrOK(c, "lang"); ok {
				l = v
			}
			if l != "" && collectText(c, false) != "" {
				switch base, _, _ := strings.Cut(l, "-"); {
				case cur == "":
					cur = l
				case base != strings.SplitN(cur, "-", 2)[0]:
					mixed = true
				}
			}
			walk(c, l)
		}
	}
	walk(a, inherited)
	switch {
	case mixed:
		return ""
	case cur != "":
		return cur
	}
	return inherited
}

// unlabelled counts the images whose aria-labelledby names no element with
// text: axe reads the referenced elements' text, and none is no name.
func unlabelled(doc *html.Node, refs [][]string) int {
	if len(refs) == 0 {
		return 0
	}
	named := map[string]bool{}
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			if id := attr(n, "id"); id != "" && !named[id] {
				named[id] = strings.TrimSpace(textOf(n)) != "" || strings.TrimSpace(attr(n, "aria-label")) != ""
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	count := 0
	for _, ids := range refs {
		if !slices.ContainsFunc(ids, func(id string) bool { return named[id] }) {
			count++
		}
	}
	return count
}

// imgHasTextAlternative applies axe's image-alt rule (what Lighthouse's
// image-alt audit runs) apart from aria-labelledby, which needs the whole
// page (unlabelled): an alt attribute (even empty), an aria label, a title,
// or a presentational role.
func imgHasTextAlternative(n *html.Node) bool {
	// alt="" marks a decorative image; an alt of spaces only is no name
	// (axe's alt-space-value).
	if alt, ok := attrOK(n, "alt"); (ok && (alt == "" || strings.TrimSpace(alt) != "")) || strings.TrimSpace(attr(n, "aria-label")) != "" ||
		strings.TrimSpace(attr(n, "title")) != "" || attr(n, "aria-hidden") == "true" {
		return true
	}
	switch strings.ToLower(strings.TrimSpace(attr(n, "role"))) {
	case "none", "presentation":
		// A browser ignores the role of a focusable image or one with
		// ARIA attributes (presentational role conflict resolution).
		if hasAttr(n, "tabindex") {
			return false
		}
		for _, a := range n.Attr {
			if strings.HasPrefix(strings.ToLower(a.Key), "aria-") {
				return false
			}
		}
		return true
	}
	return false
}

// hiddenByMarkup reports an element hidden whatever the stylesheets say:
// the hidden attribute, an inline display:none or visibility:hidden.
func hiddenByMarkup(n *html.Node) bool {
	if hasAttr(n, "hidden") {
		return true
	}
	style := strings.ReplaceAll(strings.ToLower(attr(n, "style")), " ", "")
	return strings.Contains(style, "display:none") || strings.Contains(style, "visibility:hidden")
}

// hiddenOnPhones reports whether markup alone hides an element on a
// phone-sized screen, the screen Lighthouse emulates: the hidden
// attribute, an inline display:none or visibility:hidden, or the hiding
// classes of Bootstrap and similar frameworks (modals are closed). Accessibility audits skip hidden elements.
func hiddenOnPhones(n *html.Node) bool {
	if hiddenByMarkup(n) {
		return true
	}
	for _, c := range strings.Fields(strings.ToLower(attr(n, "class"))) {
		switch c {
		case "hidden", "hide", "hidden-xs", "d-none", "visible-lg", "visible-md", "hidden-mobile", "hide-mobile", "modal":
			return true
		}
	}
	return false
}

func findChild(n *html.Node, a atom.Atom) *html.Node {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && c.DataAtom == a {
			return c
		}
	}
	return nil
}

// boilerplateWords mark paragraphs that are the shop's machinery talking
// (currency pickers, cookie banners, browser warnings), not the store
// describing itself.
var boilerplateWords = []string{"currency", "cookie", "javascript", "your browser", "you are now shopping", "sign in", "log in", "logged in", "shopping cart", "your cart", "newsletter", "subscribe", "copyright", "©", "all rights reserved"}

func isBoilerplate(t string) bool {
	return words.ContainsAny(strings.ToLower(t), boilerplateWords)
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

func JSONLDIs(obj map[string]any, types ...string) bool {
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
	return JSONLDIs(obj, "review", "aggregaterating")
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
func textOf(root *html.Node) string { return collectText(root, false) }

// innerTextOf is root's text as a browser renders it (innerText, which
// Lighthouse's link-text reads): text inside descendants that markup hides
// is left out.
func innerTextOf(root *html.Node) string { return collectText(root, true) }

func collectText(root *html.Node, rendered bool) string {
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
			if rendered && hiddenByMarkup(n) {
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

func IsAddToCart(s string) bool {
	return words.ContainsAny(strings.ToLower(words.Collapse(s)), addToCartWords)
}

// HasAddToCart reports whether the page lets a shopper add something to
// the cart: a cart form or an add-to-cart button.
func HasAddToCart(p *Page) bool {
	for _, f := range p.Forms {
		if f.CartAdd {
			return true
		}
	}
	for _, b := range p.Buttons {
		if IsAddToCart(b) {
			return true
		}
	}
	return false
}

// AddLinkHeaders reads the canonical and hreflang links of HTTP Link
// headers (RFC 8288), which Lighthouse counts with those in <head>.
func (p *Page) AddLinkHeaders(values []string) {
	base, err := url.Parse(p.URL)
	if err != nil {
		return
	}
	for _, v := range values {
		for _, l := range parseLinkHeader(v) {
			rel := strings.ToLower(l.rel)
			switch {
			case rel == "canonical":
				if l.uri != "" {
					p.Canonicals = append(p.Canonicals, l.uri)
				}
				if u, err := base.Parse(l.uri); err == nil && !p.HasCanonical {
					p.Canonical, p.HasCanonical = u.String(), true
				}
			case rel == "alternate" && l.hreflang != "":
				p.Hreflangs = append(p.Hreflangs, Hreflang{Lang: l.hreflang, RawHref: l.uri, InHead: true})
			}
		}
	}
}

type linkRef struct{ uri, rel, hreflang string }

// parseLinkHeader splits one Link header value into its links:
// `<uri>; rel="..."; hreflang=..., <uri>; ...`.
func parseLinkHeader(v string) []linkRef {
	var out []linkRef
	for {
		i := strings.IndexByte(v, '<')
		if i < 0 {
			return out
		}
		j := strings.IndexByte(v[i:], '>')
		if j < 0 {
			return out
		}
		ref := linkRef{uri: strings.TrimSpace(v[i+1 : i+j])}
		v = v[i+j+1:]
		end, quoted := len(v), false
		for k, r := range v {
			if r == '"' {
				quoted = !quoted
			} else if r == ',' && !quoted {
				end = k
				break
			}
		}
		for _, param := range strings.Split(v[:end], ";") {
			key, val, ok := strings.Cut(param, "=")
			if !ok {
				continue
			}
			val = strings.Trim(strings.TrimSpace(val), `"`)
			switch strings.ToLower(strings.TrimSpace(key)) {
			case "rel":
				ref.rel = val
			case "hreflang":
				ref.hreflang = val
			}
		}
		out = append(out, ref)
		v = v[end:]
	}
}
