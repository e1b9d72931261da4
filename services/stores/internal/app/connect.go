package app

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"net/url"
	"slices"
	"strings"

	"uplift.dev/stores/internal/domain"
)

// RequiredScopes are the scopes without which the numbers cannot be made;
// read_reports (sessions) and read_all_orders (history past 60 days) are
// welcome but optional.
var RequiredScopes = []string{"read_orders", "read_products"}

// WebhookTopics are the topics the sync subscribes to.
var WebhookTopics = []string{
	"ORDERS_CREATE", "ORDERS_UPDATED", "ORDERS_CANCELLED", "ORDERS_DELETE", "REFUNDS_CREATE",
	"PRODUCTS_CREATE", "PRODUCTS_UPDATE", "PRODUCTS_DELETE",
	"CUSTOMERS_CREATE", "CUSTOMERS_UPDATE", "CUSTOMERS_DELETE",
	"APP_UNINSTALLED",
}

// Connections are a category's store connections.
type Connections struct {
	// Shopify is nil when no shop was ever connected.
	Shopify *Connection
	// Stored counts what is stored of the shop (zero without one).
	Stored     StoreCounts
	LastImport *Import
	// WooCommerce is nil when no WooCommerce store was ever connected.
	WooCommerce *WooConnection
	// WooStored counts what is stored of the WooCommerce store (zero
	// unless one is connected).
	WooStored StoreCounts
	// GA4 is nil when Google Analytics 4 was never connected.
	GA4 *GA4Connection
}

// GetConnections returns the category's connections.
func (a *App) GetConnections(ctx context.Context, categoryID string) (Connections, error) {
	if err := a.authorize(ctx, categoryID); err != nil {
		return Connections{}, err
	}
	conn, err := a.repo.Connection(ctx, categoryID)
	if err != nil {
		return Connections{}, err
	}
	imp, err := a.repo.LastImport(ctx, categoryID)
	if err != nil {
		return Connections{}, err
	}
	out := Connections{Shopify: conn, LastImport: imp}
	if a.woo != nil {
		if out.WooCommerce, err = a.woo.repo.WooConnection(ctx, categoryID); err != nil {
			return Connections{}, err
		}
		if out.WooCommerce != nil && out.WooCommerce.Status == StatusConnected {
			if out.WooStored, err = a.woo.repo.WooStoreCounts(ctx, categoryID); err != nil {
				return Connections{}, err
			}
		}
	}
	if a.ga4 != nil {
		if out.GA4, err = a.ga4.repo.GA4Connection(ctx, categoryID); err != nil {
			return Connections{}, err
		}
	}
	if conn != nil {
		if out.Stored, err = a.repo.ShopCounts(ctx, categoryID); err != nil {
			return Connections{}, err
		}
	}
	return out, nil
}

// StartShopifyConnect validates the shop and issues a one-use state bound to
// the caller, the category and the shop. It returns the gateway address
// that binds the state to the browser and goes on to Shopify. A shop
// connected to another account is offered too: only Shopify's consent,
// checked in CompleteShopifyConnect, says whose it is.
func (a *App) StartShopifyConnect(ctx context.Context, caller domain.Caller, categoryID, rawShop string) (string, error) {
	if err := a.authorize(ctx, categoryID); err != nil {
		return "", err
	}
	shop, err := a.shopify.NormalizeShop(rawShop)
	if err != nil {
		return "", &domain.ValidationError{Field: "shop", Message: err.Error()}
	}
	state, err := newState()
	if err != nil {
		return "", err
	}
	now := a.now()
	if err := a.repo.CreateState(ctx, OAuthState{State: state, CategoryID: categoryID, UserID: caller.UID,
		Shop: shop, CreatedAt: now, ExpiresAt: now.Add(a.opts.StateTTL)}); err != nil {
		return "", err
	}
	return a.opts.AuthorizeURL + "?" + url.Values{"state": {state}}.Encode(), nil
}

// AuthorizeShopify returns Shopify's consent page for a live state.
func (a *App) AuthorizeShopify(ctx context.Context, state string) (string, error) {
	st, err := a.repo.State(ctx, state, a.now())
	if err != nil {
		return "", err
	}
	return a.shopify.AuthorizeURL(st.Shop, st.State, a.opts.CallbackURL), nil
}

