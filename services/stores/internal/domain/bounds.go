package domain

// The longest text a store's data may hold, in bytes, at every edge it
// enters by (an imported file, Shopify's API, a webhook). A product's
// title travels on into StoreSignalsUpdated and DailyReportReady, which
// NATS refuses past 1 MiB, and the outbox publishes in order: one
// unbounded title would hold back every store's events.
const (
	// MaxTitleBytes bounds a product or line item title. Shopify allows
	// 255 characters for a product's title and as many for a variant's,
	// and a line item's name is both ("Mug - Blue"): 2 KiB holds that in
	// any script.
	MaxTitleBytes = 2048
	// MaxProductKeyBytes bounds what identifies a product across orders
	// (a SKU, else the title, so it holds a title too).
	MaxProductKeyBytes = MaxTitleBytes
	// MaxOrderNameBytes bounds an order's name ("#1001", with the shop's
	// own prefix and suffix).
	MaxOrderNameBytes = 255
	// MaxEmailBytes bounds a customer's email (RFC 5321's 64-byte local
	// part, "@" and a 255-byte domain); only its hash is kept.
	MaxEmailBytes = 320
)
