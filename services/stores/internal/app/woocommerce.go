package app

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"time"

	"uplift.dev/stores/internal/domain"
)

// Connecting a WooCommerce store (../shared/research/woocommerce.md §1):
// the browser goes to the store's /wc-auth/v1/authorize with a one-use
// state as user_id; the owner approves there; WooCommerce POSTs the new API
// keys to Uplift's callback (ReceiveWooCommerceKeys), which must answer
// exactly 200 for WooCommerce to keep them; then WooCommerce sends the
// browser to return_url (ReturnWooCommerce), which tells Connections how it
// went.

// WooScope is the key permission Uplift asks for: read for the numbers,
// write because creating webhooks is a POST, which a read key may not do
// (§1 "creating webhooks therefore needs read_write").
const WooScope = "read_write"

// WooAppName is what the store's grant screen and its key list call Uplift.
const WooAppName = "Uplift"

// WooCommerce is the part of the WooCommerce client that connecting needs.
type WooCommerce interface {
	// AuthorizeURL is the store's app authorization page for these
	// parameters (§1 "Request").
	AuthorizeURL(store, state, returnURL, callbackURL string) string
	// StoreInfo reads the store's name and time zone (the WordPress index)
	// and, with the keys, its currency: an answer proves the keys open
	// that store.
	StoreInfo(ctx context.Context, store string, keys WooKeys) (WooStoreInfo, error)
	// Count is a list's size (X-WP-Total): "products", "customers".
	Count(ctx context.Context, store string, keys WooKeys, resource string) (int64, error)
	// Orders gives every order modified after since (all with nil), with
	// its refunds, oldest change first; progress hears how many so far.
	// Then it gives the orders moved to the trash since, with status
	// domain.WooTrash (and no refunds).
	Orders(ctx context.Context, store string, keys WooKeys, since *time.Time,
		fn func(domain.WooOrder) error, progress func(done, total int64)) error
	// Order is one order as the API has it now; false once deleted or trashed.
	Order(ctx context.Context, store string, keys WooKeys, id int64) (domain.WooOrder, bool, error)
	Webhooks(ctx context.Context, store string, keys WooKeys) ([]WooWebhook, error)
	CreateWebhook(ctx context.Context, store string, keys WooKeys, topic, deliveryURL, secret string) error
	ActivateWebhook(ctx context.Context, store string, keys WooKeys, id int64, secret string) error
}

// WooWebhook is one of a store's webhooks.
type WooWebhook struct {
	ID                         int64
	Topic, Status, DeliveryURL string
}

// WooKeys are a store's REST API keys, in clear only in memory.
type WooKeys struct {
	ConsumerKey, ConsumerSecret string
}

// WooStoreInfo is what the connection shows of the store.
type WooStoreInfo struct {
	Name, Currency string
	// Timezone is domain.WooZone's: an IANA name or a fixed offset.
	Timezone string
}

// WooState is a started WooCommerce connection.
type WooState struct {
	State, CategoryID, UserID, StoreURL string
	CreatedAt, ExpiresAt                time.Time
	Used, Connected                     bool
}

// WooConnection is a category's WooCommerce store.
type WooConnection struct {
	CategoryID, StoreURL, Status string
	Name, Currency, Timezone     string
	KeyID                        int64
	KeyPermissions               string
	// ConsumerKey and ConsumerSecret are sealed.
	ConsumerKey, ConsumerSecret []byte
	ConnectedBy                 string
	ConnectedAt                 time.Time
	Progress                    Progress
	LastSyncedAt                *time.Time
	// WebhookSecret is the sealed secret Uplift's webhooks on the store
	// sign with; nil until the first sync registers them.
	WebhookSecret []byte
	// SyncFull and Watermark are the claimed sync's: everything again, or
	// what changed since the watermark. Attempts counts failures in a row.
	SyncFull  bool
	Watermark *time.Time
	Attempts  int
}

