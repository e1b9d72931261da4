package app

import (
	"context"
	"encoding/json"
	"time"

	"uplift.dev/stores/internal/domain"
)

// Repository stores orders, numbers, connections and webhook deliveries.
// Every method is one transaction.
type Repository interface {
	// SaveOrders upserts orders with their sales (an order's sales are
	// replaced whole) and recomputes the daily totals of every day touched.
	// An import never replaces an order a connected shop delivered. It
	// returns how many orders were written.
	// Like every write of what a shop's API said, it is refused with
	// domain.ErrConnectionChanged, writing nothing, unless link still
	// stands when it commits.
	SaveOrders(ctx context.Context, link ShopLink, orders []domain.Order) (int, error)
	// SaveImport stores an order export all or nothing, one import of a
	// category at a time across replicas: domain.ErrImportRunning, at once,
	// while another runs. In its transaction, read reads the file and gives
	// its orders to save a batch at a time (written as SaveOrders writes
	// them), then returns the import, recorded with the store's currency
	// and time zone. An error from read stores nothing.
	SaveImport(ctx context.Context, categoryID string, read func(save func([]domain.Order) error) (Import, error)) error
	// DeleteOrder removes an order and its sales (Shopify's orders/delete).
	DeleteOrder(ctx context.Context, categoryID, orderID string) error
	// Store returns the currency and time zone of the category's numbers;
	// a zero Store when it has none.
	Store(ctx context.Context, categoryID string) (Store, error)
	// RangeNumbers returns what a range's metrics are made of, read together.
	RangeNumbers(ctx context.Context, categoryID string, from, to domain.Date) (RangeNumbers, error)
	// TopProducts ranks products by net sales in [from, to].
	TopProducts(ctx context.Context, categoryID string, from, to domain.Date, limit int) ([]ProductSales, error)
	// LastImport returns the newest import, nil if none.
	LastImport(ctx context.Context, categoryID string) (*Import, error)
	// ShopCounts counts what is stored of the category's Shopify shop: its
	// counted orders, its products and its customers.
	ShopCounts(ctx context.Context, categoryID string) (StoreCounts, error)
	// ProductDays returns each product's sales per store-local day in
	// [from, to], as domain.ProductDays counts them.
	ProductDays(ctx context.Context, categoryID string, from, to domain.Date) ([]domain.ProductDay, error)

	// DueSignals lists, oldest first, up to limit categories whose orders
	// changed since their store signals were last published (every write
	// of orders marks its category in its own transaction); with a
	// categoryID, only that category.
	DueSignals(ctx context.Context, categoryID string, limit int) ([]SignalsDue, error)
	// PublishSignals writes StoreSignalsUpdated for s, computed at, to the
	// outbox and clears due in the same transaction, unless the category
	// was marked again since due was read.
	PublishSignals(ctx context.Context, s domain.Signals, at time.Time, due SignalsDue) error

	// ReportStores lists the stores with data (an import or a Shopify
	// connection) with the newest daily report day sent.
	ReportStores(ctx context.Context) ([]ReportStore, error)
	// PublishDailyReport records that the category's report of r.Date was
	// sent and writes DailyReportReady to the outbox, in one transaction. It
	// reports false, writing nothing, when that day was already recorded
	// (by another replica or an earlier run).
	PublishDailyReport(ctx context.Context, categoryID string, r DailyReport, at time.Time) (bool, error)

	// CreateState stores a new OAuth state.
	CreateState(ctx context.Context, st OAuthState) error
	// State returns an unused, unexpired state, else domain.ErrNotFound.
	State(ctx context.Context, state string, now time.Time) (OAuthState, error)
	// UseState marks an unused, unexpired state used and returns it; a
	// second use, an expired or unknown state is domain.ErrNotFound.
	UseState(ctx context.Context, state string, now time.Time) (OAuthState, error)

	// Connection returns the category's Shopify connection, nil if none.
	Connection(ctx context.Context, categoryID string) (*Connection, error)
	// ConnectionByShop returns the connected category of a shop, nil if none.
	ConnectionByShop(ctx context.Context, shop string) (*Connection, error)
	// CategoriesOfShop returns every category that ever connected the shop,
	// connected or not: their stored data stays under privacy requests.
	CategoriesOfShop(ctx context.Context, shop string) ([]string, error)
	// Connect stores a new connection (or reconnects) and requests its first
	// full sync. A shop that feeds another category moves: that category's
	// connection becomes MOVED, without its tokens and the shop's data, in
	// the same transaction, which also records c.MoveEvents; its id is
	// returned ("" when nothing moved).
	Connect(ctx context.Context, c Connection) (movedFrom string, err error)
	// SaveTokens replaces the sealed tokens.
	SaveTokens(ctx context.Context, categoryID string, t SealedTokens) error
	// Disconnect forgets the tokens and stops syncing; status is
	// DISCONNECTED (by the owner) or UNINSTALLED (by Shopify).
	Disconnect(ctx context.Context, categoryID, status string, at time.Time) error
	// RequestSync asks for a sync (full: the whole history again).
	RequestSync(ctx context.Context, categoryID string, full bool, at time.Time) error
	// RequestSweeps asks for a sweep of every connected shop last synced
	// before olderThan and not already asked; it returns how many.
	RequestSweeps(ctx context.Context, olderThan, at time.Time) (int, error)
	// ClaimSync takes the oldest requested sync whose lease is free, leasing
	// it until leaseUntil; nil when there is none.
	ClaimSync(ctx context.Context, now, leaseUntil time.Time) (*Connection, error)
	// SaveProgress records a running sync's progress. It and the writes
	// below, like SaveOrders, hold to link.
	SaveProgress(ctx context.Context, link ShopLink, p Progress) error
	// FinishSync ends a claimed sync: on success it records the watermark and
	// clears the request unless a new one came after claimedAt.
	FinishSync(ctx context.Context, link ShopLink, claimedAt time.Time, r SyncResult) error
	// SaveCatalog upserts products and customers the sync saw.
	SaveCatalog(ctx context.Context, link ShopLink, products []CatalogProduct, customers []CatalogCustomer) error
	// SaveSessions stores Shopify's sessions per day.
	SaveSessions(ctx context.Context, link ShopLink, days []DaySessions) error
	// SaveShopifyDaily stores Shopify's own figures per day.
	SaveShopifyDaily(ctx context.Context, link ShopLink, days []ShopifyDay) error

	// RecordWebhook stores a delivery unless its event id was seen for its
	// shop; it reports whether it was new.
	RecordWebhook(ctx context.Context, ev WebhookEvent) (bool, error)
	// PendingWebhooks returns unprocessed deliveries, oldest first.
	PendingWebhooks(ctx context.Context, limit int) ([]WebhookEvent, error)
	// FinishWebhook marks a shop's delivery processed, or records why it failed.
	FinishWebhook(ctx context.Context, shop, eventID, failure string, at time.Time) error

	// DeleteShopData deletes what a shop sent (orders, sessions, catalogue)
	// from every category it fed, and the connection itself (shop/redact).
	DeleteShopData(ctx context.Context, shop string) error
	// RedactCustomers forgets which customer placed the given orders.
	RedactCustomers(ctx context.Context, categoryID string, customerKeys, orderIDs []string) error
}