// CompleteShopifyConnect checks Shopify's callback and stores the connection.
// It always returns where to send the browser: back to Connections with
// either success or a message for people; only failures of our own are errors.
func (a *App) CompleteShopifyConnect(ctx context.Context, rawQuery, browserState string) (string, error) {
	q, _ := url.ParseQuery(rawQuery)
	if q.Get("error") != "" {
		// The owner cancelled on Shopify: nothing to verify or store. The
		// state stays unused and expires.
		return a.connectResult("You cancelled the connection on Shopify. Nothing was changed."), nil
	}
	cb, err := a.shopify.VerifyCallback(rawQuery)
	if err != nil {
		a.log.WarnContext(ctx, "shopify callback refused", "err", err)
		return a.connectResult(callbackMessage(err)), nil
	}
	if browserState == "" || !constantEqual(browserState, cb.State) {
		a.log.WarnContext(ctx, "shopify callback refused: state not bound to this browser")
		return a.connectResult("This connection was started in another browser or has expired. Please start again from Connections."), nil
	}
	st, err := a.repo.UseState(ctx, cb.State, a.now())
	if errors.Is(err, domain.ErrNotFound) {
		a.log.WarnContext(ctx, "shopify callback refused: unknown, used or expired state")
		return a.connectResult("This connection link has expired or was already used. Please start again from Connections."), nil
	}
	if err != nil {
		return "", err
	}
	if st.Shop != cb.Shop {
		a.log.WarnContext(ctx, "shopify callback refused: shop differs from the one started", "started", st.Shop, "callback", cb.Shop)
		return a.connectResult("Shopify returned a different shop than the one you entered. Please start again."), nil
	}
	tok, err := a.shopify.ExchangeCode(ctx, cb.Shop, cb.Code)
	if err != nil {
		a.log.WarnContext(ctx, "shopify code exchange failed", "shop", cb.Shop, "err", err)
		return a.connectResult("Shopify did not confirm the connection. Please try again."), nil
	}
	if missing := missingScopes(tok.Scopes); len(missing) > 0 {
		return a.connectResult("Uplift needs permission to read " + strings.Join(missing, ", ") + ". Please approve all requested permissions."), nil
	}
	sealed, err := a.seal(tok)
	if err != nil {
		return "", err
	}
	now := a.now()
	// The callback is HMAC-verified, bound to this browser's state and its
	// code exchanged: the person who started it can install apps on the
	// shop, so a shop connected to another account moves here.
	movedFrom, err := a.repo.Connect(ctx, Connection{CategoryID: st.CategoryID, Shop: cb.Shop, Status: StatusConnected,
		Tokens: sealed, ConnectedBy: st.UserID, ConnectedAt: now,
		SessionsAvailable: slices.Contains(tok.Scopes, "read_reports")})
	if errors.Is(err, domain.ErrShopTaken) {
		return a.connectResult("This shop was being connected to another Uplift account at the same moment. Please try again."), nil
	}
	if err != nil {
		return "", err
	}
	if movedFrom != "" {
		a.log.InfoContext(ctx, "shopify shop moved to another account", "shop", cb.Shop, "from", movedFrom, "to", st.CategoryID)
	}
	a.log.InfoContext(ctx, "shopify connected", "category", st.CategoryID, "shop", cb.Shop)
	return a.opts.WebURL + "/connections?shopify=connected", nil
}

// DisconnectShopify forgets the tokens; imported numbers stay.
func (a *App) DisconnectShopify(ctx context.Context, categoryID string) error {
	if _, err := a.connectedShop(ctx, categoryID); err != nil {
		return err
	}
	return a.repo.Disconnect(ctx, categoryID, StatusDisconnected, a.now())
}

// SyncShopify asks for a sweep now.
func (a *App) SyncShopify(ctx context.Context, categoryID string) error {
	conn, err := a.connectedShop(ctx, categoryID)
	if err != nil {
		return err
	}
	// A failed first import starts over; otherwise a sweep is enough.
	return a.repo.RequestSync(ctx, categoryID, conn.LastSyncedAt == nil, a.now())
}

// connectedShop is the category's connection once the caller may act on
// it, or domain.ErrNotConnected when no shop is connected.
func (a *App) connectedShop(ctx context.Context, categoryID string) (*Connection, error) {
	if err := a.authorize(ctx, categoryID); err != nil {
		return nil, err
	}
	conn, err := a.repo.Connection(ctx, categoryID)
	if err != nil {
		return nil, err
	}
	if conn == nil || conn.Status != StatusConnected {
		return nil, domain.ErrNotConnected
	}
	return conn, nil
}

func (a *App) connectResult(message string) string {
	return a.opts.WebURL + "/connections?" + url.Values{"shopify": {"error"}, "message": {message}}.Encode()
}

func callbackMessage(err error) string {
	switch {
	case errors.Is(err, domain.ErrStaleCallback):
		return "The answer from Shopify took too long to arrive. Please start again."
	case errors.Is(err, domain.ErrBadShop):
		return "Shopify returned a shop address that is not valid. Please start again."
	default:
		return "We could not verify the answer from Shopify. Please start again."
	}
}

func missingScopes(granted []string) []string {
	var missing []string
	for _, s := range RequiredScopes {
		// write_ scopes imply read_ ones.
		if !slices.Contains(granted, s) && !slices.Contains(granted, "write_"+strings.TrimPrefix(s, "read_")) {
			missing = append(missing, s)
		}
	}
	return missing
}

func (a *App) seal(t Token) (SealedTokens, error) {
	access, err := a.sealer.Seal(t.Access)
	if err != nil {
		return SealedTokens{}, err
	}
	var refresh []byte
	if t.Refresh != "" {
		if refresh, err = a.sealer.Seal(t.Refresh); err != nil {
			return SealedTokens{}, err
		}
	}
	return SealedTokens{Access: access, AccessExpiresAt: t.ExpiresAt, Refresh: refresh,
		RefreshExpiresAt: t.RefreshExpiresAt, Scopes: t.Scopes}, nil
}

func newState() (string, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}
