package review

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"time"

	"golang.org/x/text/language"
	"uplift.dev/categories/internal/analysis/page"
	"uplift.dev/categories/internal/analysis/site"
)

// Lighthouse's SEO audits, each applied to one page on Lighthouse's own
// criterion (Lighthouse 13, core/audits/seo). An audit Lighthouse marks
// "not applicable" passes, as Lighthouse scores it.

func auditTitle(p *page.Page, _ *site.Site) bool { return p.HasTitle }

func auditMetaDesc(p *page.Page, _ *site.Site) bool { return p.HasMetaDesc && p.MetaDesc != "" }

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
	"fa": {"اطلاعات بیشتر", "اطلاعات", "این", "اینجا بزنید", "اینجا کلیک کنید", "اینجا", "برو", "بیشتر بخوانید", "بیشتر بدانید", "بیشتر", "شروع"},
}

func isNonDescriptive(text, lang string) bool {
	t := strings.ToLower(text)
	if lang != "" {
		base, _, _ := strings.Cut(strings.ToLower(lang), "-")
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
		if u, err := url.Parse(t); err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" {
			out = append(out, a)
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
		if base != nil {
			if u, err := base.Parse(raw); err != nil || ((u.Scheme == "http" || u.Scheme == "https") && u.Host == "") {
				out = append(out, a)
			}
		}
	}
	return out
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

// noindexReason returns what keeps search engines from indexing the page
// (a robots meta tag or an X-Robots-Tag header saying noindex or none, or
// an unavailable_after date that has passed), or "".
func noindexReason(p *page.Page, now time.Time) string {
	for _, c := range p.MetaRobots {
		if blocksIndexing(c, now) {
			return fmt.Sprintf(`<meta name="robots" content="%s">`, c)
		}
	}
	for _, h := range p.XRobotsTag {
		directives := h
		// "googlebot: noindex" applies to that bot only; Lighthouse judges
		// as Google's crawler would.
		if agent, rest, ok := strings.Cut(h, ":"); ok && !strings.ContainsAny(strings.TrimSpace(agent), " ,") &&
			!strings.EqualFold(strings.TrimSpace(agent), "unavailable_after") {
			a := strings.ToLower(strings.TrimSpace(agent))
			if a != "googlebot" && a != "*" {
				continue
			}
			directives = rest
		}
		if blocksIndexing(directives, now) {
			return "X-Robots-Tag: " + h
		}
	}
	return ""
}

func blocksIndexing(directives string, now time.Time) bool {
	for _, d := range strings.Split(directives, ",") {
		d = strings.ToLower(strings.TrimSpace(d))
		if d == "noindex" || d == "none" {
			return true
		}
		if v, ok := strings.CutPrefix(d, "unavailable_after:"); ok {
			for _, layout := range []string{time.RFC850, time.RFC1123, time.RFC3339, "2 Jan 2006 15:04:05 MST", "2006-01-02"} {
				if t, err := time.Parse(layout, strings.TrimSpace(v)); err == nil && t.Before(now) {
					return true
				}
			}
		}
	}
	return false
}

func auditIndexable(p *page.Page, _ *site.Site) bool { return noindexReason(p, time.Now()) == "" }

// badHreflangs returns why each hreflang link fails Lighthouse's hreflang
// audit: an unknown language code, a relative address, or a link outside
// <head>.
func badHreflangs(p *page.Page) []string {
	var out []string
	for _, h := range p.Hreflangs {
		switch {
		case !validHreflang(h.Lang):
			out = append(out, fmt.Sprintf("hreflang=%q is not a language code", h.Lang))
		case !isAbsolute(h.RawHref):
			out = append(out, fmt.Sprintf("hreflang %s links to %q, a relative address", h.Lang, h.RawHref))
		case !h.InHead:
			out = append(out, fmt.Sprintf("hreflang %s is in the page body, not in <head>", h.Lang))
		}
	}
	return out
}

// validHreflang accepts x-default and codes whose language part is an
// ISO 639 language, as Lighthouse does.
func validHreflang(code string) bool {
	if strings.EqualFold(code, "x-default") {
		return true
	}
	lang, _, _ := strings.Cut(code, "-")
	if lang == "" {
		return false
	}
	_, err := language.ParseBase(lang)
	return err == nil
}

func isAbsolute(raw string) bool {
	u, err := url.Parse(raw)
	return err == nil && u.IsAbs() && u.Host != ""
}

func auditHreflang(p *page.Page, _ *site.Site) bool { return len(badHreflangs(p)) == 0 }
