// Package pagesec holds the response headers that keep Uplift's answers
// from being read as something else or shown inside another site: nosniff
// on every answer, and for the few server-rendered HTML pages (email
// unsubscribe, the local test checkout) a Content-Security-Policy that
// allows nothing but the page's own inline style and its own forms, with
// framing refused. The pages carry tokens in their links, so a page on
// another site must not frame them (clickjacking) or learn their address
// from a Referer.
package pagesec

import (
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"net/url"
	"strings"
)

// NoSniff sets X-Content-Type-Options: nosniff on every answer of next, so a
// browser never runs a JSON or text answer that echoes input as a script or
// a page.
func NoSniff(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Content-Type-Options", "nosniff")
		next.ServeHTTP(w, r)
	})
}

// Policy is the Content-Security-Policy of a page without scripts, images or
// fetches. Only the <style> elements whose text is one of styles apply
// (each by its hash, so no injected style does), forms may post to the
// page's own origin and to formOrigins (where a form's answer redirects:
// browsers check form-action on the redirect too), and no other site may
// frame it.
func Policy(styles []string, formOrigins ...string) string {
	var b strings.Builder
	b.WriteString("default-src 'none'; base-uri 'none'; frame-ancestors 'none'")
	if len(styles) > 0 {
		b.WriteString("; style-src")
		for _, s := range styles {
			sum := sha256.Sum256([]byte(s))
			b.WriteString(" 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'")
		}
	}
	b.WriteString("; form-action 'self'")
	for _, o := range formOrigins {
		if o != "" {
			b.WriteString(" " + o)
		}
	}
	return b.String()
}

// Origin is rawURL's scheme://host[:port] for Policy's formOrigins, or ""
// when rawURL has no scheme or host.
func Origin(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

// SetPage sets the headers of a server-rendered HTML page under policy (from
// Policy): the policy, X-Frame-Options DENY for browsers that predate
// frame-ancestors, nosniff, and no Referer when a link is followed, as the
// page's own address may hold a token.
func SetPage(h http.Header, policy string) {
	h.Set("Content-Security-Policy", policy)
	h.Set("X-Frame-Options", "DENY")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
}
