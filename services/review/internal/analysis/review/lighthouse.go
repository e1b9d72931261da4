package review

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"time"

	"golang.org/x/text/language"
	"uplift.dev/review/internal/analysis/page"
	"uplift.dev/review/internal/analysis/site"
)

// Lighthouse's SEO audits, each applied to one page on Lighthouse's own
// criterion (Lighthouse 13, core/audits/seo). An audit Lighthouse marks
// "not applicable" passes, as Lighthouse scores it.

func auditTitle(p *page.Page, _ *site.Site) bool { return p.HasTitle }

// auditMetaDesc reads the description in <head> only, as Lighthouse does.
func auditMetaDesc(p *page.Page, _ *site.Site) bool {
	return p.HeadMetaDesc != nil && *p.HeadMetaDesc != ""
}

func auditHTTPStatus(p *page.Page, _ *site.Site) bool { return p.Status == 0 || p.Status < 400 }

func auditImageAlt(p *page.Page, _ *site.Site) bool { return p.ImgNoAltCount == 0 }

// canonicalProblem returns why a page's canonical links fail Lighthouse's
// canonical audit, or "" when they pass (none at all is not applicable).
func canonicalProblem(p *page.Page) string {
	base, err := url.Parse(p.URL)
	if err != nil {
		return ""
	}
	unique := map[string]bool{}
	var first string
	for _, raw := range p.Canonicals {
		u, err := url.Parse(raw)
		if err != nil {
			return fmt.Sprintf("the canonical link %q is not a valid address", raw)
		}
		if !u.IsAbs() || u.Host == "" {
			return fmt.Sprintf("the canonical link %q is relative; search engines need the full address", raw)
		}
		abs := base.ResolveReference(u).String()
		if !unique[abs] {
			unique[abs] = true
			if first == "" {
				first = abs
			}
		}
	}
	switch {
	case len(unique) == 0:
		return ""
	case len(unique) > 1:
		return fmt.Sprintf("the page has %d canonical links that disagree", len(unique))
	}
	c, _ := url.Parse(first)
	alternates := map[string]bool{}
	for _, h := range p.Hreflangs {
		if u, err := base.Parse(h.RawHref); err == nil && h.InHead {
			alternates[u.String()] = true
		}
	}
	if alternates[base.String()] && alternates[c.String()] && base.String() != c.String() {
		return "the canonical link points at another language version of the page"
	}
	if c.Scheme+"://"+c.Host == base.Scheme+"://"+base.Host && (c.Path == "/" || c.Path == "") && base.Path != "/" && base.Path != "" {
		return "the canonical link points at the home page instead of this page"
	}
	return ""
}

func auditCanonical(p *page.Page, _ *site.Site) bool { return canonicalProblem(p) == "" }

// nonDescriptiveLinkTexts are the link texts Lighthouse's link-text audit
// refuses, by language.
var nonDescriptiveLinkTexts = map[string][]string{
	"en": {"click here", "click this", "go", "here", "information", "learn more", "more", "more info", "more information", "right here", "read more", "see more", "start", "this"},
	"es": {"click aquí", "click aqui", "clicka aquí", "clicka aqui", "pincha aquí", "pincha aqui", "aquí", "aqui", "más", "mas", "más información", "más informacion", "mas información", "mas informacion", "este", "enlace", "este enlace", "empezar"},
	"pt": {"clique aqui", "ir", "mais informação", "mais informações", "mais", "veja mais"},
	"sv": {"här", "klicka här", "läs mer", "mer", "mer info", "mer information"},
	"de": {"klicke hier", "hier klicken", "hier", "mehr", "siehe", "dies", "das", "weiterlesen"},
	"ja": {"ここをクリック", "こちらをクリック", "リンク", "続きを読む", "続く", "全文表示"},
	"ko": {"여기", "여기를 클릭", "클릭", "링크", "자세히", "자세히 보기", "계속", "이동", "전체 보기"},
	"ta": {"அடுத்த பக்கம்", "மறுபக்கம்", "முந்தைய பக்கம்", "முன்பக்கம்", "மேலும் அறிக", "மேலும் தகவலுக்கு", "மேலும் தரவுகளுக்கு", "தயவுசெய்து இங்கே அழுத்தவும்", "இங்கே கிளிக் செய்யவும்"},
	"fa": {"اطلاعات بیشتر", "اطلاعات", "این", "اینجا بزنید", "اینجا کلیک کنید", "اینجا", "برو", "بیشتر بخوانید", "بیشتر بدانید", "بیشتر", "شروع"},
}

