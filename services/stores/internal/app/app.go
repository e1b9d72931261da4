// Package app holds the stores service's use cases: importing order exports,
// connecting and syncing a Shopify shop, and reading the numbers back. It
// reaches storage, the categories service (who may act on a category) and
// Shopify through the narrow interfaces it declares here, so each can be
// replaced by a fake in tests.
package app

import (
	"context"
	"log/slog"
	"time"

	"github.com/google/uuid"

	"uplift.dev/platform/clock"
	"uplift.dev/stores/internal/domain"
)

// Access answers whether the caller may act on a category: the categories
// service owns that rule (the owner, or an uplifter on their behalf), so it
// is asked, with the caller's own credentials, rather than copied here.
type Access interface {
	// Check returns nil, domain.ErrNotFound or domain.ErrPermissionDenied.
	Check(ctx context.Context, categoryID string) error
}

// ShopifyAuth is the part of the Shopify client that needs no shop token.
type ShopifyAuth interface {
	NormalizeShop(raw string) (string, error)
	AuthorizeURL(shop, state, redirectURI string) string
	VerifyCallback(rawQuery string) (Callback, error)
	ExchangeCode(ctx context.Context, shop, code string) (Token, error)
	Refresh(ctx context.Context, shop, refreshToken string) (Token, error)
	VerifyWebhook(body []byte, hmacBase64 string) bool
}

// ShopClient reads one shop's data with its token.
type ShopClient interface {
	Shop(ctx context.Context) (ShopInfo, error)
	EnsureWebhooks(ctx context.Context, uri string, topics []string) error
	Counts(ctx context.Context) (orders, products, customers int64, err error)
	BulkOrders(ctx context.Context, loc *time.Location, fn func(domain.Order) error, progress func(n int64)) error
	BulkProducts(ctx context.Context, fn func(Product) error) error
	BulkCustomers(ctx context.Context, fn func(Customer) error) error
	Order(ctx context.Context, id int64, loc *time.Location) (domain.Order, bool, error)
	OrdersUpdatedSince(ctx context.Context, since time.Time, loc *time.Location, fn func(domain.Order) error) error
	Sessions(ctx context.Context, from, to string) ([]ShopSessions, error)
	Sales(ctx context.Context, from, to, currency string) ([]ShopSales, error)
}

// Sealer encrypts tokens at rest.
type Sealer interface {
	Seal(plain string) ([]byte, error)
	Open(sealed []byte) (string, error)
}

// Options are the settings the use cases need.
type Options struct {
	// CallbackURL is Shopify's redirect_uri: the gateway's callback route.
	CallbackURL string
	// AuthorizeURL is the gateway route that binds the OAuth state to the
	// browser before going on to Shopify.
	AuthorizeURL string
	// WebhookURL is where Shopify delivers webhooks (the gateway).
	WebhookURL string
	// WebURL is the web app; the callback returns the browser there.
	WebURL string
	// StateTTL bounds how long a started connection may take; 0 is 10 minutes.
	StateTTL time.Duration
	// SweepEvery is how often a connected shop is swept for missed changes; 0 is 15 minutes.
	SweepEvery time.Duration
	// SyncLease bounds one sync run before another worker may take it over; 0 is 30 minutes.
	SyncLease time.Duration
	// ImportsInFlight bounds the order imports this replica runs at once;
	// 0 is DefaultImportsInFlight.
	ImportsInFlight int
}

// App is the stores service's use cases.
type App struct {
	repo    Repository
	access  Access
	shopify ShopifyAuth
	client  func(shop string, ts TokenSource) ShopClient
	sealer  Sealer
	log     *slog.Logger
	opts    Options
	now     clock.Clock
	newID   func() string
	tokens  *tokenLocks
	// imports holds a token per import running (Options.ImportsInFlight).
	imports chan struct{}
	// woo connects WooCommerce stores (WithWooCommerce); nil without.
	woo *woo
	// ga4 connects Google Analytics 4 (WithGA4); nil without.
	ga4 *ga4
}

// New returns the use cases over the given adapters. client opens a shop's
// API with a token source.
func New(repo Repository, access Access, sh ShopifyAuth, client func(string, TokenSource) ShopClient,
	sealer Sealer, log *slog.Logger, opts Options) *App {
	if opts.StateTTL <= 0 {
		opts.StateTTL = 10 * time.Minute
	}
	if opts.SweepEvery <= 0 {
		opts.SweepEvery = 15 * time.Minute
	}
	if opts.SyncLease <= 0 {
		opts.SyncLease = 30 * time.Minute
	}
	if opts.ImportsInFlight <= 0 {
		opts.ImportsInFlight = DefaultImportsInFlight
	}
	return &App{repo: repo, access: access, shopify: sh, client: client, sealer: sealer, log: log, opts: opts,
		now: clock.Real, newID: uuid.NewString, tokens: newTokenLocks(), imports: make(chan struct{}, opts.ImportsInFlight)}
}

// WithClock returns the use cases reading time from now; tests move it.
func (a *App) WithClock(now clock.Clock) *App {
	c := *a
	c.now = now
	return &c
}

// authorize checks the category id and that the caller may act on it.
func (a *App) authorize(ctx context.Context, categoryID string) error {
	if err := validateCategoryID(categoryID); err != nil {
		return err
	}
	return a.access.Check(ctx, categoryID)
}

// validateCategoryID checks an id from a path: categories are UUIDs.
func validateCategoryID(id string) error {
	if uuid.Validate(id) != nil {
		return &domain.ValidationError{Field: "categoryId", Message: "categoryId is not a valid id."}
	}
	return nil
}
