package sim

import (
	"net/http"
	"testing"
)

func TestControlAPISeedsAndResets(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	for _, c := range []struct {
		method, path string
		body         any
		want         int
	}{
		{"POST", "/_control/users", map[string]string{"email": "dee@example.com"}, 201},
		{"POST", "/_control/users", map[string]string{"email": "dee@example.com"}, 409},
		{"POST", "/_control/users", map[string]string{"email": "not an email"}, 400},
		{"POST", "/_control/accounts", map[string]any{"id": "700", "displayName": "Dee's", "users": []string{"dee@example.com"}}, 201},
		{"POST", "/_control/accounts", map[string]any{"id": "701", "displayName": "Ghost's", "users": []string{"ghost@example.com"}}, 404},
		{"POST", "/_control/properties", map[string]any{"id": "7001", "account": "700", "displayName": "Dee GA4", "timeZone": "Europe/Berlin"}, 201},
		{"POST", "/_control/properties", map[string]any{"id": "7002", "account": "700", "displayName": "Bad zone", "timeZone": "Mars/Olympus"}, 400},
		{"POST", "/_control/properties", map[string]any{"id": "7003", "account": "799", "displayName": "No account"}, 404},
		{"PUT", "/_control/properties/7001/days", []map[string]any{{"date": "2026-03-01", "sessions": 10, "purchases": 1}}, 200},
		{"PUT", "/_control/properties/7001/days", []map[string]any{{"date": "2026-03-01", "sessions": 1, "purchases": 1, "purchaseSessions": 2}}, 400},
		{"PUT", "/_control/properties/7001/days", []map[string]any{{"date": "1 March", "sessions": 1}}, 400},
		{"PUT", "/_control/properties/7999/days", []map[string]any{}, 404},
		{"PUT", "/_control/properties/7001/quality", map[string]any{"sampleRate": 1.5}, 400},
		{"POST", "/_control/properties/7001/exhaust-quota", map[string]string{"quota": "tokensPerWeek"}, 400},
		{"POST", "/_control/properties/7001/exhaust-quota", map[string]string{"quota": "tokensPerHour"}, 200},
		{"POST", "/_control/users", map[string]any{"email": "x@example.com", "extra": 1}, 400},
	} {
		if st, out := e.call(c.method, c.path, "", c.body); st != c.want {
			t.Errorf("%s %s %v: %d %v, want %d", c.method, c.path, c.body, st, out, c.want)
		}
	}
	if st, _ := e.call(http.MethodPost, "/_control/reset", "", map[string]bool{"demo": true}); st != 200 {
		t.Fatal("reset")
	}
	e.s.mu.Lock()
	_, dee := e.s.props["7001"]
	_, demo := e.s.props[DemoProperty]
	e.s.mu.Unlock()
	if dee || !demo {
		t.Fatalf("after reset: old property %v, demo %v", dee, demo)
	}
}
