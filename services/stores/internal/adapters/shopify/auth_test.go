package shopify

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"net/url"
	"strings"
	"testing"
	"time"

	"uplift.dev/stores/internal/domain"
)

// signQuery appends Shopify's hex HMAC of msg to the raw query.
func signQuery(secret, raw, msg string) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(msg))
	return raw + "&hmac=" + hex.EncodeToString(m.Sum(nil))
}

func at(sec int64) func() time.Time { return func() time.Time { return time.Unix(sec, 0) } }

func TestCallbackDocumentedVectors(t *testing.T) {
	t.Parallel()
	s := New(Config{APISecret: "hush", Clock: at(1337178173 + 30)})
	q := "code=0907a61c0c8d55e99db179b68161bc00&shop=some-shop.myshopify.com&timestamp=1337178173"
	cb, err := s.VerifyCallback(q + "&hmac=4712bf92ffc2917d15a2f5a273e39f0116667419aa4b6ac0b3baaf26fa3c4d20")
	if err != nil {
		t.Fatal(err)
	}
	if cb.Shop != "some-shop.myshopify.com" || cb.Code != "0907a61c0c8d55e99db179b68161bc00" || cb.Timestamp.Unix() != 1337178173 {
		t.Errorf("callback = %+v", cb)
	}
	// The second documented vector (with state) starts 700e2dad.
	qs, _ := url.ParseQuery(q + "&state=0.6784241404160823")
	if got := hex.EncodeToString(s.sign([]byte(queryMessage(qs)))); !strings.HasPrefix(got, "700e2dad") {
		t.Errorf("state vector = %s", got)
	}
	// hmac's place in the query does not matter; signature is ignored.
	if _, err := s.VerifyCallback("hmac=4712bf92ffc2917d15a2f5a273e39f0116667419aa4b6ac0b3baaf26fa3c4d20&signature=x&" + q); err != nil {
		t.Errorf("reordered: %v", err)
	}
}

func TestCallbackRejects(t *testing.T) {
	t.Parallel()
	const ts = int64(1337178173)
	s := New(Config{APISecret: "hush", Clock: at(ts)})
	good := "code=abc&host=YWRtaW4&shop=some-shop.myshopify.com&state=f00d&timestamp=1337178173"
	sign := func(raw string) string {
		q, _ := url.ParseQuery(raw)
		return signQuery("hush", raw, queryMessage(q))
	}
	if cb, err := s.VerifyCallback(sign(good)); err != nil || cb.State != "f00d" || cb.Host != "YWRtaW4" {
		t.Fatalf("good callback: %+v %v", cb, err)
	}
	cases := []struct {
		name, query string
		clock       int64
		want        error
	}{
		{"tampered code", strings.Replace(sign(good), "code=abc", "code=abd", 1), ts, ErrBadHMAC},
		{"tampered shop", strings.Replace(sign(good), "some-shop", "other-shop", 1), ts, ErrBadHMAC},
		{"added param", sign(good) + "&extra=1", ts, ErrBadHMAC},
		{"no hmac", good, ts, ErrBadHMAC},
		{"wrong secret", signQuery("other", good, "code=abc&host=YWRtaW4&shop=some-shop.myshopify.com&state=f00d&timestamp=1337178173"), ts, ErrBadHMAC},
		{"stale", sign(good), ts + 91, domain.ErrStaleCallback},
		{"future", sign(good), ts - 91, domain.ErrStaleCallback},
		{"no timestamp", sign("code=abc&shop=some-shop.myshopify.com"), ts, domain.ErrStaleCallback},
		{"missing code", sign("shop=some-shop.myshopify.com&state=f00d&timestamp=1337178173"), ts, ErrMissingCode},
		{"evil shop", sign("code=abc&shop=evil.com&timestamp=1337178173"), ts, domain.ErrBadShop},
		{"suffix shop", sign("code=abc&shop=a.myshopify.com.evil.com&timestamp=1337178173"), ts, domain.ErrBadShop},
		{"upper-case shop", sign("code=abc&shop=Some-Shop.myshopify.com&timestamp=1337178173"), ts, domain.ErrBadShop},
		{"path in shop", sign("code=abc&shop=x.myshopify.com/../&timestamp=1337178173"), ts, domain.ErrBadShop},
	}
	for _, c := range cases {
		s := New(Config{APISecret: "hush", Clock: at(c.clock)})
		if _, err := s.VerifyCallback(c.query); !errors.Is(err, c.want) {
			t.Errorf("%s: err = %v, want %v", c.name, err, c.want)
		}
	}
	// within ±90 s is fine
	for _, d := range []int64{-90, 90} {
		if _, err := New(Config{APISecret: "hush", Clock: at(ts + d)}).VerifyCallback(sign(good)); err != nil {
			t.Errorf("clock %+d s: %v", d, err)
		}
	}
}

