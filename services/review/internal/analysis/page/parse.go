package page

import (
	"bytes"
	"net/url"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"uplift.dev/review/internal/analysis/words"
)

// parser is one ParsePage call: the page being filled in and what the walk
// has learnt so far about the document as a whole.
type parser struct {
	p          *Page
	base       *url.URL // <base href> may move it during the walk
	https      bool
	sig        platformSignals
	singleLang *string    // documentLang
	labelledBy [][]string // images named only by aria-labelledby
	sawTitle   bool
}

// ParsePage parses an HTML document fetched from pageURL.
func ParsePage(pageURL string, body []byte) *Page {
	p := &Page{URL: pageURL, Bytes: len(body), OG: map[string]string{}}
	base, _ := url.Parse(pageURL)
	doc, err := html.Parse(bytes.NewReader(body))
	if err != nil || base == nil {
		return p
	}
	ps := &parser{p: p, base: base, https: base.Scheme == "https", sig: platformSignals{body: body}, singleLang: documentLang(doc)}
	ps.walk(doc, walkState{})
	p.ImgNoAltCount += unlabelled(doc, ps.labelledBy)
	for _, obj := range p.JSONLD {
		if jsonldHasReview(obj) {
			p.ReviewMarker = true
		}
	}
	p.Platform = ps.sig.platform()
	return p
}

// resolve is ref made absolute against the page's base, without its
// fragment; "" for no address, data: and javascript: ones.
func (ps *parser) resolve(ref string) string {
	ref = strings.TrimSpace(ref)
	if ref == "" || strings.HasPrefix(ref, "data:") || strings.HasPrefix(ref, "javascript:") {
		return ""
	}
	u, err := ps.base.Parse(ref)
	if err != nil {
		return ""
	}
	u.Fragment = ""
	return u.String()
}

// mixed records addr as mixed content when an https page loads it over http.
func (ps *parser) mixed(addr string) {
	if ps.https && strings.HasPrefix(addr, "http://") {
		ps.p.MixedContent = append(ps.p.MixedContent, addr)
	}
}

// walk reads n and, unless its element's handler read them itself or
// leaves them out, its children with what n tells them (st).
func (ps *parser) walk(n *html.Node, st walkState) {
	if n.Type == html.ElementNode {
		if l, ok := attrOK(n, "lang"); ok {
			st.lang = l
		}
		st.hidden = st.hidden || hiddenOnPhones(n)
		st.ariaHidden = st.ariaHidden || strings.TrimSpace(attr(n, "aria-hidden")) == "true"
		if ps.element(n, &st) {
			return
		}
		ps.anyElement(n)
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		ps.walk(c, st)
	}
}

// element hands n to its element's handler, which may change st for n's
// children; true when the handler read n's children itself or they are
// not read at all (n is then done).
func (ps *parser) element(n *html.Node, st *walkState) (done bool) {
	switch n.DataAtom {
	case atom.Html:
		ps.p.Lang = attr(n, "lang")
	case atom.Head:
		st.inHead = true
	case atom.Body:
		st.inHead = false
	case atom.Base:
		ps.baseElement(n)
	case atom.Title:
		ps.title(n)
	case atom.Meta:
		ps.meta(n, st)
	case atom.Link:
		ps.link(n, st)
	case atom.Script:
		ps.script(n, st)
	case atom.H1:
		ps.p.H1 = append(ps.p.H1, words.Collapse(textOf(n)))
	case atom.H2:
		if len(ps.p.H2) < 30 {
			ps.p.H2 = append(ps.p.H2, words.Collapse(textOf(n)))
		}
	case atom.Figure:
		if c := findChild(n, atom.Figcaption); c != nil {
			st.near = words.FirstNonEmpty(words.Collapse(textOf(c)), st.near)
		}
	case atom.Img:
		ps.img(n, st)
	case atom.A:
		ps.anchor(n, st)
	case atom.Form:
		ps.form(n, *st)
		return true
	case atom.Input:
		ps.input(n, st)
	case atom.Textarea:
		if st.form != nil {
			st.form.HasTextarea = true
		}
	case atom.Button:
		ps.p.Buttons = append(ps.p.Buttons, words.Collapse(textOf(n)+" "+attr(n, "value")))
		if st.form != nil && IsAddToCart(textOf(n)) {
			st.form.CartAdd = true
		}
	case atom.P:
		ps.paragraph(n)
	case atom.Noscript, atom.Template:
		return true
	}
	return false
}

