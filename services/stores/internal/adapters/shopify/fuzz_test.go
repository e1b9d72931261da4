package shopify

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"net/url"
	"strings"
	"testing"

	"uplift.dev/stores/internal/domain"
)

// FuzzVerifyWebhook: a webhook body verifies with its own HMAC and with no
// other; any bytes, any header, no panic.
func FuzzVerifyWebhook(f *testing.F) {
	f.Add([]byte(`{"id":820982911946154508,"email":"jon@example.com"}`), "not base64!")
	f.Add([]byte(``), "")
	f.Add([]byte{0xff, 0x00, 0xfe}, strings.Repeat("A", 44))
	f.Add([]byte(`{"orders_to_redact":[1,2,3]}`), base64.StdEncoding.EncodeToString(make([]byte, 32)))
	s := New(Config{APISecret: "hush"})
	f.Fuzz(func(t *testing.T, body []byte, header string) {
		m := hmac.New(sha256.New, []byte("hush"))
		m.Write(body)
		good := base64.StdEncoding.EncodeToString(m.Sum(nil))
		if !s.VerifyWebhook(body, good) {
			t.Fatal("the body's own HMAC was refused")
		}
		if header != good && strings.TrimSpace(header) != good && s.VerifyWebhook(body, header) {
			t.Fatalf("a forged HMAC %q was accepted", header)
		}
	})
}

// FuzzVerifyCallback: any OAuth callback query is either refused with one
// of the named errors or yields a real shop domain and a code; a correctly
// signed query is never refused for its signature.
func FuzzVerifyCallback(f *testing.F) {
	f.Add("code=0907a61c0c8d55e99db179b68161bc00&shop=some-shop.myshopify.com&timestamp=1337178173", true)
	f.Add("code=x&shop=evil.example.com&timestamp=1337178173", true)
	f.Add("code=x&shop=SOME-SHOP.myshopify.com&timestamp=1337178173", true)
	f.Add("shop=a.myshopify.com%00.evil.com&timestamp=1337178173&code=1", true)
	f.Add("%zz&;;==&hmac=", false)
	f.Add("timestamp=99999999999999999999&shop=a.myshopify.com&code=1", true)
	s := New(Config{APISecret: "hush", Clock: at(1337178173 + 30)})
	f.Fuzz(func(t *testing.T, query string, sign bool) {
		if sign {
			q, err := url.ParseQuery(query)
			if err != nil {
				return
			}
			query = signQuery("hush", query, queryMessage(q))
		}
		cb, err := s.VerifyCallback(query)
		if err != nil {
			for _, known := range []error{ErrBadHMAC, domain.ErrStaleCallback, domain.ErrBadShop, ErrMissingCode} {
				if errors.Is(err, known) {
					if sign && errors.Is(err, ErrBadHMAC) && !strings.Contains(query, "hmac=") {
						t.Fatalf("a signed query was refused for its signature: %q", query)
					}
					return
				}
			}
			t.Fatalf("unnamed error %v", err)
		}
		if !strings.HasSuffix(cb.Shop, ".myshopify.com") || cb.Code == "" || cb.Shop != strings.ToLower(cb.Shop) {
			t.Fatalf("accepted %+v from %q", cb, query)
		}
	})
}

// FuzzNormalizeShop: what a person types becomes a shop domain on
// myshopify.com or is refused; the domain normalises to itself.
func FuzzNormalizeShop(f *testing.F) {
	for _, seed := range []string{"your-store", "your-store.myshopify.com", "https://your-store.myshopify.com/admin",
		"http://evil.com/.myshopify.com", "a.myshopify.com.evil.com", "a.myshopify.com:443", "a.myshopify.com/../x",
		"https://user@a.myshopify.com", "A.MYSHOPIFY.COM", "\x00", "xn--d1acufc.myshopify.com"} {
		f.Add(seed)
	}
	s := New(Config{APISecret: "hush"})
	f.Fuzz(func(t *testing.T, raw string) {
		shop, err := s.NormalizeShop(raw)
		if err != nil {
			if !errors.Is(err, domain.ErrBadShop) {
				t.Fatalf("unnamed error %v", err)
			}
			return
		}
		if !strings.HasSuffix(shop, ".myshopify.com") || strings.ContainsAny(shop, "/:@ ") {
			t.Fatalf("%q became %q", raw, shop)
		}
		if again, err := s.NormalizeShop(shop); err != nil || again != shop {
			t.Fatalf("%q is not stable: %q %v", shop, again, err)
		}
	})
}