func TestCallbackSpaces(t *testing.T) {
	t.Parallel()
	s := New(Config{APISecret: "hush", Clock: at(1337178173)})
	raw := "code=abc&shop=some-shop.myshopify.com&state=a%20b&timestamp=1337178173"
	decoded := "code=abc&shop=some-shop.myshopify.com&state=a b&timestamp=1337178173"
	encoded := "code=abc&shop=some-shop.myshopify.com&state=a%20b&timestamp=1337178173"
	for _, msg := range []string{decoded, encoded} {
		cb, err := s.VerifyCallback(signQuery("hush", raw, msg))
		if err != nil || cb.State != "a b" {
			t.Errorf("signed %q: %+v %v", msg, cb, err)
		}
	}
	plus := "code=abc&shop=some-shop.myshopify.com&state=a+b&timestamp=1337178173"
	if _, err := s.VerifyCallback(signQuery("hush", raw, plus)); !errors.Is(err, ErrBadHMAC) {
		t.Errorf("'+' form: %v", err)
	}
}

func TestNormalizeShop(t *testing.T) {
	t.Parallel()
	s := New(Config{ExtraShopDomains: []string{".myshopify.test"}})
	good := map[string]string{
		"your-store":                             "your-store.myshopify.com",
		"Your-Store":                             "your-store.myshopify.com",
		" your-store.myshopify.com ":             "your-store.myshopify.com",
		"YOUR-STORE.MYSHOPIFY.COM":               "your-store.myshopify.com",
		"https://your-store.myshopify.com/admin": "your-store.myshopify.com",
		"https://your-store.myshopify.com/":      "your-store.myshopify.com",
		"http://your-store.myshopify.com":        "your-store.myshopify.com",
		"your-store.myshopify.com/admin/orders":  "your-store.myshopify.com",
		"9shop.myshopify.com":                    "9shop.myshopify.com",
		"demo.myshopify.test":                    "demo.myshopify.test",
	}
	for in, want := range good {
		if got, err := s.NormalizeShop(in); err != nil || got != want {
			t.Errorf("NormalizeShop(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"", "evil.com", "a.myshopify.com.evil.com", "-x.myshopify.com", "x.myshopify.com/../",
		"https://x.myshopify.com/../../etc", "x.myshopify.com:8443", "https://user@x.myshopify.com", "x.myshopify.com?x=1",
		"ftp://x.myshopify.com", "x_y.myshopify.com", "x..myshopify.com", ".myshopify.com", "x.myshopify.com.", "my shop",
		"javascript:alert(1)", "x.myshopify.com#frag", "demo.myshopify.test.evil"} {
		if got, err := s.NormalizeShop(in); !errors.Is(err, domain.ErrBadShop) {
			t.Errorf("NormalizeShop(%q) = %q, %v; want domain.ErrBadShop", in, got, err)
		}
	}
	if _, err := New(Config{}).NormalizeShop("demo.myshopify.test"); !errors.Is(err, domain.ErrBadShop) {
		t.Error("test domains are refused unless configured")
	}
	if domain.ErrBadShop.Error() != "Enter your shop's address, like your-store.myshopify.com." {
		t.Errorf("message = %q", domain.ErrBadShop)
	}
}

func TestAuthorizeURL(t *testing.T) {
	t.Parallel()
	s := New(Config{APIKey: "key", BaseURL: func(shop string) string { return "http://sim/" + shop }})
	u, err := url.Parse(s.AuthorizeURL("a.myshopify.com", "f00d", "https://app/cb"))
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	if u.Path != "/a.myshopify.com/admin/oauth/authorize" || q.Get("client_id") != "key" || q.Get("state") != "f00d" ||
		q.Get("redirect_uri") != "https://app/cb" || q.Get("scope") != strings.Join(DefaultScopes, ",") {
		t.Errorf("url = %s", u)
	}
	if v, ok := q["grant_options[]"]; !ok || len(v) != 1 || v[0] != "" {
		t.Errorf("grant_options[] = %v (offline wants it empty)", v)
	}
}

func TestVerifyWebhook(t *testing.T) {
	t.Parallel()
	s := New(Config{APISecret: "hush"})
	body := []byte(`{"id":1,"name":"#1001"}`)
	m := hmac.New(sha256.New, []byte("hush"))
	m.Write(body)
	good := base64.StdEncoding.EncodeToString(m.Sum(nil))
	if !s.VerifyWebhook(body, good) {
		t.Error("good signature refused")
	}
	for _, bad := range []string{"", "not base64!", base64.StdEncoding.EncodeToString([]byte("short")),
		base64.StdEncoding.EncodeToString(make([]byte, 32))} {
		if s.VerifyWebhook(body, bad) {
			t.Errorf("signature %q accepted", bad)
		}
	}
	if s.VerifyWebhook(append(body, ' '), good) {
		t.Error("changed body accepted")
	}
	if s.VerifyWebhook(nil, good) {
		t.Error("empty body accepted")
	}
}
