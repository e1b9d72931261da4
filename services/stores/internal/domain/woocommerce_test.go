package domain

import (
	"testing"
	"time"
)

// The days below are worked out by hand from WooCommerce Analytics' rules
// (../shared/research/woocommerce.md §4): each order row on its paid day,
// each refund row on its own day, excluded statuses nowhere.

func wm(t testing.TB, s string) Money {
	t.Helper()
	v, err := ParseMoney(s, "USD")
	if err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	return v
}

func utc(t testing.TB, s string) time.Time {
	t.Helper()
	v, err := time.Parse("2006-01-02 15:04", s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func ptime(v time.Time) *time.Time { return &v }

// wooDay is one day as WooCommerce's revenue report shows it (§5: Date,
// Orders, Gross sales, Returns, Coupons, Net sales, Taxes, Shipping, Total
// sales), in dollars as text so each can be checked against the research
// by eye.
type wooDay struct {
	date                                                      string
	orders                                                    int64
	gross, returns, coupons, net, taxes, shipping, totalSales string
}

func checkWooDays(t *testing.T, orders []Order, loc *time.Location, want []wooDay) {
	t.Helper()
	from, to := mustDate(t, want[0].date), mustDate(t, want[len(want)-1].date)
	got := DailyTotals(orders, loc, from, to)
	if len(got) != len(want) {
		t.Fatalf("%d days, want %d", len(got), len(want))
	}
	for i, w := range want {
		g := got[i]
		if g.Date.String() != w.date {
			t.Fatalf("day %d is %s, want %s", i, g.Date, w.date)
		}
		row := []struct {
			name      string
			got, want Money
		}{
			{"gross sales", g.Gross, wm(t, w.gross)}, {"returns", g.Returns, wm(t, w.returns)},
			{"coupons", g.Discounts, wm(t, w.coupons)}, {"net sales", g.Net(), wm(t, w.net)},
			{"taxes", g.Taxes, wm(t, w.taxes)}, {"shipping", g.Shipping, wm(t, w.shipping)},
			{"total sales", g.TotalSales(), wm(t, w.totalSales)},
			{"fees (inside gross sales for WooCommerce)", g.AdditionalFees, 0},
		}
		if g.Orders != w.orders {
			t.Errorf("%s: orders %d, want %d", w.date, g.Orders, w.orders)
		}
		for _, r := range row {
			if r.got != r.want {
				t.Errorf("%s: %s %s, want %s", w.date, r.name, FormatMoney(r.got, "USD"), FormatMoney(r.want, "USD"))
			}
		}
	}
}

// orderA: 2 × $12.00 tea with a 10 % coupon, 7 % tax, $5.95 shipping:
// lines 24.00 − 2.40 = 21.60, tax 1.51; shipping 5.95, tax 0.42;
// total 29.48, total tax 1.93.
func orderA(t testing.TB, status WooStatus, created time.Time, paid *time.Time) WooOrder {
	return WooOrder{ID: 101, Number: "101", Status: status, Currency: "usd", CustomerID: 7,
		CreatedAt: created, PaidAt: paid, ModifiedAt: created,
		Total: wm(t, "29.48"), TotalTax: wm(t, "1.93"), ShippingTotal: wm(t, "5.95"), ShippingTax: wm(t, "0.42"),
		DiscountTotal: wm(t, "2.40"),
		Lines: []WooLine{{ProductID: 11, SKU: "EG-50", Name: "Earl Grey", Quantity: 2,
			Subtotal: wm(t, "24.00"), Total: wm(t, "21.60"), Tax: wm(t, "1.51")}}}
}

// orderB: a $30.00 mug with a $3.00 gift-wrap fee, 7 % tax, no shipping:
// total 30.00 + 2.10 + 3.00 + 0.21 = 35.31, total tax 2.31; WooCommerce's
// net sales 33.00 include the fee.
func orderB(t testing.TB, status WooStatus, created time.Time, paid *time.Time) WooOrder {
	return WooOrder{ID: 102, Number: "102", Status: status, Currency: "USD",
		CreatedAt: created, PaidAt: paid, ModifiedAt: created,
		Total: wm(t, "35.31"), TotalTax: wm(t, "2.31"),
		Lines: []WooLine{{ProductID: 12, Name: "Mug", Quantity: 1,
			Subtotal: wm(t, "30.00"), Total: wm(t, "30.00"), Tax: wm(t, "2.10")}},
		Fees: []WooFee{{Name: "Gift wrap", Total: wm(t, "3.00"), Tax: wm(t, "0.21")}}}
}

// TestWooDaysInTheStoreZoneAcrossDST: New York's clocks went back on
// 1 November 2026, a 25-hour day. A paid at 04:30 UTC on 1 November is
// 00:30 EDT; B paid at 04:30 UTC on 2 November is 23:30 EST on 1 November:
// both are 1 November's (§4 "Timezone": buckets are site-local days), where
// UTC days would split them.
func TestWooDaysInTheStoreZoneAcrossDST(t *testing.T) {
	ny := mustZone(t, "America/New_York")
	a := WooSales(orderA(t, "completed", utc(t, "2026-11-01 04:20"), ptime(utc(t, "2026-11-01 04:30"))), ny)
	b := WooSales(orderB(t, "processing", utc(t, "2026-11-02 04:25"), ptime(utc(t, "2026-11-02 04:30"))), ny)
	checkWooDays(t, []Order{a, b}, ny, []wooDay{
		{"2026-10-31", 0, "0", "0", "0", "0", "0", "0", "0"},
		// gross = 29.48 + 2.40 − 1.93 − 5.95 = 24.00, plus B's 35.31 − 2.31 = 33.00
		{"2026-11-01", 2, "57.00", "0", "2.40", "54.60", "4.24", "5.95", "64.79"},
		{"2026-11-02", 0, "0", "0", "0", "0", "0", "0", "0"},
	})
	checkWooDays(t, []Order{WooSales(orderA(t, "completed", utc(t, "2026-11-01 04:20"), ptime(utc(t, "2026-11-01 04:30"))), time.UTC),
		WooSales(orderB(t, "processing", utc(t, "2026-11-02 04:25"), ptime(utc(t, "2026-11-02 04:30"))), time.UTC)}, time.UTC, []wooDay{
		{"2026-11-01", 1, "24.00", "0", "2.40", "21.60", "1.93", "5.95", "29.48"},
		{"2026-11-02", 1, "33.00", "0", "0", "33.00", "2.31", "0", "35.31"},
	})
	if a.Currency != "USD" || a.ID != "woocommerce:101" || a.Name != "#101" || a.CustomerKey != "woocommerce:7" {
		t.Errorf("order identity %q %q %q %q", a.Currency, a.ID, a.Name, a.CustomerKey)
	}
}

// TestWooManualOffsetZone: a store set to "UTC+5:30" has no
// timezone_string (§2 "Timezone"), so its days follow gmt_offset with no
// daylight saving. 19:00 UTC on 2 November is 00:30 on 3 November there.
func TestWooManualOffsetZone(t *testing.T) {
	for _, c := range []struct {
		tz     string
		offset float64
		want   string
	}{
		{"America/New_York", -5, "America/New_York"}, {"", 5.5, "+05:30"}, {"", -3.5, "-03:30"},
		{"", 0, "+00:00"}, {"", 12.75, "+12:45"}, {" Europe/London ", 0, "Europe/London"},
	} {
		got, err := WooZone(c.tz, c.offset)
		if err != nil || got != c.want {
			t.Errorf("WooZone(%q, %v) = %q, %v; want %q", c.tz, c.offset, got, err, c.want)
		}
	}
	for _, bad := range []struct {
		tz     string
		offset float64
	}{{"Mars/Olympus", 0}, {"", 15}, {"", -15}} {
		if got, err := WooZone(bad.tz, bad.offset); err == nil {
			t.Errorf("WooZone(%q, %v) = %q, want an error", bad.tz, bad.offset, got)
		}
	}
	tz, _ := WooZone("", 5.5)
	loc := time.FixedZone(tz, 5*3600+1800)
	a := WooSales(orderA(t, "completed", utc(t, "2026-11-02 18:50"), ptime(utc(t, "2026-11-02 19:00"))), loc)
	checkWooDays(t, []Order{a}, loc, []wooDay{
		{"2026-11-02", 0, "0", "0", "0", "0", "0", "0", "0"},
		{"2026-11-03", 1, "24.00", "0", "2.40", "21.60", "1.93", "5.95", "29.48"},
	})
}

// TestWooRefundOnALaterDay: a refund counts on the day it was made, as
// negatives (§4 "Refunds are always dated on the refund date"); the order's
// day keeps its numbers. Returns exclude the refunded tax (§4 refunds =
// |Σ negative net_total|); an amount-only refund is all returns with no
// tax.
func TestWooRefundOnALaterDay(t *testing.T) {
	ny := mustZone(t, "America/New_York")
	a := orderA(t, "completed", utc(t, "2026-11-10 15:00"), ptime(utc(t, "2026-11-10 15:01")))
	// One of the two teas back on 12 November: 10.80 + 0.76 tax.
	a.Refunds = []WooRefund{{ID: 900, CreatedAt: utc(t, "2026-11-12 16:00"), Amount: wm(t, "11.56"),
		Lines: []WooLine{{ProductID: 11, Name: "Earl Grey", Quantity: -1, Subtotal: -wm(t, "10.80"),
			Total: -wm(t, "10.80"), Tax: -wm(t, "0.76")}}}}
	b := orderB(t, "completed", utc(t, "2026-11-10 17:00"), ptime(utc(t, "2026-11-10 17:02")))
	// A $5 goodwill refund at 02:00 UTC on 12 November: 21:00 on the 11th in New York.
	b.Refunds = []WooRefund{{ID: 901, CreatedAt: utc(t, "2026-11-12 02:00"), Amount: wm(t, "5.00")}}
	orders := []Order{WooSales(a, ny), WooSales(b, ny)}
	checkWooDays(t, orders, ny, []wooDay{
		{"2026-11-10", 2, "57.00", "0", "2.40", "54.60", "4.24", "5.95", "64.79"},
		{"2026-11-11", 0, "0", "5.00", "0", "-5.00", "0", "0", "-5.00"},
		{"2026-11-12", 0, "0", "10.80", "0", "-10.80", "-0.76", "0", "-11.56"},
	})
	// The refunded tea is −1 unit of its product, so top products and the
	// signals see the return; the goodwill refund names no product.
	var units int64
	for _, o := range orders {
		for _, s := range o.Sales {
			if s.ProductKey == "woocommerce:11" {
				units += s.Quantity
			}
			if s.ProductKey == "" && s.Line == LineProduct && s.Action == ActionReturn && s.Total != -wm(t, "5.00") {
				t.Errorf("goodwill refund sale %+v", s)
			}
		}
	}
	if units != 1 {
		t.Errorf("Earl Grey units = %d, want 2 sold − 1 returned = 1", units)
	}
}

// TestWooStatusChangeAfterTheDayClosed: WooCommerce's numbers for a closed
// day change when an order's status does, because every stats row carries
// the order's current status (§4 "Refund rows: … status = the parent's
// status", "Excluded: … pending, failed, cancelled"):
//   - completed on the 10th, cancelled on the 11th: the order leaves the
//     10th (Shopify would instead book a return on the 11th);
//   - completed on the 10th, refunded in full on the 11th (status
//     "refunded", which always counts): the 10th keeps the sale and the
//     11th gets the whole refund as negatives, shipping and taxes too.
func TestWooStatusChangeAfterTheDayClosed(t *testing.T) {
	ny := mustZone(t, "America/New_York")
	paid := ptime(utc(t, "2026-11-10 15:01"))
	before := WooSales(orderA(t, "completed", utc(t, "2026-11-10 15:00"), paid), ny)
	checkWooDays(t, []Order{before}, ny, []wooDay{
		{"2026-11-10", 1, "24.00", "0", "2.40", "21.60", "1.93", "5.95", "29.48"},
		{"2026-11-11", 0, "0", "0", "0", "0", "0", "0", "0"},
	})

	cancelled := orderA(t, "cancelled", utc(t, "2026-11-10 15:00"), paid)
	cancelled.ModifiedAt = utc(t, "2026-11-11 14:00")
	co := WooSales(cancelled, ny)
	if Counts(co) || len(co.Sales) != 0 {
		t.Errorf("a cancelled order counts: counted %v, %d sales", Counts(co), len(co.Sales))
	}
	checkWooDays(t, []Order{co}, ny, []wooDay{
		{"2026-11-10", 0, "0", "0", "0", "0", "0", "0", "0"},
		{"2026-11-11", 0, "0", "0", "0", "0", "0", "0", "0"},
	})

	refunded := orderA(t, "refunded", utc(t, "2026-11-10 15:00"), paid)
	refunded.Refunds = []WooRefund{{ID: 902, CreatedAt: utc(t, "2026-11-11 14:00"), Amount: wm(t, "29.48"),
		Lines:    []WooLine{{ProductID: 11, Name: "Earl Grey", Quantity: -2, Total: -wm(t, "21.60"), Tax: -wm(t, "1.51")}},
		Shipping: -wm(t, "5.95"), ShippingTax: -wm(t, "0.42")}}
	checkWooDays(t, []Order{WooSales(refunded, ny)}, ny, []wooDay{
		{"2026-11-10", 1, "24.00", "0", "2.40", "21.60", "1.93", "5.95", "29.48"},
		{"2026-11-11", 0, "0", "21.60", "0", "-21.60", "-1.93", "-5.95", "-29.48"},
	})
}

// TestWooStatuses: which statuses count (§4 "Statuses"), and that an
// unpaid order of a counted status is not counted until paid (§4 "Date
// basis": date_paid), while a refund of it still counts on its day.
func TestWooStatuses(t *testing.T) {
	for status, counts := range map[WooStatus]bool{
		"completed": true, "processing": true, "on-hold": true, "refunded": true, "shipped": true,
		"pending": false, "failed": false, "cancelled": false, "trash": false, "auto-draft": false,
		"checkout-draft": false, " Cancelled ": false,
	} {
		if WooCounts(status) != counts {
			t.Errorf("WooCounts(%q) = %v, want %v", status, !counts, counts)
		}
	}
	ny := mustZone(t, "America/New_York")
	created := utc(t, "2026-11-10 15:00")
	onHold := WooSales(orderA(t, "on-hold", created, nil), ny)
	if Counts(onHold) || len(onHold.Sales) != 0 {
		t.Errorf("an unpaid on-hold order counts: %v, %d sales", Counts(onHold), len(onHold.Sales))
	}
	// Paid two days later (bank transfer arrived): it counts on the 12th.
	paidLater := WooSales(orderA(t, "processing", created, ptime(utc(t, "2026-11-12 15:00"))), ny)
	checkWooDays(t, []Order{onHold, paidLater}, ny, []wooDay{
		{"2026-11-10", 0, "0", "0", "0", "0", "0", "0", "0"},
		{"2026-11-11", 0, "0", "0", "0", "0", "0", "0", "0"},
		{"2026-11-12", 1, "24.00", "0", "2.40", "21.60", "1.93", "5.95", "29.48"},
	})
	unpaid := orderA(t, "on-hold", created, nil)
	unpaid.Refunds = []WooRefund{{ID: 903, CreatedAt: utc(t, "2026-11-11 15:00"), Amount: wm(t, "1.00")}}
	checkWooDays(t, []Order{WooSales(unpaid, ny)}, ny, []wooDay{
		{"2026-11-11", 0, "0", "1.00", "0", "-1.00", "0", "0", "-1.00"},
	})
	pendingRefund := orderA(t, "failed", created, nil)
	pendingRefund.Refunds = unpaid.Refunds
	checkWooDays(t, []Order{WooSales(pendingRefund, ny)}, ny, []wooDay{
		{"2026-11-11", 0, "0", "0", "0", "0", "0", "0", "0"},
	})
}

// TestWooOrderTotalsWin: WooCommerce sums the order's own totals (§4 order
// rows), so when the lines' rounding does not add up to the order's tax an
// adjustment without a product makes the day equal WooCommerce's, and the
// product keeps its own line figures.
func TestWooOrderTotalsWin(t *testing.T) {
	o := WooOrder{ID: 5, Status: "completed", Currency: "USD", CreatedAt: utc(t, "2026-11-10 12:00"),
		PaidAt: ptime(utc(t, "2026-11-10 12:00")), Total: wm(t, "32.13"), TotalTax: wm(t, "2.13"),
		DiscountTotal: wm(t, "1.00"),
		Lines: []WooLine{
			{ProductID: 1, Name: "A", Quantity: 1, Subtotal: wm(t, "15.00"), Total: wm(t, "14.50"), Tax: wm(t, "1.06")},
			{ProductID: 2, Name: "B", Quantity: 1, Subtotal: wm(t, "16.00"), Total: wm(t, "15.50"), Tax: wm(t, "1.06")},
		}}
	got := WooSales(o, time.UTC)
	checkWooDays(t, []Order{got}, time.UTC, []wooDay{
		{"2026-11-10", 1, "31.00", "0", "1.00", "30.00", "2.13", "0", "32.13"},
	})
	var adjustments int
	for _, s := range got.Sales {
		if s.ProductKey == "" {
			adjustments++
			if s.Tax != 1 || s.Total != 1 {
				t.Errorf("adjustment %+v, want the 0.01 of tax the lines miss", s)
			}
		}
	}
	if adjustments != 1 {
		t.Errorf("%d adjustments, want 1", adjustments)
	}
	// Line figures that add up need no adjustment.
	exact := WooSales(orderA(t, "completed", o.CreatedAt, o.PaidAt), time.UTC)
	for _, s := range exact.Sales {
		if s.Line == LineProduct && s.ProductKey == "" {
			t.Errorf("unneeded adjustment %+v", s)
		}
	}
}

// TestWooAverageOrderValue: WooCommerce's average order value is net sales
// ÷ orders, so a day's refunds lower it (§4 avg_order_value =
// net_revenue / orders_count), where Shopify's is (gross − discounts) ÷
// orders. The daily report uses the platform's rule and words.
func TestWooAverageOrderValue(t *testing.T) {
	ny := mustZone(t, "America/New_York")
	a := orderA(t, "completed", utc(t, "2026-11-10 15:00"), ptime(utc(t, "2026-11-10 15:01")))
	b := orderB(t, "completed", utc(t, "2026-11-12 15:00"), ptime(utc(t, "2026-11-12 15:01")))
	a.Refunds = []WooRefund{{ID: 900, CreatedAt: utc(t, "2026-11-12 16:00"), Amount: wm(t, "11.56"),
		Lines: []WooLine{{ProductID: 11, Name: "Earl Grey", Quantity: -1, Total: -wm(t, "10.80"), Tax: -wm(t, "0.76")}}}}
	days := DailyTotals([]Order{WooSales(a, ny), WooSales(b, ny)}, ny, mustDate(t, "2026-11-12"), mustDate(t, "2026-11-12"))
	d := days[0]
	woo, ok := AverageOrderValueFor(PlatformWooCommerce, d)
	if !ok || woo != wm(t, "22.20") { // (33.00 − 10.80) ÷ 1
		t.Errorf("WooCommerce AOV %s, want 22.20", FormatMoney(woo, "USD"))
	}
	shop, _ := AverageOrderValueFor(PlatformShopify, d)
	if shop != wm(t, "33.00") {
		t.Errorf("Shopify AOV %s, want 33.00", FormatMoney(shop, "USD"))
	}
	if _, ok := AverageOrderValueFor(PlatformWooCommerce, DayTotals{}); ok {
		t.Error("an average of no orders")
	}
	// Two orders rounding half away from zero: 54.61 ÷ 2 = 27.305 → 27.31.
	if v, _ := AverageOrderValueFor(PlatformWooCommerce, DayTotals{Orders: 2, Amounts: Amounts{Gross: wm(t, "54.61")}}); v != wm(t, "27.31") {
		t.Errorf("rounded AOV %s", FormatMoney(v, "USD"))
	}

	r := CompareDayFor(PlatformWooCommerce, d, make([]DayTotals, 7), "USD")
	for _, m := range r.Metrics {
		if m.Formula != FormulasFor(PlatformWooCommerce)[m.Key] || m.Formula == "" {
			t.Errorf("%s: formula %q", m.Key, m.Formula)
		}
		if m.Key == "averageOrderValue" && (m.Value == nil || *m.Value != "22.20") {
			t.Errorf("report AOV %v, want 22.20", derefOr(m.Value))
		}
	}
	if CompareDay(d, make([]DayTotals, 7), "USD").Metrics[2].Formula != Formulas["averageOrderValue"] {
		t.Error("Shopify's report lost its words")
	}
}

// TestWooFormulasSayWhoseRule: every WooCommerce formula that differs from
// Shopify's names the platform whose rule it is, and every metric key has
// one.
func TestWooFormulasSayWhoseRule(t *testing.T) {
	woo := FormulasFor(PlatformWooCommerce)
	for key, shop := range Formulas {
		w, ok := woo[key]
		if !ok || w == "" {
			t.Errorf("no WooCommerce formula for %s", key)
			continue
		}
		differs := w != shop && key != "netSales"
		if differs && !contains(w, "WooCommerce's rule") {
			t.Errorf("%s: %q does not say it is WooCommerce's rule", key, w)
		}
	}
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

func derefOr(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}

func TestNormalizeWooStore(t *testing.T) {
	for _, c := range []struct {
		raw       string
		allowHTTP bool
		want      string
	}{
		{"https://Shop.Example.com/", false, "https://shop.example.com"},
		{" shop.example.com ", false, "https://shop.example.com"},
		{"https://example.com/wp/", false, "https://example.com/wp"},
		{"https://example.com/wp/wp-json/wc/v3", false, "https://example.com/wp"},
		{"https://example.com/wp-admin/", false, "https://example.com"},
		{"https://example.com:8443", false, "https://example.com:8443"},
		{"http://127.0.0.1:9301/fernhill", true, "http://127.0.0.1:9301/fernhill"},
	} {
		got, err := NormalizeWooStore(c.raw, c.allowHTTP)
		if err != nil || got != c.want {
			t.Errorf("NormalizeWooStore(%q) = %q, %v; want %q", c.raw, got, err, c.want)
		}
	}
	for _, c := range []struct {
		raw       string
		allowHTTP bool
		message   string
	}{
		{"http://shop.example.com", false, wooHTTPSMessage},
		{"http://127.0.0.1:9301/fernhill", false, wooHTTPSMessage},
		{"", false, WooStoreMessage},
		{"ftp://shop.example.com", true, WooStoreMessage},
		{"https://user:pw@shop.example.com", false, WooStoreMessage},
		{"https://shop.example.com/?x=1", false, WooStoreMessage},
		{"https://shop.example.com/#a", false, WooStoreMessage},
		{"https://shop", false, WooStoreMessage},
		{"https://shop.example.com/a/../b", false, WooStoreMessage},
		{"javascript:alert(1)", true, WooStoreMessage},
		{"https://" + string(make([]byte, 3000)), false, WooStoreMessage},
	} {
		got, err := NormalizeWooStore(c.raw, c.allowHTTP)
		if err == nil || err.Error() != c.message {
			t.Errorf("NormalizeWooStore(%q) = %q, %v; want %q", c.raw, got, err, c.message)
		}
	}
}

// TestVerifyWooSignature: the signature is base64(HMAC-SHA256(body,
// secret)) (research §3); the expected value was computed apart with
// `printf '{"id":7}' | openssl dgst -sha256 -hmac s3cret -binary | base64`.
func TestVerifyWooSignature(t *testing.T) {
	body := []byte(`{"id":7}`)
	const good = "xI3LoitJqTcc32B6QQFiOCIeOMeNcunsy1XHW9wPPrw="
	if !VerifyWooSignature(body, "s3cret", good) {
		t.Fatal("the genuine signature does not verify")
	}
	for name, c := range map[string]struct {
		body         []byte
		secret, sign string
	}{
		"another body":    {[]byte(`{"id":8}`), "s3cret", good},
		"a byte added":    {[]byte(`{"id":7} `), "s3cret", good},
		"another secret":  {body, "s3cre7", good},
		"no secret":       {body, "", good},
		"no signature":    {body, "s3cret", ""},
		"not base64":      {body, "s3cret", "!!"},
		"hex, not base64": {body, "s3cret", "66225704c997371"},
	} {
		if VerifyWooSignature(c.body, c.secret, c.sign) {
			t.Errorf("%s verifies", name)
		}
	}
}
