package sim

import (
	"strings"
	"testing"

	"uplift.dev/simkit/simtest"
)

func TestControlAPI(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	call := func(method, path, body string) (int, any) { return simtest.Call(t, e.srv.URL, method, path, body) }
	steps := []struct {
		method, path, body string
		status             int
	}{
		{"GET", "/_sim/healthz", "", 200},
		{"POST", "/_sim/shops", `{"domain":"ctl.myshopify.com","name":"Ctl","timezone":"Europe/Paris","currency":"EUR"}`, 201},
		{"POST", "/_sim/shops", `{"domain":"ctl.myshopify.com"}`, 409},
		{"POST", "/_sim/shops", `{"domain":"bad domain"}`, 400},
		{"POST", "/_sim/shops", `not json`, 400},
		{"POST", "/_sim/shops", `{"domain":"demo-copy.myshopify.com","name":"Copy","demo":true}`, 201},
		{"POST", "/_sim/shops", `{"domain":"demo-copy.myshopify.com","demo":true}`, 409},
		{"POST", "/_sim/shops/ctl.myshopify.com/products", `{"id":5,"title":"Tent"}`, 201},
		{"POST", "/_sim/shops/ctl.myshopify.com/customers", `{"id":9}`, 201},
		{"POST", "/_sim/shops/ctl.myshopify.com/orders", `{"createdAt":"2026-03-01T10:00:00Z","lines":[{"title":"Tent","productId":5,"quantity":2,"unitPrice":10000,"tax":2000}],"shipping":500}`, 201},
		{"POST", "/_sim/shops/ctl.myshopify.com/orders", `{"lines":[]}`, 400},
		{"POST", "/_sim/shops/nope.myshopify.com/orders", `{"lines":[{"quantity":1}]}`, 404},
		{"POST", "/_sim/shops/ctl.myshopify.com/orders/1001/refunds", `{"at":"2026-03-02T10:00:00Z","lines":[{"lineIndex":0,"quantity":1}]}`, 201},
		{"POST", "/_sim/shops/ctl.myshopify.com/orders/1001/refunds", `{"lines":[{"lineIndex":7,"quantity":1}]}`, 400},
		{"POST", "/_sim/shops/ctl.myshopify.com/orders/1001/cancel", ``, 200},
		{"POST", "/_sim/shops/ctl.myshopify.com/orders/x/cancel", ``, 400},
		{"PUT", "/_sim/shops/ctl.myshopify.com/sessions", `[{"day":"2026-03-01","sessions":100,"completed":3}]`, 200},
		{"PUT", "/_sim/shops/ctl.myshopify.com/sessions", `{"day":"March","sessions":1}`, 400},
		{"POST", "/_sim/shops/ctl.myshopify.com/faults", `{"kind":"slow","delayMs":10}`, 200},
		{"POST", "/_sim/shops/ctl.myshopify.com/faults", `{"kind":"explode"}`, 400},
		{"GET", "/_sim/shops/ctl.myshopify.com/deliveries", ``, 200},
		{"POST", "/_sim/shops/ctl.myshopify.com/compliance/shop/redact", `{}`, 400}, // no compliance URL configured
		{"GET", "/_sim/install-link?shop=ctl.myshopify.com&app_url=https://app.example/shopify", ``, 200},
		{"DELETE", "/_sim/shops/ctl.myshopify.com/orders/1001", ``, 200},
		{"DELETE", "/_sim/shops/ctl.myshopify.com/orders/1001", ``, 404},
		{"POST", "/_sim/shops/ctl.myshopify.com/uninstall", ``, 200},
		{"GET", "/_sim/bulk/99.jsonl", ``, 404},
		{"POST", "/_sim/reset", ``, 200},
		{"GET", "/_sim/shops/ctl.myshopify.com/deliveries", ``, 404},
	}
	for _, s := range steps {
		st, out := call(s.method, s.path, s.body)
		if st != s.status {
			t.Fatalf("%s %s: %d %v, want %d", s.method, s.path, st, out, s.status)
		}
		if u, _ := dig(out, "url").(string); strings.HasPrefix(s.path, "/_sim/install-link") && !strings.HasPrefix(u, "https://app.example/shopify?hmac=") {
			t.Fatalf("install link: %v", out)
		}
		if st >= 400 && s.path != "/_sim/bulk/99.jsonl" {
			if m, _ := out.(map[string]any); m["error"] == nil {
				t.Fatalf("%s %s: error body %v", s.method, s.path, out)
			}
		}
	}
}
