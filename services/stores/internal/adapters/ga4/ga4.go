// Package ga4 is the Google client the stores service reads Google
// Analytics 4 with: Google's OAuth 2.0 web-server flow (with PKCE), the
// Admin API's accountSummaries and the Data API's runReport
// (../shared/research/ga4.md §1, §3, §4). Plain HTTP and JSON: the few
// calls needed do not justify Google's generated clients. Base URLs are
// settings, so the simulator (deploy/ga4sim) stands in locally.
package ga4

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"uplift.dev/stores/internal/app"
)

// Config are Google's addresses and Uplift's OAuth client.
type Config struct {
	ClientID, ClientSecret string
	// AccountsURL serves /o/oauth2/v2/auth (https://accounts.google.com).
	AccountsURL string
	// OAuthURL serves /token and /revoke (https://oauth2.googleapis.com).
	OAuthURL string
	// AdminURL serves /v1beta/accountSummaries (https://analyticsadmin.googleapis.com).
	AdminURL string
	// DataURL serves /v1beta/properties/{id}:runReport (https://analyticsdata.googleapis.com).
	DataURL string
	// HTTP is the client used; nil is one with a 30 s timeout.
	HTTP *http.Client
}

// Google's real addresses.
const (
	DefaultAccountsURL = "https://accounts.google.com"
	DefaultOAuthURL    = "https://oauth2.googleapis.com"
	DefaultAdminURL    = "https://analyticsadmin.googleapis.com"
	DefaultDataURL     = "https://analyticsdata.googleapis.com"
)

// Client implements app.Google.
type Client struct {
	c    Config
	http *http.Client
}

var _ app.Google = (*Client)(nil)

// New returns a client for c.
func New(c Config) *Client {
	h := c.HTTP
	if h == nil {
		h = &http.Client{Timeout: 30 * time.Second}
	}
	for _, p := range []*string{&c.AccountsURL, &c.OAuthURL, &c.AdminURL, &c.DataURL} {
		*p = strings.TrimRight(*p, "/")
	}
	return &Client{c: c, http: h}
}

// Challenge is PKCE's S256 code challenge of a verifier (RFC 7636 §4.2).
func Challenge(verifier string) string {
	sum := sha256.Sum256([]byte(verifier))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// AuthorizeURL implements app.Google: offline access (a refresh token),
// consent asked every time (so a reconnect gets a refresh token again) and
// the S256 challenge of verifier.
func (c *Client) AuthorizeURL(state, verifier, redirectURI string) string {
	q := url.Values{
		"client_id":              {c.c.ClientID},
		"redirect_uri":           {redirectURI},
		"response_type":          {"code"},
		"scope":                  {app.GA4Scope},
		"access_type":            {"offline"},
		"prompt":                 {"consent"},
		"include_granted_scopes": {"true"},
		"state":                  {state},
		"code_challenge":         {Challenge(verifier)},
		"code_challenge_method":  {"S256"},
	}
	return c.c.AccountsURL + "/o/oauth2/v2/auth?" + q.Encode()
}

// oauthError is Google's token endpoint error.
type oauthError struct {
	Error       string `json:"error"`
	Description string `json:"error_description"`
}

func (c *Client) token(ctx context.Context, form url.Values) (app.GoogleToken, error) {
	form.Set("client_id", c.c.ClientID)
	form.Set("client_secret", c.c.ClientSecret)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.c.OAuthURL+"/token", strings.NewReader(form.Encode()))
	if err != nil {
		return app.GoogleToken{}, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	res, err := c.http.Do(req)
	if err != nil {
		return app.GoogleToken{}, err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	if err != nil {
		return app.GoogleToken{}, err
	}
	if res.StatusCode != http.StatusOK {
		var e oauthError
		_ = json.Unmarshal(body, &e)
		if e.Error == "invalid_grant" {
			return app.GoogleToken{}, fmt.Errorf("%w: %s", app.ErrGoogleGrant, e.Description)
		}
		return app.GoogleToken{}, fmt.Errorf("google token endpoint: %d %s %s", res.StatusCode, e.Error, e.Description)
	}
	var t struct {
		AccessToken  string `json:"access_token"`
		ExpiresIn    int64  `json:"expires_in"`
		RefreshToken string `json:"refresh_token"`
		Scope        string `json:"scope"`
		TokenType    string `json:"token_type"`
	}
	if err := json.Unmarshal(body, &t); err != nil || t.AccessToken == "" {
		return app.GoogleToken{}, fmt.Errorf("google token endpoint: an answer without an access token")
	}
	return app.GoogleToken{Access: t.AccessToken, Refresh: t.RefreshToken, Scopes: strings.Fields(t.Scope)}, nil
}

// ExchangeCode implements app.Google.
func (c *Client) ExchangeCode(ctx context.Context, code, verifier, redirectURI string) (app.GoogleToken, error) {
	return c.token(ctx, url.Values{"grant_type": {"authorization_code"}, "code": {code},
		"redirect_uri": {redirectURI}, "code_verifier": {verifier}})
}

// Refresh implements app.Google.
func (c *Client) Refresh(ctx context.Context, refreshToken string) (string, error) {
	t, err := c.token(ctx, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {refreshToken}})
	return t.Access, err
}

// Revoke implements app.Google: POST /revoke ends the whole grant. A token
// Google no longer knows (400 invalid_token) is as good as revoked.
func (c *Client) Revoke(ctx context.Context, token string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.c.OAuthURL+"/revoke",
		strings.NewReader(url.Values{"token": {token}}.Encode()))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	res, err := c.http.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(res.Body, 1<<16))
	if res.StatusCode == http.StatusOK {
		return nil
	}
	var e oauthError
	if json.Unmarshal(body, &e) == nil && e.Error == "invalid_token" {
		return nil
	}
	return fmt.Errorf("google revoke: %d %s", res.StatusCode, body)
}