// isNonDescriptive matches the lists as Lighthouse does: the language's
// list when the text has one, picked by the lang attribute as written (so
// lang="EN" finds none), every list when it has none.
func isNonDescriptive(text, lang string) bool {
	t := strings.ToLower(text)
	if lang != "" {
		base, _, _ := strings.Cut(lang, "-")
		for _, w := range nonDescriptiveLinkTexts[base] {
			if w == t {
				return true
			}
		}
		return false
	}
	for _, ws := range nonDescriptiveLinkTexts {
		for _, w := range ws {
			if w == t {
				return true
			}
		}
	}
	return false
}

// vagueLinks returns the anchors that fail the link-text audit.
func vagueLinks(p *page.Page) []page.Anchor {
	var out []page.Anchor
	pageURL := withoutFragment(p.URL)
	for _, a := range p.Anchors {
		if a.Href == "" || strings.Contains(a.Rel, "nofollow") {
			continue
		}
		h := strings.ToLower(a.Href)
		if strings.HasPrefix(h, "javascript:") || strings.HasPrefix(h, "mailto:") || withoutFragment(a.Href) == pageURL {
			continue
		}
		t := strings.TrimSpace(a.Text)
		if t == "" {
			continue
		}
		if isNonDescriptive(t, a.Lang) {
			out = append(out, a)
		}
	}
	return out
}

func withoutFragment(s string) string {
	if i := strings.IndexByte(s, '#'); i >= 0 {
		return s[:i]
	}
	return s
}

func auditLinkText(p *page.Page, _ *site.Site) bool { return len(vagueLinks(p)) == 0 }

var (
	javaScriptVoid = regexp.MustCompile(`javascript:void(\(|)0(\)|)`)
	hrefAttrs      = []string{"href", "target", "download", "ping", "rel", "hreflang", "type", "referrerpolicy"}
)

// uncrawlable returns the anchors that fail the crawlable-anchors audit:
// links a crawler cannot follow (no href, javascript:void(0), a file: URL
// or an address that does not parse).
func uncrawlable(p *page.Page) []page.Anchor {
	base, _ := url.Parse(p.URL)
	var out []page.Anchor
	for _, a := range p.Anchors {
		raw := strings.Join(strings.Fields(a.RawHref), "")
		if strings.TrimSpace(a.Role) != "" || strings.HasPrefix(raw, "mailto:") || (raw == "" && a.ID != "") {
			continue
		}
		if strings.HasPrefix(raw, "file:") {
			out = append(out, a)
			continue
		}
		if strings.TrimSpace(a.Name) != "" {
			continue
		}
		placeholder := !a.HasHref
		for _, at := range hrefAttrs {
			if containsString(a.Attrs, at) {
				placeholder = false
			}
		}
		// An <a> without href or any attribute that goes with one is a
		// placeholder (HTML spec), which Lighthouse fails only when it
		// listens for events. The served HTML shows inline handlers, not
		// listeners a script adds later.
		if placeholder {
			if hasInlineHandler(a.Attrs) {
				out = append(out, a)
			}
			continue
		}
		if !a.HasHref || javaScriptVoid.MatchString(raw) {
			out = append(out, a)
			continue
		}
		if base != nil && !resolvable(base, raw) {
			out = append(out, a)
		}
	}
	return out
}

// resolvable reports whether new URL(raw, base) succeeds in a browser
// (WHATWG URL, where "\" counts as "/" in http(s) addresses): an address
// that opens an authority ("//", or its own scheme not followed by a
// relative path) needs a host there; "http:foo" on an http page is
// relative to it, "https:foo" on an http page has host "foo".
func resolvable(base *url.URL, raw string) bool {
	u, err := base.Parse(raw)
	if err != nil {
		return false
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return true
	}
	rest := raw
	if i := strings.IndexByte(raw, ':'); i > 0 && strings.EqualFold(raw[:i], u.Scheme) {
		rest = raw[i+1:]
		if strings.EqualFold(raw[:i], base.Scheme) && !twoSlashes(rest) {
			return true
		}
	} else if !twoSlashes(rest) {
		return true
	}
	host := strings.TrimLeft(rest, `/\`)
	if k := strings.IndexAny(host, `/\?#`); k >= 0 {
		host = host[:k]
	}
	return host != ""
}

func twoSlashes(s string) bool {
	isSlash := func(b byte) bool { return b == '/' || b == '\\' }
	return len(s) >= 2 && isSlash(s[0]) && isSlash(s[1])
}

// hasInlineHandler reports an on* event handler attribute (onclick...).
func hasInlineHandler(attrs []string) bool {
	for _, at := range attrs {
		if len(at) > 2 && strings.HasPrefix(at, "on") {
			return true
		}
	}
	return false
}

