package fuzz

import (
	"net/http"
	"strings"
	"testing"

	"uplift.dev/gateway/internal/stacktest"
)

// webhookHeaders are the headers each webhook route passes on to a service.
var webhookHeaders = map[string][]string{
	"/webhooks/shopify": {"X-Shopify-Hmac-Sha256", "X-Shopify-Topic", "X-Shopify-Shop-Domain", "X-Shopify-Webhook-Id",
		"X-Shopify-Event-Id", "X-Shopify-API-Version", "X-Shopify-Triggered-At"},
	"/webhooks/stripe": {"Stripe-Signature"},
}

// badHeaders are header values a client can send (Go's client refuses
// control bytes, as servers do).
var badHeaders = map[string]string{
	"invalid UTF-8": "orders\xff\xfe/create",
	"unicode":       "ünï🙂code.myshopify.com",
	"huge":          strings.Repeat("a", 32<<10),
	"shop/redact":   "shop/redact",
	"other shop":    "someone-else.myshopify.com",
	"empty":         "",
}

// TestWebhookHeadersMakeNo5xx: each header of the webhook routes, one at a
// time, holding bytes that are not text, a huge or an unexpected value,
// beside a JSON body, answers below 500 (a 0xff byte once made a 500).
func TestWebhookHeadersMakeNo5xx(t *testing.T) {
	s := stacktest.FromEnv(t)
	body := []byte(`{"id":1,"shop_id":1,"shop_domain":"someone.myshopify.com"}`)
	for path, names := range webhookHeaders {
		for _, name := range names {
			for what, v := range badHeaders {
				h := http.Header{"Content-Type": {"application/json"}}
				for _, n := range names {
					h.Set(n, "x")
				}
				h.Set(name, v)
				code, b, err := s.DoWithHeader(http.MethodPost, path, "", body, h)
				if err != nil || code >= 500 {
					t.Errorf("POST %s with %s %s: %d %s %v", path, name, what, code, stacktest.Excerpt(b), err)
				}
			}
		}
	}
}
