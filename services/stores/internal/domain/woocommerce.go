package domain

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// This file turns a WooCommerce order into the same trail of sales a Shopify
// order becomes, so that the daily table, Analytics, the daily report and
// the store signals count a WooCommerce store without knowing it is one.
// The rules are WooCommerce Analytics' own (../shared/research/woocommerce.md,
// section 4, "WooCommerce Analytics metric definitions"; cited below as §4),
// not Shopify's: an owner comparing Uplift with their WooCommerce dashboard
// must see the same numbers.
//
// How §4's wc_order_stats rows map onto Amounts, so Amounts.Net and
// Amounts.TotalSales give WooCommerce's net and total sales unchanged:
//   - an order row (dated on date_paid): Gross = total + coupons − taxes −
//     shipping (fees included), Discounts = coupons, Shipping, Taxes. So
//     Net = total − taxes − shipping = net_total;
//   - a refund row (dated on the refund's own date): Returns = the refund's
//     amount less its taxes and shipping, Shipping and Taxes negative. So
//     the refund lowers net sales by its net_total and gross sales not at
//     all (§4: "Refund rows cancel" in gross_sales).
//
// Fees never go to AdditionalFees: WooCommerce counts them inside net sales
// (net_total = total − tax − shipping), so they are gross sales here.

// WooStatus is an order's WooCommerce status ("processing", "completed", a
// plugin's own "shipped", …).
type WooStatus string

// WooTrash is the status of an order in the trash: the REST API's lists
// leave it out unless asked for (§2 "any (default, excludes trash)"), and
// Uplift keeps no order from the trash.
const WooTrash WooStatus = "trash"

// wooExcludedStatuses are the statuses WooCommerce Analytics leaves out of
// every number (§4 "Statuses": woocommerce_excluded_report_order_statuses,
// default pending, failed, cancelled; auto-draft and trash always). The
// block checkout's checkout-draft is an unpaid draft that webhooks ignore
// (§3 "Drafts are ignored"); how Analytics treats it is unverified (§4), and
// a draft is not a sale, so it is left out too. A store that changed the
// excluded list in its settings is not followed: the REST API does not
// expose that option.
var wooExcludedStatuses = map[WooStatus]bool{
	"pending": true, "failed": true, "cancelled": true,
	"auto-draft": true, "trash": true, "checkout-draft": true,
}

// WooCounts reports whether WooCommerce Analytics counts orders of this
// status (§4 "Statuses"). "refunded" always counts (its refunds are negative
// rows of their own); the "actionable" statuses (processing, on-hold) count
// like any other: they only feed a task list, not the totals. Plugin
// statuses count, as WooCommerce only leaves out the listed ones.
func WooCounts(s WooStatus) bool {
	return !wooExcludedStatuses[WooStatus(strings.ToLower(strings.TrimSpace(string(s))))]
}

// WooOrder is one order as WooCommerce's REST API v3 gives it (§2
// "Orders"), already read into minor units and instants. Only what the
// numbers need is here.
type WooOrder struct {
	ID       int64
	Number   string
	Status   WooStatus
	Currency string
	// CustomerID is 0 for a guest.
	CustomerID int64
	// The dates are the API's _gmt twins read as UTC (§2: the plain ones
	// are site time with no offset). PaidAt is nil until the order is paid
	// (§2 "date_paid is set once …").
	CreatedAt  time.Time
	PaidAt     *time.Time
	ModifiedAt time.Time
	// Total is what the customer paid: lines, fees, shipping and taxes,
	// after coupons. TotalTax is every tax in it (cart and shipping);
	// ShippingTotal excludes its tax; DiscountTotal is the coupons' amount
	// before tax.
	Total, TotalTax, ShippingTotal, ShippingTax, DiscountTotal Money
	Lines                                                      []WooLine
	Fees                                                       []WooFee
	Refunds                                                    []WooRefund
}

// WooLine is a line item, or, in a refund, a refunded line (negative
// quantity and amounts, §2 "Refunds"). Subtotal is before coupons and
// Total after, both without tax; Tax is Total's tax.
type WooLine struct {
	ProductID, VariationID int64
	SKU, Name              string
	Quantity               int64
	Subtotal, Total, Tax   Money
}

// WooFee is a fee line (possibly negative, as some plugins add discounts as
// fees), without its tax.
type WooFee struct {
	Name       string
	Total, Tax Money
}