// WooRepository stores WooCommerce connections and their states. Every
// method is one transaction.
type WooRepository interface {
	CreateWooState(ctx context.Context, st WooState) error
	// UseWooState marks a live, unused state used and returns it, or
	// domain.ErrNotFound: one UPDATE, so two callbacks cannot both win.
	UseWooState(ctx context.Context, state string, now time.Time) (WooState, error)
	// WooState returns a state however it ended, or domain.ErrNotFound.
	WooState(ctx context.Context, state string) (WooState, error)
	// ConnectWooCommerce stores the connection (replacing the category's
	// earlier one), marks its state connected, makes the store's currency
	// and time zone the category's and asks for a full sync.
	ConnectWooCommerce(ctx context.Context, c WooConnection, state string) error
	// WooConnection returns the category's connection, nil if none.
	WooConnection(ctx context.Context, categoryID string) (*WooConnection, error)
	// DisconnectWooCommerce forgets the keys and stops syncing.
	DisconnectWooCommerce(ctx context.Context, categoryID string, now time.Time) error
	// RequestWooSync asks for a sync (full: everything again).
	RequestWooSync(ctx context.Context, categoryID string, full bool, now time.Time) error
	// ClaimWooSync takes one due sync for lease (nil when none is due).
	ClaimWooSync(ctx context.Context, now time.Time, lease time.Duration) (*WooConnection, error)
	// SaveWooOrders writes orders as SaveOrders does, refused with
	// domain.ErrConnectionChanged unless the connection made at
	// connectedAt still stands.
	SaveWooOrders(ctx context.Context, categoryID string, connectedAt time.Time, orders []domain.Order) error
	// SaveWooStoreCounts keeps how many products and customers the store
	// has (its size, not the sync's progress), refused with
	// domain.ErrConnectionChanged as SaveWooOrders is.
	SaveWooStoreCounts(ctx context.Context, categoryID string, connectedAt time.Time, products, customers int64) error
	// WooStoreCounts is what is stored of the category's WooCommerce store:
	// its orders as Analytics counts them and the last counts of its
	// products and customers.
	WooStoreCounts(ctx context.Context, categoryID string) (StoreCounts, error)
	// DeleteWooOrders removes orders (their ids as stored) and their sales,
	// refused with domain.ErrConnectionChanged as SaveWooOrders is.
	DeleteWooOrders(ctx context.Context, categoryID string, connectedAt time.Time, orderIDs []string) error
	// SaveWooProgress records a running sync's progress.
	SaveWooProgress(ctx context.Context, categoryID string, connectedAt time.Time, p Progress) error
	// FinishWooSync ends a sync (phase DONE): the watermark, and the next
	// sync due at next.
	FinishWooSync(ctx context.Context, categoryID string, connectedAt time.Time, watermark *time.Time, at, next time.Time) error
	// SetWooWebhookSecret keeps the (sealed) webhook secret.
	SetWooWebhookSecret(ctx context.Context, categoryID string, connectedAt time.Time, sealed []byte) error
	// NewWooDelivery records a delivery id once; false when it was seen.
	NewWooDelivery(ctx context.Context, categoryID, deliveryID string, at time.Time) (bool, error)
	// DeleteOrder removes an order and its sales.
	DeleteOrder(ctx context.Context, categoryID, orderID string) error
	// FailWooSync records a failed sync, due again at retry.
	FailWooSync(ctx context.Context, categoryID string, connectedAt time.Time, message string, retry time.Time) error
}

// WooOptions are the WooCommerce settings of the use cases.
type WooOptions struct {
	// WebhookURL is where the store delivers webhooks (the gateway); the
	// category id is appended as the last path segment.
	WebhookURL string
	// CallbackURL is where WooCommerce posts the keys (the gateway).
	CallbackURL string
	// ReturnURL is where WooCommerce sends the browser back (the gateway).
	ReturnURL string
	// AllowHTTP accepts http:// store addresses: local mode only, for the
	// simulator (WooCommerce sends keys over https only, §1).
	AllowHTTP bool
}