// anyElement reads what any element may carry: a button role, the classes
// that prove a platform, the marks of a review widget.
func (ps *parser) anyElement(n *html.Node) {
	// Any element can be made a button with role="button" (themes
	// build add-to-cart out of <div>s and <a>s).
	if n.DataAtom != atom.Button && strings.EqualFold(strings.TrimSpace(attr(n, "role")), "button") {
		ps.p.Buttons = append(ps.p.Buttons, words.Collapse(textOf(n)+" "+attr(n, "aria-label")))
	}
	cls := strings.ToLower(attr(n, "class"))
	ps.sig.class(cls)
	if !ps.p.ReviewMarker {
		marks := cls + " " + strings.ToLower(attr(n, "id")+" "+attr(n, "itemprop"))
		if marks != "  " && words.ContainsAny(marks, reviewHints) {
			ps.p.ReviewMarker = true
		}
	}
}

// baseElement: <base href> changes how relative links resolve.
func (ps *parser) baseElement(n *html.Node) {
	if b := ps.resolve(attr(n, "href")); b != "" {
		if nb, err := url.Parse(b); err == nil {
			ps.base = nb
		}
	}
}

func (ps *parser) title(n *html.Node) {
	if insideSVG(n) {
		return
	}
	t := words.Collapse(textOf(n))
	// document.title, which Lighthouse reads, is the first <title>'s text
	// even when a later one has some.
	if !ps.sawTitle {
		ps.sawTitle, ps.p.HasTitle = true, t != ""
	}
	if ps.p.Title == "" {
		ps.p.Title = t
	}
}

func (ps *parser) meta(n *html.Node, st *walkState) {
	p := ps.p
	name := strings.ToLower(attr(n, "name"))
	prop := strings.ToLower(attr(n, "property"))
	content := attr(n, "content")
	if name == "description" && st.inHead && p.HeadMetaDesc == nil {
		d := strings.TrimSpace(content)
		p.HeadMetaDesc = &d
	}
	switch {
	case name == "description" && !p.HasMetaDesc:
		p.HasMetaDesc, p.MetaDesc = true, words.Collapse(content)
	case name == "viewport":
		p.HasViewport, p.Viewport = true, content
	case robotsMetaNames[name] && st.inHead: // Lighthouse reads head meta only
		if _, seen := p.MetaRobots[name]; !seen {
			if p.MetaRobots == nil {
				p.MetaRobots = map[string]string{}
			}
			p.MetaRobots[name] = content
		}
	case name == "generator":
		ps.sig.generator += " " + strings.ToLower(content)
	case strings.HasPrefix(prop, "og:") || strings.HasPrefix(prop, "product:"):
		if _, ok := p.OG[prop]; !ok {
			p.OG[prop] = words.Collapse(content)
		}
	}
	if attr(n, "itemprop") == "price" && content != "" {
		p.OG["itemprop:price"] = content
	}
}

func (ps *parser) link(n *html.Node, st *walkState) {
	p := ps.p
	rel := strings.ToLower(attr(n, "rel"))
	raw, hasHref := attrOK(n, "href")
	href := ps.resolve(raw)
	ps.sig.resources = append(ps.sig.resources, href)
	switch {
	case hasToken(rel, "canonical"):
		// Lighthouse matches rel exactly (lowercased): "canonical
		// nofollow" is not its canonical.
		if st.inHead && rel == "canonical" && strings.TrimSpace(raw) != "" {
			p.Canonicals = append(p.Canonicals, strings.TrimSpace(raw))
		}
		if !p.HasCanonical {
			p.Canonical, p.HasCanonical = href, true
		}
	case rel == "alternate" && hasAttr(n, "hreflang") && hasHref:
		p.Hreflangs = append(p.Hreflangs, Hreflang{Lang: attr(n, "hreflang"), RawHref: strings.TrimSpace(raw), InHead: st.inHead})
	case hasToken(rel, "stylesheet") && href != "":
		p.Stylesheets = append(p.Stylesheets, href)
		ps.mixed(href)
	}
}

