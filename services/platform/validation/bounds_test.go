package validation

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestKindOf: request fields get their kind from their name, in either
// spelling; a field of no known kind is Text, which is bounded too.
func TestKindOf(t *testing.T) {
	t.Parallel()
	for field, want := range map[string]Kind{
		"category_id": ID, "categoryId": ID, "id": ID, "idFromGoogleAuth": ID, "price_id": ID,
		"email": Email, "customerEmail": Email,
		"query": Search,
		"name":  Name, "filename": FileName,
		"title": Title,
		"shop":  Shop, "shopDomain": Shop,
		"siteUrl": URL, "url": URL, "urls": URL, "return_url": URL,
		"pageToken": Token, "token": Token, "browserState": Token, "state": Token, "hmac": Token,
		"signature": Token, "code": Token, "rawQuery": Token,
		"password": Password,
		"timeZone": Keyword, "from": Keyword, "date": Keyword, "tier": Keyword, "metricsSignUpSource": Keyword,
		"csv":            Document,
		"additionalInfo": Text, "description": Text, "servingData": Text,
	} {
		if got := KindOf(field); got != want {
			t.Errorf("KindOf(%q) = %d, want %d", field, got, want)
		}
	}
}

// TestCheckLength: each kind takes a value of exactly its bound, counted in
// characters (a 4-byte emoji is one), and refuses one character more with a
// message naming the field and the bound.
func TestCheckLength(t *testing.T) {
	t.Parallel()
	for kind := Text; kind < Document; kind++ {
		max := kind.Max()
		if max <= 0 || max > MaxTokenRunes+MaxTextRunes {
			t.Fatalf("kind %d: bound %d", kind, max)
		}
		for _, ch := range []string{"a", "é", "🙂"} {
			if err := CheckLength("field", strings.Repeat(ch, max), kind); err != nil {
				t.Errorf("kind %d: %d × %q refused: %v", kind, max, ch, err)
			}
			err := CheckLength("customerEmail", strings.Repeat(ch, max+1), kind)
			if err == nil || err.Field != "customerEmail" || !strings.Contains(err.Message, "customerEmail is too long") ||
				!strings.Contains(err.Message, "at most") {
				t.Errorf("kind %d: %d × %q: %v", kind, max+1, ch, err)
			}
		}
	}
	if err := CheckLength("title", strings.Repeat("x", 1<<20), Title); err == nil {
		t.Error("a megabyte title accepted")
	}
}

func TestClip(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		in   string
		max  int
		want string
	}{
		{"", 3, ""},
		{"abc", 3, "abc"},
		{"abcd", 3, "ab…"},
		{"ééé", 3, "ééé"},
		{"éééé", 3, "éé…"},
		{"🙂🙂🙂🙂", 2, "🙂…"},
	} {
		if got := Clip(tt.in, tt.max); got != tt.want {
			t.Errorf("Clip(%q, %d) = %q, want %q", tt.in, tt.max, got, tt.want)
		}
	}
	big := Clip(strings.Repeat("é", 1<<20), MaxTitleRunes)
	if n := utf8.RuneCountInString(big); n != MaxTitleRunes || !utf8.ValidString(big) {
		t.Fatalf("a megabyte clipped to %d characters", n)
	}
}