// woo is the WooCommerce part of App, absent until WithWooCommerce.
type woo struct {
	client WooCommerce
	repo   WooRepository
	opts   WooOptions
}

// WithWooCommerce returns the use cases able to connect WooCommerce stores.
func (a *App) WithWooCommerce(client WooCommerce, repo WooRepository, opts WooOptions) *App {
	c := *a
	c.woo = &woo{client: client, repo: repo, opts: opts}
	return &c
}

// errNoWoo is what the WooCommerce calls give on a replica not set up for
// them; the service always is.
var errNoWoo = errors.New("WooCommerce is not configured")

// StartWooCommerceConnect validates the store's address and issues a
// one-use state bound to the caller, the category and the store; it returns
// the store's authorization page.
func (a *App) StartWooCommerceConnect(ctx context.Context, caller domain.Caller, categoryID, rawStore string) (string, error) {
	if a.woo == nil {
		return "", errNoWoo
	}
	if err := a.authorize(ctx, categoryID); err != nil {
		return "", err
	}
	store, err := domain.NormalizeWooStore(rawStore, a.woo.opts.AllowHTTP)
	if err != nil {
		return "", &domain.ValidationError{Field: "storeUrl", Message: err.Error()}
	}
	state, err := newState()
	if err != nil {
		return "", err
	}
	now := a.now()
	if err := a.woo.repo.CreateWooState(ctx, WooState{State: state, CategoryID: categoryID, UserID: caller.UID,
		StoreURL: store, CreatedAt: now, ExpiresAt: now.Add(a.opts.StateTTL)}); err != nil {
		return "", err
	}
	return a.woo.client.AuthorizeURL(store, state, a.woo.opts.ReturnURL, a.woo.opts.CallbackURL), nil
}

// Errors of the key callback; each makes the gateway answer other than 200,
// so WooCommerce deletes the key (§1 "The callback must return exactly 200").
var (
	// ErrWooBadKeys: the body is not keys of the permission asked for.
	ErrWooBadKeys = &domain.ValidationError{Field: "consumer_key", Message: "The callback does not carry read_write API keys."}
	// ErrWooKeysRefused: the store did not accept the keys.
	ErrWooKeysRefused = errors.New("the store did not accept the API keys")
)

// ReceiveWooCommerceKeys checks WooCommerce's key callback and stores the
// connection. The callback carries no signature (§1: "The callback is
// unauthenticated"), so what proves it is the state, unguessable and
// usable once, and the keys themselves: they must open the store the state
// was started for, which is also where the store's name, currency and time
// zone are read.
func (a *App) ReceiveWooCommerceKeys(ctx context.Context, state string, keyID int64, keys WooKeys, permissions string) error {
	if a.woo == nil {
		return errNoWoo
	}
	if len(state) != 32 {
		return domain.ErrNotFound
	}
	st, err := a.woo.repo.UseWooState(ctx, state, a.now())
	if err != nil {
		if errors.Is(err, domain.ErrNotFound) {
			a.log.WarnContext(ctx, "woocommerce key callback refused: unknown, used or expired state")
		}
		return err
	}
	if permissions != WooScope || !wooKey(keys.ConsumerKey, "ck_") || !wooKey(keys.ConsumerSecret, "cs_") {
		a.log.WarnContext(ctx, "woocommerce key callback refused: not read_write keys", "store", st.StoreURL, "permissions", permissions)
		return ErrWooBadKeys
	}
	info, err := a.woo.client.StoreInfo(ctx, st.StoreURL, keys)
	if err != nil {
		a.log.WarnContext(ctx, "woocommerce key callback refused: the store did not accept the keys", "store", st.StoreURL, "err", err)
		return ErrWooKeysRefused
	}
	ck, err := a.sealer.Seal(keys.ConsumerKey)
	if err != nil {
		return err
	}
	cs, err := a.sealer.Seal(keys.ConsumerSecret)
	if err != nil {
		return err
	}
	if err := a.woo.repo.ConnectWooCommerce(ctx, WooConnection{CategoryID: st.CategoryID, StoreURL: st.StoreURL,
		Status: StatusConnected, Name: info.Name, Currency: info.Currency, Timezone: info.Timezone,
		KeyID: keyID, KeyPermissions: permissions, ConsumerKey: ck, ConsumerSecret: cs,
		ConnectedBy: st.UserID, ConnectedAt: a.now()}, st.State); err != nil {
		return err
	}
	a.log.InfoContext(ctx, "woocommerce connected", "category", st.CategoryID, "store", st.StoreURL)
	return nil
}

