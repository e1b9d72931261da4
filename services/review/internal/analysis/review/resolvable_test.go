package review

import (
	"net/url"
	"testing"
)

// TestResolvable holds resolvable to what new URL(raw, base) does in
// Node's WHATWG URL (the parser Chromium follows), case by case.
func TestResolvable(t *testing.T) {
	for _, tt := range []struct {
		base, raw string
		ok        bool
	}{
		{"http://a/p", "//", false},
		{"http://a/p", "http:foo", true},
		{"http://a/p", "https:foo", true},
		{"http://a/p", "http://", false},
		{"http://a/p", "http:", true},
		{"http://a/p", "http:/x", true},
		{"http://a/p", "//x", true},
		{"http://a/p", "/\\x", true},
		{"http://a/p", "http:/", true},
		{"http://a/p", "https://", false},
		{"http://a/p", "https:///x", true},
		{"http://a/p", "HTTP:foo", true},
		{"http://a/p", "x", true},
		{"http://a/p", "#a", true},
		{"http://a/p", "?q", true},
		{"http://a/p", "javascript:void(0)", true},
		{"http://a/p", "http://[::1", false},
		{"http://a/p", "mailto:a@b", true},
		{"https://a/p", "//", false},
		{"https://a/p", "http:foo", true},
		{"https://a/p", "https:foo", true},
		{"https://a/p", "http://", false},
		{"https://a/p", "http:", false},
		{"https://a/p", "http:/x", true},
		{"https://a/p", "//x", true},
		{"https://a/p", "/\\x", true},
		{"https://a/p", "http:/", false},
		{"https://a/p", "https://", false},
		{"https://a/p", "https:///x", true},
		{"https://a/p", "HTTP:foo", true},
		{"https://a/p", "x", true},
		{"https://a/p", "#a", true},
		{"https://a/p", "?q", true},
		{"https://a/p", "javascript:void(0)", true},
		{"https://a/p", "http://[::1", false},
		{"https://a/p", "mailto:a@b", true},
	} {
		base, _ := url.Parse(tt.base)
		if got := resolvable(base, tt.raw); got != tt.ok {
			t.Errorf("new URL(%q, %q): resolvable %v, the browser %v", tt.raw, tt.base, got, tt.ok)
		}
	}
}
