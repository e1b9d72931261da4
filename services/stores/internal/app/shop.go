package app

import (
	"context"
	"time"

	"uplift.dev/stores/internal/domain"
)

// What the app reads from and hands to a shop's platform, in its own
// words: the Shopify adapter converts to and from these, so no use case
// depends on how Shopify spells them.

// Callback is what a verified OAuth callback carries. The app still checks
// State against the nonce it bound to the browser.
type Callback struct {
	Shop, Code, State, Host string
	Timestamp               time.Time
}

// Token is an offline access token with its expiry and refresh token, as
// Shopify's expiring offline tokens (mandatory for public apps) come.
type Token struct {
	Access string
	Scopes []string
	// ExpiresAt is zero when the token never expires.
	ExpiresAt        time.Time
	Refresh          string
	RefreshExpiresAt time.Time
}

// TokenSource gives the current access token and, after a 401, a refreshed
// one (the app implements it with storage and a per-shop lock).
type TokenSource interface {
	Token(ctx context.Context) (string, error)
	Refreshed(ctx context.Context, rejected string) (string, error)
}

// ShopInfo is what the app stores about a connected shop: the currency its
// amounts are in and the time zone its days are counted in.
type ShopInfo struct {
	Name, Domain, Currency, Timezone string
	TaxesIncluded                    bool
}

// Product is what the catalogue keeps of a product: no more than names.
type Product struct{ ID, Title string }

// Customer is a customer's id and order count: no personal data.
type Customer struct {
	ID             string
	NumberOfOrders int64
}

// ShopSessions is one shop-local day of the shop's online-store sessions,
// as the platform reports them (Day is YYYY-MM-DD).
type ShopSessions struct {
	Day                 string
	Sessions, Completed int64
}

// ShopSales is one shop-local day of the platform's own sales report, kept
// next to Uplift's computation to catch any difference.
type ShopSales struct {
	Day                                                                   string
	Orders                                                                int64
	GrossSales, Discounts, Returns, NetSales, Shipping, Taxes, TotalSales domain.Money
}