func containsString(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func auditCrawlableAnchors(p *page.Page, _ *site.Site) bool { return len(uncrawlable(p)) == 0 }

// crawlers are the user agents Lighthouse's is-crawlable asks for: ""
// (any crawler) and four named ones. The page fails only when every one
// of them is kept out.
var crawlers = []string{"", "Googlebot", "bingbot", "DuckDuckBot", "archive.org_bot"}

// noindexReason returns what keeps every crawler from indexing the page, as
// Lighthouse 13 decides it, or "" when at least one may. A crawler reads
// its own robots meta tag when there is one, else <meta name="robots">, and
// the X-Robots-Tag headers that name no crawler or name it exactly.
// (robots.txt is not read here: the review obeys it itself, so a page it
// blocks is not reviewed at all.)
func noindexReason(p *page.Page, now time.Time) string {
	var generic string
	for _, ua := range crawlers {
		why := blockedFor(p, ua, now)
		if why == "" {
			return ""
		}
		if ua == "" {
			generic = why
		}
	}
	return generic
}

// blockedFor returns the directive that keeps the crawler ua out, or "".
func blockedFor(p *page.Page, ua string, now time.Time) string {
	name := "robots"
	if _, ok := p.MetaRobots[strings.ToLower(ua)]; ua != "" && ok {
		name = strings.ToLower(ua)
	}
	if c, ok := p.MetaRobots[name]; ok && blocksIndexing(c, now) {
		return fmt.Sprintf(`<meta name="%s" content="%s">`, name, c)
	}
	for _, h := range p.XRobotsTag {
		agent := headerAgent(h)
		if agent != "" && agent != ua {
			continue
		}
		directives := strings.TrimSpace(h)
		if ua != "" {
			directives = strings.Replace(h, ua+":", "", 1)
		}
		if blocksIndexing(directives, now) {
			return "X-Robots-Tag: " + h
		}
	}
	return ""
}

// headerAgent returns the crawler an X-Robots-Tag value is addressed to
// ("googlebot: noindex"), matched as written, or "" for every crawler.
func headerAgent(h string) string {
	m := headerAgentPrefix.FindStringSubmatch(h)
	if m == nil || strings.EqualFold(m[1], "unavailable_after") {
		return ""
	}
	return m[1]
}

var headerAgentPrefix = regexp.MustCompile(`^([^,:]+):`)

// unavailableAfterLayouts are the date forms read in unavailable_after.
// Directives are split at commas first (as Lighthouse splits them), so a
// date with a comma (RFC 850, RFC 1123) never reaches a layout, here or
// there.
var unavailableAfterLayouts = []string{time.RFC3339, "2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02",
	time.RFC822, time.RFC822Z, "2 Jan 2006 15:04:05 MST", "2 Jan 2006", "2 January 2006"}

func blocksIndexing(directives string, now time.Time) bool {
	for _, d := range strings.Split(directives, ",") {
		d = strings.ToLower(strings.TrimSpace(d))
		if d == "noindex" || d == "none" {
			return true
		}
		if v, ok := strings.CutPrefix(d, "unavailable_after:"); ok {
			for _, layout := range unavailableAfterLayouts {
				if t, err := time.Parse(layout, strings.TrimSpace(v)); err == nil && t.Before(now) {
					return true
				}
			}
		}
	}
	return false
}

func auditIndexable(p *page.Page, s *site.Site) bool { return noindexReason(p, s.ReadAt) == "" }

// badHreflangs returns why each hreflang link in <head> fails Lighthouse's
// hreflang audit: an unknown language code, or an address that does not
// start with http: or https:. Lighthouse 13 leaves links in the body out.
func badHreflangs(p *page.Page) []string {
	var out []string
	for _, h := range p.Hreflangs {
		if !h.InHead || h.Lang == "" {
			continue // Lighthouse audits hreflang links in <head> with a value
		}
		switch {
		case !validHreflang(h.Lang):
			out = append(out, fmt.Sprintf("hreflang=%q is not a language code", h.Lang))
		case !fullyQualified(h.RawHref):
			out = append(out, fmt.Sprintf("hreflang %s links to %q, a relative address", h.Lang, h.RawHref))
		}
	}
	return out
}

// validHreflang accepts x-default and codes whose language part is an
// ISO 639 language, as Lighthouse (axe's language list) does. That list
// holds a language once, by its shortest code: "en" but not "eng".
func validHreflang(code string) bool {
	if strings.EqualFold(code, "x-default") {
		return true
	}
	lang, _, _ := strings.Cut(code, "-")
	if lang == "" {
		return false
	}
	base, err := language.ParseBase(lang)
	return err == nil && !(len(lang) == 3 && len(base.String()) == 2)
}

func fullyQualified(raw string) bool {
	raw = strings.ToLower(raw)
	return strings.HasPrefix(raw, "http:") || strings.HasPrefix(raw, "https:")
}

func auditHreflang(p *page.Page, _ *site.Site) bool { return len(badHreflangs(p)) == 0 }