// apiError is Google's API error body.
type apiError struct {
	Error struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
		Status  string `json:"status"`
	} `json:"error"`
}

func (c *Client) call(ctx context.Context, method, u, access string, body any, out any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, u, rd)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+access)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := c.http.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(io.LimitReader(res.Body, 32<<20))
	if err != nil {
		return err
	}
	if res.StatusCode != http.StatusOK {
		var e apiError
		_ = json.Unmarshal(b, &e)
		ge := &app.GoogleAPIError{HTTPStatus: res.StatusCode, Status: e.Error.Status, Message: e.Error.Message}
		return ge
	}
	return json.Unmarshal(b, out)
}

// Properties implements app.Google: every page of accountSummaries (200
// a page, Google's most).
func (c *Client) Properties(ctx context.Context, access string) ([]app.GA4Property, error) {
	var out []app.GA4Property
	token := ""
	for page := 0; page < 100; page++ {
		q := url.Values{"pageSize": {"200"}}
		if token != "" {
			q.Set("pageToken", token)
		}
		var res struct {
			AccountSummaries []struct {
				DisplayName       string `json:"displayName"`
				PropertySummaries []struct {
					Property    string `json:"property"`
					DisplayName string `json:"displayName"`
				} `json:"propertySummaries"`
			} `json:"accountSummaries"`
			NextPageToken string `json:"nextPageToken"`
		}
		if err := c.call(ctx, http.MethodGet, c.c.AdminURL+"/v1beta/accountSummaries?"+q.Encode(), access, nil, &res); err != nil {
			return nil, err
		}
		for _, a := range res.AccountSummaries {
			for _, p := range a.PropertySummaries {
				id, ok := strings.CutPrefix(p.Property, "properties/")
				if !ok || id == "" {
					continue
				}
				out = append(out, app.GA4Property{ID: id, Name: p.DisplayName, Account: a.DisplayName})
			}
		}
		if res.NextPageToken == "" {
			return out, nil
		}
		token = res.NextPageToken
	}
	return out, errors.New("accountSummaries: too many pages")
}

// Report implements app.Google: sessions and ecommercePurchases by date
// for [from, to] (property-time days, both ends inclusive), in date order,
// empty days kept, with the quota and GA4's data-quality flags.
func (c *Client) Report(ctx context.Context, access, propertyID, from, to string) (app.GA4Report, error) {
	req := map[string]any{
		"dateRanges":          []map[string]string{{"startDate": from, "endDate": to}},
		"dimensions":          []map[string]string{{"name": "date"}},
		"metrics":             []map[string]string{{"name": "sessions"}, {"name": "ecommercePurchases"}},
		"keepEmptyRows":       true,
		"orderBys":            []map[string]any{{"dimension": map[string]string{"dimensionName": "date"}}},
		"returnPropertyQuota": true,
		"limit":               100000,
	}
	var res struct {
		Rows []struct {
			DimensionValues []struct {
				Value string `json:"value"`
			} `json:"dimensionValues"`
			MetricValues []struct {
				Value string `json:"value"`
			} `json:"metricValues"`
		} `json:"rows"`
		Metadata struct {
			CurrencyCode          string            `json:"currencyCode"`
			TimeZone              string            `json:"timeZone"`
			SubjectToThresholding bool              `json:"subjectToThresholding"`
			SamplingMetadatas     []json.RawMessage `json:"samplingMetadatas"`
		} `json:"metadata"`
	}
	u := c.c.DataURL + "/v1beta/properties/" + url.PathEscape(propertyID) + ":runReport"
	if err := c.call(ctx, http.MethodPost, u, access, req, &res); err != nil {
		return app.GA4Report{}, err
	}
	out := app.GA4Report{TimeZone: res.Metadata.TimeZone, Currency: res.Metadata.CurrencyCode,
		Sampled: len(res.Metadata.SamplingMetadatas) > 0, Thresholded: res.Metadata.SubjectToThresholding}
	for _, r := range res.Rows {
		if len(r.DimensionValues) != 1 || len(r.MetricValues) != 2 {
			return app.GA4Report{}, fmt.Errorf("runReport: a row of %d dimensions and %d metrics", len(r.DimensionValues), len(r.MetricValues))
		}
		s, err1 := strconv.ParseInt(r.MetricValues[0].Value, 10, 64)
		p, err2 := strconv.ParseInt(r.MetricValues[1].Value, 10, 64)
		if err := errors.Join(err1, err2); err != nil {
			return app.GA4Report{}, fmt.Errorf("runReport: %w", err)
		}
		out.Rows = append(out.Rows, app.GA4Row{Date: r.DimensionValues[0].Value, Sessions: s, Purchases: p})
	}
	return out, nil
}