// Store is the currency and time zone of a category's numbers.
type Store struct {
	Currency string
	// Timezone is an IANA name or a fixed offset like "-05:00".
	Timezone string
}

// RangeNumbers are the stored numbers of a range of days.
type RangeNumbers struct {
	// Store is zero when the category has no numbers.
	Store Store
	// Connected: a Shopify shop is (or was) connected; Imported: an order
	// export was imported; WooCommerce: a WooCommerce store is (or was)
	// connected, so its numbers follow WooCommerce's rules.
	Connected, Imported, WooCommerce bool
	// FirstDay is the store-local day of the first order counted (the zero
	// Date when there is none): a comparison with days before it compares
	// with days the store has no data for.
	FirstDay domain.Date
	// Days are the stored days of the range with sessions where known; days
	// with nothing stored are absent.
	Days []domain.DayTotals
	// Shopify is Shopify's own total sales per day, where it gave one.
	Shopify map[domain.Date]domain.Money
}

// Import is one imported order export.
type Import struct {
	ID, CategoryID, FileSHA256 string
	Orders                     int
	FirstDay, LastDay          domain.Date
	Currency, Timezone         string
	ImportedBy                 string
	ImportedAt                 time.Time
}

// ProductSales is one product's sales in a range.
type ProductSales struct {
	Title    string
	Quantity int64
	Gross    domain.Money
	NetSales domain.Money
}

// SignalsDue is a category whose store signals are to be published; Version
// tells a later change apart from the one being published.
type SignalsDue struct {
	CategoryID string
	Version    int64
}

// ReportStore is a store the daily report is scheduled for.
type ReportStore struct {
	CategoryID string
	// Timezone is an IANA name or a fixed offset like "-05:00".
	Timezone string
	// LastSent is the newest day whose report was published; zero if none.
	LastSent domain.Date
}