// WooRefund is one refund of an order (§2 "Refunds": GET
// /orders/{id}/refunds). Amount is positive and includes the refunded taxes
// and shipping; Lines, Shipping and ShippingTax are negative, and a refund
// of an amount only (a goodwill gesture) has neither lines nor shipping.
type WooRefund struct {
	ID        int64
	CreatedAt time.Time
	Amount    Money
	Lines     []WooLine
	// Fees are refunded fee lines, negative.
	Fees                  []WooFee
	Shipping, ShippingTax Money
}

// WooOrderID is the stored order id of a WooCommerce order: one store's
// order ids repeat across stores, but a category has one store at a time.
func WooOrderID(id int64) string { return "woocommerce:" + strconv.FormatInt(id, 10) }

// WooProductKey identifies a product across orders as WooCommerce Analytics'
// products report does: by the parent product (a variation is its product),
// else by SKU, else by name, for a line whose product was deleted.
func WooProductKey(l WooLine) string {
	switch {
	case l.ProductID > 0:
		return "woocommerce:" + strconv.FormatInt(l.ProductID, 10)
	case strings.TrimSpace(l.SKU) != "":
		return ClipTitle(strings.TrimSpace(l.SKU))
	default:
		return ClipTitle(l.Name)
	}
}

// WooSales turns a WooCommerce order into an Order whose sales count as
// WooCommerce Analytics counts (the mapping at the top of this file), in
// the store's zone loc:
//   - an order of an excluded status (WooCounts) counts for nothing, and
//     nor do its refunds: their stats rows carry the parent's status (§4
//     "Refund rows: … status = the parent's status"). So an order cancelled
//     after the day it was paid leaves that day: WooCommerce's numbers for
//     a closed day change, where Shopify counts a cancellation as a return
//     on the cancel day;
//   - an order counts on the day it was paid (§4 "Date basis": the
//     effective default date_type is date_paid), so an unpaid order
//     (on-hold by bank transfer, say) is not counted until it is paid;
//   - each refund counts on the day it was made, as negatives (§4 "Refunds
//     are always dated on the refund date"), whatever day its order counted.
//
// The order's own totals are the truth (§4 sums total_sales, tax_total and
// shipping_total of the order, not of its lines): lines split the order by
// product, and what they do not add up to (rounding, a plugin's adjustment)
// is one more sale without a product, so each day equals WooCommerce's.
func WooSales(o WooOrder, loc *time.Location) Order {
	if loc == nil {
		loc = time.UTC
	}
	out := Order{
		ID:        WooOrderID(o.ID),
		Source:    SourceWooCommerce,
		Name:      "#" + firstNonBlank(o.Number, strconv.FormatInt(o.ID, 10)),
		CreatedAt: o.CreatedAt.In(loc),
		UpdatedAt: o.ModifiedAt,
		Currency:  strings.ToUpper(o.Currency),
	}
	if o.CustomerID > 0 {
		out.CustomerKey = "woocommerce:" + strconv.FormatInt(o.CustomerID, 10)
	}
	if !WooCounts(o.Status) {
		out.NotCounted = true
		return out
	}
	if o.PaidAt == nil {
		// §4: with date_paid as the basis an unpaid order has no row in
		// range; its refunds (rare, but possible) still count on their days.
		out.NotCounted = true
	} else {
		// The order is counted on its paid day: CreatedAt is the instant the
		// order's day is read from (the stored local day), so for
		// WooCommerce it is the paid time, the date Analytics reports by.
		out.CreatedAt = o.PaidAt.In(loc)
		out.Sales = append(out.Sales, wooOrderSales(o, out.CreatedAt)...)
	}
	for _, r := range o.Refunds {
		out.Sales = append(out.Sales, wooRefundSales(r, r.CreatedAt.In(loc))...)
	}
	return out
}

