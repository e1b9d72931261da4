// Package domain holds what Uplift knows of a store's business and the rules
// that turn it into numbers exactly as Shopify's own reports count them
// (../shared/research/shopify.md, section 3): orders as a trail of sales,
// each dated when it happened, money in minor units, days in the store's
// time. It does no I/O.
package domain

import "time"

// Money is an amount in the minor units of a currency (cents for USD, yen
// for JPY). Sums are exact; nothing here ever uses floats.
type Money int64

// Source says where an order came from. When the same Shopify order arrives
// from both, the connected shop's copy wins over an imported file's.
type Source string

// Sources of orders.
const (
	SourceShopify     Source = "shopify"
	SourceImport      Source = "import"
	SourceWooCommerce Source = "woocommerce"
)

// Action is why a sale happened, after Shopify's OrderActionType.
type Action string

// Actions. Edit covers Shopify's ORDER_EDIT and UPDATE; Return covers both
// REFUND and RETURN agreements, whose sales are negative.
const (
	ActionOrder  Action = "ORDER"
	ActionEdit   Action = "EDIT"
	ActionReturn Action = "RETURN"
)

// Line is what a sale sold, after Shopify's SaleLineType.
type Line string

// Lines. GiftCard sales are left out of gross sales; Tip is reported apart.
const (
	LineProduct       Line = "PRODUCT"
	LineShipping      Line = "SHIPPING"
	LineGiftCard      Line = "GIFT_CARD"
	LineDuty          Line = "DUTY"
	LineAdditionalFee Line = "ADDITIONAL_FEE"
	LineFee           Line = "FEE"
	LineTip           Line = "TIP"
	LineUnknown       Line = "UNKNOWN"
)

// Sale is one line of Shopify's sales audit trail: a product, shipping or fee
// sold, edited or returned at one moment. Amounts are signed: returns are
// negative. Total is after discounts and with tax (Shopify's totalAmount);
// Discount is the discount before taxes; Tax is the tax in Total.
type Sale struct {
	// HappenedAt is when the agreement this sale belongs to happened.
	HappenedAt time.Time
	Action     Action
	Line       Line
	// ProductKey identifies the product across orders (a Shopify product id,
	// else the SKU, else the title); ProductTitle is for people. Both are at
	// most MaxTitleRunes (ClipTitle).
	ProductKey   string
	ProductTitle string
	// Quantity is signed like the amounts.
	Quantity int64
	Total    Money
	Discount Money
	Tax      Money
}

// Order is one order with its sales. An order's sales are its whole truth
// for the numbers: storing an order replaces all of its earlier sales.
type Order struct {
	// ID is unique per store: "shopify:<numeric id>" whenever the Shopify id
	// is known (from the API or an export's Id column), else "import:<name>".
	ID     string
	Source Source
	// Name is what the shop calls it ("#1051").
	Name string
	// CreatedAt is when it was placed, in the offset of the store's day:
	// the shop's time zone for Shopify, the file's own offset for an export.
	CreatedAt   time.Time
	UpdatedAt   time.Time
	CancelledAt *time.Time
	// Test orders are stored but never counted.
	Test bool
	// GiftCardOnly orders are left out of the order count, as Shopify's
	// "Total orders" card does.
	GiftCardOnly bool
	// NotCounted orders are left out of "orders" by their platform's own
	// rules (WooCommerce Analytics: an excluded status, or not paid yet;
	// see WooSales); their Sales say what, if anything, their money counts.
	NotCounted bool
	Currency   string
	// CustomerKey identifies the customer (Shopify id or hashed email); empty
	// when unknown. Personal data itself is never stored.
	CustomerKey string
	Sales       []Sale
}