// OAuthState is one started connection.
type OAuthState struct {
	State, CategoryID, UserID, Shop string
	CreatedAt, ExpiresAt            time.Time
}

// SealedTokens are a shop's tokens, encrypted.
type SealedTokens struct {
	Access           []byte
	AccessExpiresAt  time.Time
	Refresh          []byte
	RefreshExpiresAt time.Time
	Scopes           []string
}

// Connection is a category's Shopify shop.
type Connection struct {
	CategoryID, Shop, Status string
	Name, Currency, Timezone string
	Tokens                   SealedTokens
	ConnectedBy              string
	ConnectedAt              time.Time
	SyncRequestedAt          *time.Time
	SyncFull                 bool
	Progress                 Progress
	LastSyncedAt             *time.Time
	Watermark                *time.Time
	SessionsAvailable        bool
	// ClaimedAt is when this worker claimed the sync (set by ClaimSync).
	ClaimedAt time.Time
}

// ShopLink is the connection a sync or a webhook reads a shop for: the
// category, the shop, and when it was connected, which tells one
// connection from a later one of the same category. A shop proven by
// OAuth consent moves to the account that proved it while a sync for the
// account it leaves may still be reading it; that sync's writes must then
// land nowhere, so each holds to the link it started with.
type ShopLink struct {
	CategoryID, Shop string
	ConnectedAt      time.Time
}

// Link is the connection c is, as a sync or a webhook started on it.
func (c Connection) Link() ShopLink {
	return ShopLink{CategoryID: c.CategoryID, Shop: c.Shop, ConnectedAt: c.ConnectedAt}
}

// MoveEvents are what connecting c implies when the shop was connected to
// the account from ("" when it was not): the account it leaves is told.
func (c Connection) MoveEvents(from string) []domain.ShopMoved {
	if from == "" {
		return nil
	}
	return []domain.ShopMoved{{FromCategoryID: from, Shop: c.Shop, At: c.ConnectedAt}}
}

// Sync phases, in the order a first import goes through them.
const (
	PhaseIdle      = "IDLE"
	PhaseQueued    = "QUEUED"
	PhaseShop      = "SHOP"
	PhaseOrders    = "ORDERS"
	PhaseProducts  = "PRODUCTS"
	PhaseCustomers = "CUSTOMERS"
	PhaseSessions  = "SESSIONS"
	PhaseDone      = "DONE"
	PhaseFailed    = "FAILED"
)

// Connection statuses.
const (
	StatusConnected    = "CONNECTED"
	StatusUninstalled  = "UNINSTALLED"
	StatusDisconnected = "DISCONNECTED"
	// StatusMoved: the shop's owner connected it to another account since.
	StatusMoved = "MOVED"
	StatusNone  = "NOT_CONNECTED"
)

// Progress is how far a sync is.
type Progress struct {
	Phase               string
	Orders, OrdersTotal int64
	Products, Customers int64
	Percent             int
	Error               string
}

// StoreCounts are how many orders, products and customers are stored for
// a shop: the store's size, which a running sync's Progress is not (a sync
// of what changed counts only the few orders it brought in).
type StoreCounts struct {
	Orders, Products, Customers int64
}

// SyncResult ends a sync.
type SyncResult struct {
	OK    bool
	Error string
	// Retry asks for another attempt later, with back-off, after a failure.
	Retry             bool
	Watermark         time.Time
	Name              string
	Currency          string
	Timezone          string
	SessionsAvailable bool
	At                time.Time
}

// CatalogProduct and CatalogCustomer are what the sync keeps of the catalogue.
type CatalogProduct struct{ ID, Title string }

// CatalogCustomer is a customer id (no personal data) and their order count.
type CatalogCustomer struct {
	ID     string
	Orders int64
}

// DaySessions are one day's sessions from Shopify's analytics.
type DaySessions struct {
	Day                 domain.Date
	Sessions, Completed int64
}

// ShopifyDay is Shopify's own figure for a day.
type ShopifyDay struct {
	Day                  domain.Date
	Orders               int64
	TotalSales, NetSales domain.Money
}

// WebhookEvent is one webhook delivery. Shop is the shop it is for (held
// to the body's own shop where the body names one); an event id is unique
// per shop only.
type WebhookEvent struct {
	EventID, Shop, Topic string
	Payload              json.RawMessage
	ReceivedAt           time.Time
	Attempts             int
}
