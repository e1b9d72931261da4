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
		{"GET", "/_control/healthz", "", 200},
		{"POST", "/_control/stores", `{"slug":"ctl","name":"Ctl","timezone":"Europe/London","currency":"GBP","taxPercent":20}`, 201},
		{"POST", "/_control/stores", `{"slug":"ctl"}`, 409},
		{"POST", "/_control/stores", `{"slug":"Bad Slug"}`, 400},
		{"POST", "/_control/stores", `{"slug":"wp-json"}`, 400},
		{"POST", "/_control/stores", `{"slug":"tz","timezone":"Mars/Olympus"}`, 400},
		{"POST", "/_control/stores", `not json`, 400},
		{"POST", "/_control/stores", `{"slug":"demo-copy","name":"Copy","demo":true}`, 201},
		{"POST", "/_control/stores/ctl/products", `{"id":40,"name":"Mug","sku":"MUG","price":900}`, 201},
		{"POST", "/_control/stores/ctl/products", `{"name":""}`, 400},
		{"POST", "/_control/stores/ctl/customers", ``, 201},
		{"POST", "/_control/stores/ctl/orders", `{"createdAt":"2026-03-01T10:00:00Z","customerId":2,"lines":[{"productId":40,"quantity":2}],"shipping":300}`, 201},
		{"POST", "/_control/stores/ctl/orders", `{"lines":[{"productId":41,"quantity":1}]}`, 400},
		{"POST", "/_control/stores/ctl/orders", `{"status":"paid","lines":[{"productId":40,"quantity":1}]}`, 400},
		{"POST", "/_control/stores/nope/orders", `{"lines":[{"productId":40,"quantity":1}]}`, 404},
		{"POST", "/_control/stores/ctl/orders/101/status", `{"status":"completed","at":"2026-03-02T10:00:00Z"}`, 200},
		{"POST", "/_control/stores/ctl/orders/101/status", `{"status":"shipped"}`, 400},
		{"POST", "/_control/stores/ctl/orders/9/status", `{"status":"completed"}`, 404},
		{"POST", "/_control/stores/ctl/orders/101/refunds", `{"at":"2026-03-03T10:00:00Z","lines":[{"lineIndex":0,"quantity":1}],"reason":"Chipped"}`, 201},
		{"POST", "/_control/stores/ctl/orders/101/refunds", `{"lines":[{"lineIndex":3,"quantity":1}]}`, 400},
		{"POST", "/_control/stores/ctl/orders/101/refunds", `{"amount":999999}`, 400},
		{"POST", "/_control/stores/ctl/orders/x/refunds", `{}`, 400},
		{"DELETE", "/_control/stores/ctl/orders/101/refunds/x", ``, 400},
		{"DELETE", "/_control/stores/ctl/orders/101/refunds/999", ``, 404},
		{"POST", "/_control/stores/ctl/keys", `{"permissions":"read"}`, 201},
		{"POST", "/_control/stores/ctl/keys", `{"permissions":"admin"}`, 400},
		{"POST", "/_control/stores/ctl/faults", `{"kind":"slow","delayMs":10}`, 200},
		{"POST", "/_control/stores/ctl/faults", `{"kind":"explode"}`, 400},
		{"PUT", "/_control/stores/ctl/webhook-retries", `{"retries":3}`, 200},
		{"PUT", "/_control/stores/ctl/webhook-retries", `{"retries":-1}`, 400},
		{"GET", "/_control/stores/ctl/webhooks", ``, 200},
		{"GET", "/_control/stores/ctl/deliveries", ``, 200},
		{"DELETE", "/_control/stores/ctl/orders/101", ``, 200},
		{"DELETE", "/_control/stores/ctl/orders/101?force=true", ``, 200},
		{"DELETE", "/_control/stores/ctl/orders/101?force=true", ``, 404},
		{"POST", "/_control/reset", ``, 200},
		{"GET", "/_control/stores/ctl/deliveries", ``, 404},
		{"POST", "/_control/reset", `{"demo":true}`, 200},
		{"GET", "/_control/stores/" + DemoStore + "/webhooks", ``, 200},
	}
	for _, s := range steps {
		st, out := call(s.method, s.path, s.body)
		if st != s.status {
			t.Fatalf("%s %s: %d %v, want %d", s.method, s.path, st, out, s.status)
		}
		if m, _ := out.(map[string]any); st >= 400 && m["error"] == nil {
			t.Fatalf("%s %s: error body %v", s.method, s.path, out)
		}
		if s.path == "/_control/stores/ctl/keys" && st == 201 && !strings.HasPrefix(dig(out, "consumer_key").(string), "ck_") {
			t.Fatalf("key: %v", out)
		}
	}
}