func (ps *parser) script(n *html.Node, st *walkState) {
	p := ps.p
	typ := strings.ToLower(attr(n, "type"))
	if typ == "application/ld+json" {
		p.JSONLD = append(p.JSONLD, decodeJSONLD(rawText(n))...)
		return
	}
	src := ps.resolve(attr(n, "src"))
	if src == "" {
		ps.sig.inline(rawText(n))
		return
	}
	ps.sig.resources = append(ps.sig.resources, src)
	p.Scripts = append(p.Scripts, src)
	if words.ContainsAny(strings.ToLower(src), reviewHints[3:]) {
		p.ReviewMarker = true
	}
	ps.mixed(src)
	if st.inHead && !hasAttr(n, "async") && !hasAttr(n, "defer") && typ != "module" {
		p.BlockingJS = append(p.BlockingJS, src)
	}
}

func (ps *parser) img(n *html.Node, st *walkState) {
	p := ps.p
	if !st.hidden && !st.ariaHidden && !imgHasTextAlternative(n) {
		if ids := strings.Fields(attr(n, "aria-labelledby")); len(ids) > 0 {
			ps.labelledBy = append(ps.labelledBy, ids)
		} else {
			p.ImgNoAltCount++
		}
	}
	src := attr(n, "src")
	if src == "" {
		src = attr(n, "data-src")
	}
	if abs := ps.resolve(src); abs != "" && !isTrackingPixel(n) {
		ps.sig.resources = append(ps.sig.resources, abs)
		alt, has := attrOK(n, "alt")
		p.Images = append(p.Images, Image{Src: abs, Alt: words.Collapse(alt), HasAlt: has, Tag: shortTag(n),
			Context: words.FirstNonEmpty(words.Collapse(attr(n, "title")), st.near)})
		ps.mixed(abs)
	}
}

// anchor keeps the link for the link audits and names the images inside it
// by what it says (st.near).
func (ps *parser) anchor(n *html.Node, st *walkState) {
	p := ps.p
	raw, hasHref := attrOK(n, "href")
	text := words.Collapse(textOf(n))
	if len(p.Anchors) < maxAnchors {
		a := Anchor{RawHref: raw, HasHref: hasHref, Text: words.Collapse(innerTextOf(n)), Lang: linkLang(n, st.lang, ps.singleLang), Rel: attr(n, "rel"),
			Name: attr(n, "name"), Role: attr(n, "role"), ID: attr(n, "id")}
		if u, err := ps.base.Parse(strings.TrimSpace(raw)); hasHref && err == nil {
			a.Href = u.String()
		}
		for _, at := range n.Attr {
			a.Attrs = append(a.Attrs, strings.ToLower(at.Key))
		}
		p.Anchors = append(p.Anchors, a)
	}
	label := words.FirstNonEmpty(attr(n, "aria-label"), attr(n, "title"), text)
	st.near = words.FirstNonEmpty(label, st.near)
	if href := ps.resolve(raw); href != "" && len(p.Links) < 2000 {
		if text == "" {
			text = words.Collapse(attr(n, "title") + " " + attr(n, "aria-label"))
		}
		p.Links = append(p.Links, Link{Href: href, Text: text})
	}
}

// form reads the form's children with the form in hand, so its fields and
// buttons are counted in it, then keeps it.
func (ps *parser) form(n *html.Node, st walkState) {
	f := &Form{Action: ps.resolve(attr(n, "action"))}
	f.CartAdd = strings.Contains(f.Action, "/cart/add") || strings.Contains(strings.ToLower(attr(n, "class")+attr(n, "id")), "add-to-cart")
	st.form = f
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		ps.walk(c, st)
	}
	f.Text = words.Truncate(words.Collapse(textOf(n)), 200)
	ps.p.Forms = append(ps.p.Forms, *f)
}

func (ps *parser) input(n *html.Node, st *walkState) {
	typ := strings.ToLower(attr(n, "type"))
	name := strings.ToLower(attr(n, "name") + " " + attr(n, "id"))
	if st.form != nil {
		switch {
		case typ == "email" || (typ != "hidden" && strings.Contains(name, "email")):
			st.form.HasEmail = true
		case typ == "password":
			st.form.HasPassword = true
		}
	}
	if typ == "submit" || typ == "button" {
		ps.p.Buttons = append(ps.p.Buttons, words.Collapse(attr(n, "value")))
	}
}

func (ps *parser) paragraph(n *html.Node) {
	if len(ps.p.Paragraphs) >= 12 {
		return
	}
	if t := words.Collapse(textOf(n)); len(t) >= 40 && !isBoilerplate(t) {
		ps.p.Paragraphs = append(ps.p.Paragraphs, t)
	}
}