// wooOrderSales are an order row's sales (§4 "Order rows"), at paid.
func wooOrderSales(o WooOrder, paid time.Time) []Sale {
	var out []Sale
	var netLeft, taxLeft, discountLeft = o.Total - o.TotalTax - o.ShippingTotal, o.TotalTax - o.ShippingTax, o.DiscountTotal
	for _, l := range o.Lines {
		out = append(out, Sale{HappenedAt: paid, Action: ActionOrder, Line: LineProduct,
			ProductKey: WooProductKey(l), ProductTitle: ClipTitle(l.Name), Quantity: l.Quantity,
			Total: l.Total + l.Tax, Tax: l.Tax, Discount: l.Subtotal - l.Total})
		netLeft -= l.Total
		taxLeft -= l.Tax
		discountLeft -= l.Subtotal - l.Total
	}
	for _, f := range o.Fees {
		// A fee is gross sales without a product (§4 gross_sales includes
		// fees); an empty key keeps it out of the top products and signals.
		out = append(out, Sale{HappenedAt: paid, Action: ActionOrder, Line: LineProduct,
			ProductTitle: ClipTitle(f.Name), Total: f.Total + f.Tax, Tax: f.Tax})
		netLeft -= f.Total
		taxLeft -= f.Tax
	}
	if o.ShippingTotal != 0 || o.ShippingTax != 0 {
		out = append(out, Sale{HappenedAt: paid, Action: ActionOrder, Line: LineShipping,
			Total: o.ShippingTotal + o.ShippingTax, Tax: o.ShippingTax})
	}
	if netLeft != 0 || taxLeft != 0 || discountLeft != 0 {
		// Gross = net + discount, so the coupons and gross sales also come
		// out at the order's own totals.
		out = append(out, Sale{HappenedAt: paid, Action: ActionOrder, Line: LineProduct,
			ProductTitle: "Order adjustment", Total: netLeft + taxLeft, Tax: taxLeft, Discount: discountLeft})
	}
	return out
}

// wooRefundSales are a refund row's sales (§4 "Refund rows"), at its date:
// returns are the refund less its taxes and shipping (§4 refunds =
// |Σ negative net_total|, "which excludes refunded tax and shipping").
func wooRefundSales(r WooRefund, at time.Time) []Sale {
	var out []Sale
	// left is what the lines do not explain, as a negative total with tax:
	// an amount-only refund is all of it.
	left := -r.Amount
	for _, l := range r.Lines {
		out = append(out, Sale{HappenedAt: at, Action: ActionReturn, Line: LineProduct,
			ProductKey: WooProductKey(l), ProductTitle: ClipTitle(l.Name), Quantity: l.Quantity,
			Total: l.Total + l.Tax, Tax: l.Tax})
		left -= l.Total + l.Tax
	}
	for _, f := range r.Fees {
		out = append(out, Sale{HappenedAt: at, Action: ActionReturn, Line: LineProduct,
			ProductTitle: ClipTitle(f.Name), Total: f.Total + f.Tax, Tax: f.Tax})
		left -= f.Total + f.Tax
	}
	if r.Shipping != 0 || r.ShippingTax != 0 {
		out = append(out, Sale{HappenedAt: at, Action: ActionReturn, Line: LineShipping,
			Total: r.Shipping + r.ShippingTax, Tax: r.ShippingTax})
		left -= r.Shipping + r.ShippingTax
	}
	if left != 0 {
		// WooCommerce books an amount-only refund with no tax (its stats
		// row's tax_total is the refund's tax lines, none), so all of it is
		// a return.
		out = append(out, Sale{HappenedAt: at, Action: ActionReturn, Line: LineProduct,
			ProductTitle: "Refund", Total: left})
	}
	return out
}

// WooZone is the store's time zone as Uplift keeps it (an IANA name, or a
// fixed offset like "+05:30"), from the WordPress index's timezone_string and
// gmt_offset (§2 "Timezone"): timezone_string when set, else the manual
// offset in hours, which has no daylight saving. Stats are site-local (§4
// "Timezone"), so the store's days are counted in this zone.
func WooZone(timezoneString string, gmtOffsetHours float64) (string, error) {
	if tz := strings.TrimSpace(timezoneString); tz != "" {
		if _, err := time.LoadLocation(tz); err != nil {
			return "", fmt.Errorf("timezone_string %q: %w", tz, err)
		}
		return tz, nil
	}
	if math.IsNaN(gmtOffsetHours) || gmtOffsetHours < -14 || gmtOffsetHours > 14 {
		return "", fmt.Errorf("gmt_offset %v is not an offset in hours", gmtOffsetHours)
	}
	minutes := int(math.Round(gmtOffsetHours * 60))
	sign := '+'
	if minutes < 0 {
		sign, minutes = '-', -minutes
	}
	return fmt.Sprintf("%c%02d:%02d", sign, minutes/60, minutes%60), nil
}

func firstNonBlank(ss ...string) string {
	for _, s := range ss {
		if strings.TrimSpace(s) != "" {
			return strings.TrimSpace(s)
		}
	}
	return ""
}
