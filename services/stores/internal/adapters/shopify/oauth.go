package shopify

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"

	"uplift.dev/stores/internal/app"
	"uplift.dev/stores/internal/domain"
)

// clockTolerance is how far a callback's timestamp may be from our clock,
// as in Shopify's own library (HMAC_TIMESTAMP_PERMITTED_CLOCK_TOLERANCE_SEC).
const clockTolerance = 90 * time.Second

// VerifyCallback checks the redirect from Shopify's consent screen: the
// HMAC over the other parameters (so none was tampered with), a recent
// timestamp (so it is not a replay) and a real shop domain (so the code is
// exchanged with Shopify, not with whoever wrote the link).
func (s *Shopify) VerifyCallback(rawQuery string) (app.Callback, error) {
	q, err := url.ParseQuery(rawQuery)
	if err != nil {
		return app.Callback{}, ErrBadHMAC
	}
	if !s.validQueryHMAC(q) {
		return app.Callback{}, ErrBadHMAC
	}
	sec, err := strconv.ParseInt(q.Get("timestamp"), 10, 64)
	if err != nil {
		return app.Callback{}, domain.ErrStaleCallback
	}
	ts := time.Unix(sec, 0)
	if d := s.cfg.Clock.Now().Sub(ts); d > clockTolerance || d < -clockTolerance {
		return app.Callback{}, domain.ErrStaleCallback
	}
	shop := q.Get("shop")
	if shop != strings.ToLower(shop) || !s.validShop(shop) {
		return app.Callback{}, domain.ErrBadShop
	}
	if q.Get("code") == "" {
		return app.Callback{}, ErrMissingCode
	}
	return app.Callback{Shop: shop, Code: q.Get("code"), State: q.Get("state"), Host: q.Get("host"), Timestamp: ts}, nil
}

// validQueryHMAC applies Shopify's rule: drop hmac and signature, sort by
// key, join decoded "k=v" with "&", hex HMAC-SHA256 with the app secret. The
// key list is never hard-coded, since Shopify adds parameters. The form with
// spaces written "%20" is accepted too, as Shopify has signed both.
func (s *Shopify) validQueryHMAC(q url.Values) bool {
	got, err := hex.DecodeString(q.Get("hmac"))
	if err != nil || len(got) != sha256.Size {
		return false
	}
	msg := queryMessage(q)
	ok := hmac.Equal(got, s.sign([]byte(msg)))
	if alt := strings.ReplaceAll(msg, " ", "%20"); alt != msg {
		ok = hmac.Equal(got, s.sign([]byte(alt))) || ok
	}
	return ok
}

// queryMessage is the signed message of a query, hmac and signature left out.
// A repeated key is written like Shopify's library writes arrays: k=["a", "b"].
func queryMessage(q url.Values) string {
	keys := make([]string, 0, len(q))
	for k := range q {
		if k != "hmac" && k != "signature" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		v := q[k]
		if len(v) == 1 {
			parts = append(parts, k+"="+v[0])
			continue
		}
		quoted := make([]string, len(v))
		for i, x := range v {
			quoted[i] = strconv.Quote(x)
		}
		parts = append(parts, k+"=["+strings.Join(quoted, ", ")+"]")
	}
	return strings.Join(parts, "&")
}

func (s *Shopify) sign(msg []byte) []byte {
	m := hmac.New(sha256.New, []byte(s.cfg.APISecret))
	m.Write(msg)
	return m.Sum(nil)
}

// VerifyWebhook checks X-Shopify-Hmac-Sha256 (base64 HMAC of the raw body)
// in constant time, before anything parses the body.
func (s *Shopify) VerifyWebhook(body []byte, hmacBase64 string) bool {
	got, err := base64.StdEncoding.DecodeString(strings.TrimSpace(hmacBase64))
	if err != nil || len(got) != sha256.Size {
		return false
	}
	return hmac.Equal(got, s.sign(body))
}

// ExchangeCode trades a callback's code for an expiring offline token.
func (s *Shopify) ExchangeCode(ctx context.Context, shop, code string) (app.Token, error) {
	return s.tokenRequest(ctx, shop, url.Values{"code": {code}, "expiring": {"1"}})
}

// Refresh trades a refresh token for a new access token (and a rotated
// refresh token), so syncing continues past the hour-long token life.
func (s *Shopify) Refresh(ctx context.Context, shop, refreshToken string) (app.Token, error) {
	return s.tokenRequest(ctx, shop, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {refreshToken}})
}

// tokenRequest posts to the token endpoint (form-encoded, which Shopify
// accepts like JSON) and reads the answer. Tokens are never logged.
func (s *Shopify) tokenRequest(ctx context.Context, shop string, form url.Values) (app.Token, error) {
	if !s.validShop(shop) {
		return app.Token{}, domain.ErrBadShop
	}
	form.Set("client_id", s.cfg.APIKey)
	form.Set("client_secret", s.cfg.APISecret)
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.cfg.BaseURL(shop)+"/admin/oauth/access_token",
		strings.NewReader(form.Encode()))
	if err != nil {
		return app.Token{}, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	now := s.cfg.Clock.Now()
	resp, err := s.cfg.HTTPClient.Do(req)
	if err != nil {
		return app.Token{}, fmt.Errorf("shopify token request: %w", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return app.Token{}, fmt.Errorf("shopify token request: %w", err)
	}
	var r struct {
		AccessToken           string `json:"access_token"`
		Scope                 string `json:"scope"`
		ExpiresIn             int64  `json:"expires_in"`
		RefreshToken          string `json:"refresh_token"`
		RefreshTokenExpiresIn int64  `json:"refresh_token_expires_in"`
		Error                 string `json:"error"`
		ErrorDescription      string `json:"error_description"`
	}
	_ = json.Unmarshal(body, &r)
	switch {
	case resp.StatusCode == http.StatusPaymentRequired || resp.StatusCode == http.StatusLocked:
		return app.Token{}, domain.ErrShopLocked
	case resp.StatusCode != http.StatusOK:
		return app.Token{}, fmt.Errorf("shopify token request: %s: %s", resp.Status, firstNonEmpty(r.ErrorDescription, r.Error))
	case r.AccessToken == "":
		return app.Token{}, fmt.Errorf("shopify token request: no access token in the answer")
	}
	t := app.Token{Access: r.AccessToken, Refresh: r.RefreshToken}
	for _, sc := range strings.Split(r.Scope, ",") {
		if sc = strings.TrimSpace(sc); sc != "" {
			t.Scopes = append(t.Scopes, sc)
		}
	}
	if r.ExpiresIn > 0 {
		t.ExpiresAt = now.Add(time.Duration(r.ExpiresIn) * time.Second)
	}
	if r.RefreshTokenExpiresIn > 0 {
		t.RefreshExpiresAt = now.Add(time.Duration(r.RefreshTokenExpiresIn) * time.Second)
	}
	return t, nil
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return "no details"
}