// wooKey checks the shape of a key WooCommerce minted: its prefix and
// 40 hex digits after it (wc_rand_hash), within a generous bound.
func wooKey(k, prefix string) bool {
	if !strings.HasPrefix(k, prefix) || len(k) < len(prefix)+20 || len(k) > 128 {
		return false
	}
	for _, c := range k[len(prefix):] {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_') {
			return false
		}
	}
	return true
}

// ReturnWooCommerce is where the browser goes when WooCommerce sends it
// back: Connections, saying whether the keys arrived. It changes nothing.
func (a *App) ReturnWooCommerce(ctx context.Context, state, success string) (string, error) {
	if a.woo == nil {
		return "", errNoWoo
	}
	if success == "0" {
		return a.wooResult("You declined the connection in WooCommerce. Nothing was changed."), nil
	}
	st, err := a.woo.repo.WooState(ctx, state)
	if errors.Is(err, domain.ErrNotFound) || (err == nil && !st.Connected && !st.Used && a.now().After(st.ExpiresAt)) {
		return a.wooResult("This connection link has expired. Please start again from Connections."), nil
	}
	if err != nil {
		return "", err
	}
	if !st.Connected {
		return a.wooResult("WooCommerce did not give Uplift working API keys. Please start again from Connections."), nil
	}
	return a.opts.WebURL + "/connections?woocommerce=connected", nil
}

func (a *App) wooResult(message string) string {
	return a.opts.WebURL + "/connections?" + url.Values{"woocommerce": {"error"}, "message": {message}}.Encode()
}

// WooCommerceConnection returns the category's WooCommerce store, nil if
// none was ever connected.
func (a *App) WooCommerceConnection(ctx context.Context, categoryID string) (*WooConnection, error) {
	if a.woo == nil {
		return nil, nil
	}
	if err := a.authorize(ctx, categoryID); err != nil {
		return nil, err
	}
	return a.woo.repo.WooConnection(ctx, categoryID)
}

// connectedWoo is the category's connected store, or domain.ErrNotConnected.
func (a *App) connectedWoo(ctx context.Context, categoryID string) (*WooConnection, error) {
	if a.woo == nil {
		return nil, errNoWoo
	}
	c, err := a.WooCommerceConnection(ctx, categoryID)
	if err != nil {
		return nil, err
	}
	if c == nil || c.Status != StatusConnected {
		return nil, domain.ErrNotConnected
	}
	return c, nil
}

// DisconnectWooCommerce forgets the keys; the numbers stay.
func (a *App) DisconnectWooCommerce(ctx context.Context, categoryID string) error {
	if _, err := a.connectedWoo(ctx, categoryID); err != nil {
		return err
	}
	return a.woo.repo.DisconnectWooCommerce(ctx, categoryID, a.now())
}

// SyncWooCommerce asks for a sync now: everything again when the first one
// never finished.
func (a *App) SyncWooCommerce(ctx context.Context, categoryID string) error {
	c, err := a.connectedWoo(ctx, categoryID)
	if err != nil {
		return err
	}
	return a.woo.repo.RequestWooSync(ctx, categoryID, c.LastSyncedAt == nil, a.now())
}
