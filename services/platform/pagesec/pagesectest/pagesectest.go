// Package pagesectest checks, in tests, that a served HTML page carries the
// headers of pagesec.SetPage and that its policy allows the very styles the
// page serves, so a changed stylesheet cannot silently leave a page
// unstyled, nor a page go out without its policy.
package pagesectest

import (
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"net/http"
	"regexp"
	"strings"
)

var styleElement = regexp.MustCompile(`(?s)<style>(.*?)</style>`)

// Check returns what the page (its headers and body) lacks: a policy that
// allows nothing by default, refuses framing and base changes, lets forms
// post to the page's origin and to each of formOrigins, and allows each
// <style> element of body by its hash; X-Frame-Options DENY, nosniff and
// no Referer. nil when nothing is missing.
func Check(h http.Header, body string, formOrigins ...string) error {
	csp := h.Get("Content-Security-Policy")
	var missing []string
	for _, want := range []string{"default-src 'none'", "frame-ancestors 'none'", "base-uri 'none'", "form-action 'self'"} {
		if !strings.Contains(csp, want) {
			missing = append(missing, want)
		}
	}
	directives := map[string][]string{}
	for d := range strings.SplitSeq(csp, ";") {
		if f := strings.Fields(d); len(f) > 0 {
			directives[f[0]] = f[1:]
		}
	}
	for _, o := range formOrigins {
		if !contains(directives["form-action"], o) {
			missing = append(missing, "form-action "+o)
		}
	}
	for _, m := range styleElement.FindAllStringSubmatch(body, -1) {
		sum := sha256.Sum256([]byte(m[1]))
		if hash := "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"; !contains(directives["style-src"], hash) {
			missing = append(missing, "style-src "+hash)
		}
	}
	for name, want := range map[string]string{"X-Frame-Options": "DENY", "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer"} {
		if got := h.Get(name); got != want {
			missing = append(missing, name+": "+want)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("page headers lack %q (policy %q)", missing, csp)
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
