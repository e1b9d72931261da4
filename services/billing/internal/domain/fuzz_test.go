package domain

import (
	"errors"
	"net/url"
	"strings"
	"testing"
)

// FuzzCheckReturnURL: a return URL is accepted only when it leads to the
// web app's origin, however it is spelled.
func FuzzCheckReturnURL(f *testing.F) {
	for _, seed := range []string{"http://localhost:3000/ok", "http://localhost:3000@evil.com/", "http://evil.com\\@localhost:3000",
		"//evil.com", "javascript:alert(1)", "http://LOCALHOST:3000/", "http://localhost:3000.evil.com/", "http://[::1]:3000/",
		"http://localhost:03000/", "http://localhost%2f@evil.com", "\x00http://localhost:3000", "https://localhost:3000/"} {
		f.Add(seed)
	}
	origins, err := ParseOrigins([]string{"http://localhost:3000"})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		err := origins.CheckReturnURL("successUrl", raw)
		if err != nil {
			var ve *ValidationError
			if !errors.As(err, &ve) || ve.Field != "successUrl" {
				t.Fatalf("error %v", err)
			}
			return
		}
		u, perr := url.Parse(raw)
		if perr != nil || u.User != nil || strings.ToLower(u.Scheme) != "http" || strings.ToLower(u.Hostname()) != "localhost" ||
			(u.Port() != "3000") {
			t.Fatalf("accepted %q (host %q port %q)", raw, u.Hostname(), u.Port())
		}
	})
}
