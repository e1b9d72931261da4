package domain

// Platform is the store software whose own reports a store's numbers
// follow. The daily table's columns are the same for every platform (each
// platform's orders are turned into sales that fill them: WooSales for
// WooCommerce); what differs is the few rules a column sum cannot carry,
// the average order value's numerator, and the words that explain each
// number.
type Platform string

// Platforms. A store with only imported Shopify exports counts as Shopify.
const (
	PlatformShopify     Platform = "shopify"
	PlatformWooCommerce Platform = "woocommerce"
)

// wooFormulas are the definitions of WooCommerce Analytics
// (../shared/research/woocommerce.md §4 "Formulas", "Statuses", "Date
// basis"). Where a rule differs from Shopify's the words say whose it is,
// so an owner who knows Shopify's numbers is not misled; sessions and
// conversion keep Shopify's words, as WooCommerce reports no sessions.
var wooFormulas = map[string]string{
	"netSales":          "Net sales = gross sales − coupons − returns",
	"totalSales":        "Total sales = net sales + shipping + taxes (WooCommerce's rule: fees are in net sales)",
	"averageOrderValue": "Average order value = net sales ÷ orders (WooCommerce's rule; Shopify's is (gross sales − discounts) ÷ orders)",
	"conversionRate":    Formulas["conversionRate"],
	"orders":            "Orders = orders counted on the day paid; pending, failed and cancelled ones left out (WooCommerce's rule; Shopify counts every order on the day placed)",
	"returns":           "Returns = refunds less their taxes and shipping, on the day refunded (WooCommerce's rule)",
	"grossSales":        "Gross sales = order totals + coupons − taxes − shipping, fees included (WooCommerce's rule)",
	"sessions":          Formulas["sessions"],
}

// FormulasFor is the wording of the platform's numbers (Formulas for
// Shopify), keyed like the API's metric keys.
func FormulasFor(p Platform) map[string]string {
	if p == PlatformWooCommerce {
		return wooFormulas
	}
	return Formulas
}

// OrderValueFor is the average order value's numerator under the
// platform's rule: Shopify's gross sales − discounts (returns do not lower
// it), WooCommerce's net sales, returns included (§4 avg_order_value =
// net_revenue / orders_count).
func OrderValueFor(p Platform, d DayTotals) Money {
	if p == PlatformWooCommerce {
		return d.Net()
	}
	return d.OrderValue()
}

// AverageOrderValueFor is OrderValueFor ÷ orders, rounded as
// AverageOrderValue is; false when there were no orders.
func AverageOrderValueFor(p Platform, d DayTotals) (Money, bool) {
	if d.Orders <= 0 {
		return 0, false
	}
	return Money(roundDiv(int64(OrderValueFor(p, d)), d.Orders)), true
}
