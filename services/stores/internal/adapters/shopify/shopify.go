// Package shopify is Uplift's thin client for Shopify's Admin API: the OAuth
// install, HMAC checks, and the GraphQL reads the stores service syncs from
// (../shared/research/shopify.md). No Go Shopify library can be installed on
// the build machines, and the surface the app needs is small, so it is
// written here on net/http. Every URL is built from Config.BaseURL, which
// lets tests and local runs point it at the Shopify simulator.
package shopify

import (
	"errors"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"path"
	"regexp"
	"strings"
	"time"

	"uplift.dev/platform/clock"
	"uplift.dev/stores/internal/domain"
)

// The adapter's own errors; what the app decides on (a bad shop, a stale
// callback, a locked shop, a missing scope) it returns as the domain's
// sentinels, so the app never names this package.
var (
	// ErrBadHMAC: a callback whose signature does not verify (tampered or forged).
	ErrBadHMAC = errors.New("shopify: callback signature does not verify")
	// ErrMissingCode: a callback without an authorization code (the merchant declined).
	ErrMissingCode = errors.New("shopify: callback has no authorization code")
	// ErrUnauthorized: Shopify rejected the token even after a refresh; the
	// shop must be connected again.
	ErrUnauthorized = errors.New("shopify: access token rejected")
)

// DefaultScopes are what the sync and the reports read (research 2.4).
var DefaultScopes = []string{"read_orders", "read_all_orders", "read_products", "read_customers", "read_reports"}

// DefaultAPIVersion is the pinned Admin API version; Shopify falls forward
// from an unsupported one and says so in X-Shopify-API-Version.
const DefaultAPIVersion = "2026-10"

// Config is the app's Shopify settings. Zero fields get production defaults.
type Config struct {
	APIKey, APISecret string
	// Scopes requested at install; default DefaultScopes.
	Scopes []string
	// APIVersion of the Admin API; default DefaultAPIVersion.
	APIVersion string
	// BaseURL gives a shop's origin; default "https://"+shop. Tests and
	// local runs point it at the simulator.
	BaseURL func(shop string) string
	// ExtraShopDomains are test-only suffixes accepted besides
	// ".myshopify.com", e.g. ".myshopify.test"; empty in production.
	ExtraShopDomains []string
	// HTTPClient sends every request; default one with connect and header timeouts.
	HTTPClient *http.Client
	// Clock is the service's clock: callback timestamps are checked and
	// token expiries set by it. nil is the wall clock.
	Clock clock.Clock
	Log   *slog.Logger
}

// Shopify is the app-wide client: OAuth and signatures, and the factory of
// per-shop API clients. It is safe for concurrent use.
type Shopify struct {
	cfg       Config
	shopRE    []*regexp.Regexp
	retryBase time.Duration // first back-off step; tests shorten it
	maxWait   time.Duration // cap on any single wait
	pollBase  time.Duration // first bulk poll interval
}

// New fills in defaults and returns the client.
func New(c Config) *Shopify {
	if len(c.Scopes) == 0 {
		c.Scopes = DefaultScopes
	}
	if c.APIVersion == "" {
		c.APIVersion = DefaultAPIVersion
	}
	if c.BaseURL == nil {
		c.BaseURL = func(shop string) string { return "https://" + shop }
	}
	if c.HTTPClient == nil {
		c.HTTPClient = &http.Client{Transport: &http.Transport{
			Proxy:                 http.ProxyFromEnvironment,
			DialContext:           (&net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
			TLSHandshakeTimeout:   10 * time.Second,
			ResponseHeaderTimeout: 60 * time.Second,
			IdleConnTimeout:       90 * time.Second,
			MaxIdleConnsPerHost:   4,
		}}
	}
	if c.Log == nil {
		c.Log = slog.New(slog.DiscardHandler)
	}
	s := &Shopify{cfg: c, retryBase: 500 * time.Millisecond, maxWait: 30 * time.Second, pollBase: time.Second}
	for _, suffix := range append([]string{".myshopify.com"}, c.ExtraShopDomains...) {
		s.shopRE = append(s.shopRE, regexp.MustCompile(`^[a-z0-9][a-z0-9\-]*`+regexp.QuoteMeta(strings.ToLower(suffix))+`$`))
	}
	return s
}

// validShop reports whether host (already lower-cased) is a shop domain:
// the shopify.dev pattern, or a configured test suffix.
func (s *Shopify) validShop(host string) bool {
	for _, re := range s.shopRE {
		if re.MatchString(host) {
			return true
		}
	}
	return false
}

// NormalizeShop turns what a person typed ("your-store",
// "your-store.myshopify.com", "https://your-store.myshopify.com/admin") into
// the shop's domain, refusing anything else, since the domain decides where
// the app sends its secret and codes.
func (s *Shopify) NormalizeShop(raw string) (string, error) {
	raw = strings.ToLower(strings.TrimSpace(raw))
	if raw == "" {
		return "", domain.ErrBadShop
	}
	if !strings.Contains(raw, "://") {
		if !strings.ContainsAny(raw, "./:") {
			raw += ".myshopify.com"
		}
		raw = "https://" + raw
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.User != nil || u.Port() != "" ||
		u.RawQuery != "" || u.Fragment != "" || u.Opaque != "" {
		return "", domain.ErrBadShop
	}
	if p := u.EscapedPath(); p != "" && p != "/" && path.Clean(p) != p && path.Clean(p)+"/" != p {
		return "", domain.ErrBadShop
	}
	if strings.Contains(u.Path, "..") {
		return "", domain.ErrBadShop
	}
	host := u.Hostname()
	if !s.validShop(host) {
		return "", domain.ErrBadShop
	}
	return host, nil
}

// AuthorizeURL is where the merchant approves the install. It asks for an
// offline token (empty grant_options[]), since syncing runs without a person.
func (s *Shopify) AuthorizeURL(shop, state, redirectURI string) string {
	q := url.Values{
		"client_id":       {s.cfg.APIKey},
		"scope":           {strings.Join(s.cfg.Scopes, ",")},
		"redirect_uri":    {redirectURI},
		"state":           {state},
		"grant_options[]": {""},
	}
	return s.cfg.BaseURL(shop) + "/admin/oauth/authorize?" + q.Encode()
}
