package domain

import "testing"

func TestNormalizeSiteURL(t *testing.T) {
	for in, want := range map[string]string{
		"  shop.example.com ":            "https://shop.example.com/",
		"HTTP://Shop.Example.com:80/a#x": "http://shop.example.com/a",
		"https://shop.example.com:443":   "https://shop.example.com/",
		"shop.example.com:8443/path":     "https://shop.example.com:8443/path",
	} {
		got, err := NormalizeSiteURL(in)
		if err != nil || got != want {
			t.Errorf("NormalizeSiteURL(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "ftp://x.com", "mailto:a@b.c", "https://", "http://a b.com", "https://u:p@x.com"} {
		if got, err := NormalizeSiteURL(bad); err == nil {
			t.Errorf("NormalizeSiteURL(%q) = %q, want error", bad, got)
		}
	}
}
