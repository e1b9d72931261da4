package domain

import (
	"net/url"
	"strings"
	"testing"
)

// FuzzNormalizeSiteURL: what an owner types as their website is refused or
// becomes one canonical http(s) address with a host and no credentials,
// which normalises to itself (one store, one address).
func FuzzNormalizeSiteURL(f *testing.F) {
	for _, seed := range []string{"example.com", "HTTPS://Example.COM:443/Shop?x=1#top", "http://example.com:80", "ftp://example.com",
		"javascript:alert(1)", "https://user:pw@example.com", "example.com:8080/path", "localhost:3000", " https://ex ample.com ",
		"https://[::1]:443/", "https://例え.jp/", "https://example.com./", "mailto:a@b.c", "\x00", "https://a_b.com", "//example.com"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		got, err := NormalizeSiteURL(raw)
		if err != nil {
			return
		}
		u, perr := url.Parse(got)
		if perr != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" || u.User != nil ||
			strings.ContainsAny(u.Hostname(), " _\\") {
			t.Fatalf("%q became %q", raw, got)
		}
		if again, err := NormalizeSiteURL(got); err != nil || again != got {
			t.Fatalf("%q → %q is not stable: %q %v", raw, got, again, err)
		}
	})
}
