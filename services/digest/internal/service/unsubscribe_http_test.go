package service_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"

	digestv1 "uplift.dev/proto/gen/uplift/digest/v1"

	"uplift.dev/digest/internal/domain"
	"uplift.dev/digest/internal/sinktest"
)

// TestUnsubscribeOverHTTP drives the REST mapping (grpc-gateway, as the
// gateway mounts it) the way a mail client and a browser do: RFC 8058's
// one-click POST with the token in the query and a form body, the footer
// link's GET, the page's resubscribe POST; bad tokens are a 4xx.
func TestUnsubscribeOverHTTP(t *testing.T) {
	t.Parallel()
	sink := sinktest.New(t)
	h := start(t, sink.SMTPAddr)
	mux := runtime.NewServeMux()
	if err := digestv1.RegisterDigestServiceHandlerClient(context.Background(), mux, h.client); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	signer, _ := domain.NewTokenSigner(secret)
	user := "u-http"
	tok := func(kind domain.Kind, exp time.Duration) string {
		s, err := signer.Sign(domain.Unsubscription{UserID: user, Kind: kind, Expires: time.Now().Add(exp)})
		if err != nil {
			t.Fatal(err)
		}
		return url.QueryEscape(s)
	}
	do := func(method, path, body string) (int, string) {
		t.Helper()
		req, _ := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
		if body != "" {
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	state := func() string {
		var s string
		_ = h.pool.QueryRow(context.Background(), `SELECT coalesce(string_agg(kind || '=' || suppressed::text, ',' ORDER BY kind), '')
			FROM suppressions WHERE user_id = $1`, user).Scan(&s)
		return s
	}

	daily := tok(domain.KindDailyReport, time.Hour)
	if code, body := do(http.MethodPost, "/email/unsubscribe?token="+daily, "List-Unsubscribe=One-Click"); code != http.StatusOK ||
		!strings.Contains(body, "Daily Business Report") {
		t.Fatalf("one-click POST: %d %s", code, body)
	}
	if s := state(); s != "daily_report=true" {
		t.Fatalf("after one click: %q", s)
	}
	// The mapping's GET (in front of it the gateway answers GET with its
	// confirm-first page, gateway/internal/gateway/email.go).
	if code, body := do(http.MethodGet, "/email/unsubscribe?token="+tok(domain.KindWeeklyReview, time.Hour), ""); code != http.StatusOK ||
		!strings.Contains(body, "/email/resubscribe?token=") {
		t.Fatalf("footer GET: %d %s", code, body)
	}
	if s := state(); s != "daily_report=true,weekly_review=true" {
		t.Fatalf("after the footer link: %q", s)
	}
	if code, body := do(http.MethodPost, "/email/resubscribe?token="+daily, ""); code != http.StatusOK || !strings.Contains(body, "again") {
		t.Fatalf("resubscribe: %d %s", code, body)
	}
	if s := state(); s != "daily_report=false,weekly_review=true" {
		t.Fatalf("after resubscribing: %q", s)
	}
	for name, path := range map[string]string{
		"expired":  "/email/unsubscribe?token=" + tok(domain.KindAIDigest, -time.Hour),
		"tampered": "/email/unsubscribe?token=" + strings.Replace(daily, "e", "f", 1),
		"missing":  "/email/unsubscribe",
	} {
		if code, body := do(http.MethodPost, path, "List-Unsubscribe=One-Click"); code != http.StatusBadRequest || !strings.Contains(body, "unsubscribe link") {
			t.Errorf("%s: %d %s", name, code, body)
		}
	}
	if s := state(); s != "daily_report=false,weekly_review=true" {
		t.Fatalf("a refused link changed something: %q", s)
	}
}
