package sim

import (
	"reflect"
	"testing"
	"time"
)

// salesFixture: a New York shop, tax exclusive.
//
//	3/10 15:00  order A: 2 × 50.00 − 10.00 discount + 6.30 tax; 1 × 20.00 + 1.40 tax; shipping 7.95
//	3/10 16:00  a test order (left out)
//	3/11 10:00  order B: 1 × 30.00 + 2.10 tax, shipping 5.00; cancelled 3/11 12:00
//	3/12 23:30  refund of 1 unit of A's first line (23:30 New York is 3/13 in UTC)
func salesFixture(t *testing.T, e *env) {
	ny, _ := time.LoadLocation("America/New_York")
	at := func(d, h, m int) time.Time { return time.Date(2026, 3, d, h, m, 0, 0, ny) }
	a, err := e.s.AddOrder(testShop, OrderSpec{CreatedAt: at(10, 15, 0), Shipping: 795, Lines: []LineSpec{
		{Title: "Boots", Quantity: 2, UnitPrice: 5000, Discount: 1000, Tax: 630},
		{Title: "Socks", Quantity: 1, UnitPrice: 2000, Tax: 140}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.s.AddOrder(testShop, OrderSpec{CreatedAt: at(10, 16, 0), Test: true, Lines: []LineSpec{{Title: "T", Quantity: 1, UnitPrice: 99900}}}); err != nil {
		t.Fatal(err)
	}
	b, _ := e.s.AddOrder(testShop, OrderSpec{CreatedAt: at(11, 10, 0), Shipping: 500, Lines: []LineSpec{{Title: "Cap", Quantity: 1, UnitPrice: 3000, Tax: 210}}})
	if err := e.s.Cancel(testShop, b, at(11, 12, 0)); err != nil {
		t.Fatal(err)
	}
	if err := e.s.Refund(testShop, a, RefundSpec{At: at(12, 23, 30), Lines: []RefundLine{{LineIndex: 0, Quantity: 1}}}); err != nil {
		t.Fatal(err)
	}
}

func TestShopifyQLSalesMatchHandComputed(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{AutoApprove: true})
	salesFixture(t, e)
	tok := e.install(testShop, "read_orders,read_reports")
	q := `query($q: String!) { shopifyqlQuery(query: $q) { tableData { columns { name dataType displayName } rows } parseErrors } }`
	d := e.gql(testShop, tok, q, map[string]any{"q": "FROM sales SHOW orders, gross_sales, discounts, returns, net_sales, shipping, taxes, total_sales SINCE 2026-03-10 UNTIL 2026-03-13 GROUP BY day"})
	rows := dig(d, "shopifyqlQuery", "tableData", "rows")
	row := func(day, orders, gross, disc, ret, net, ship, tax, total any) map[string]any {
		return map[string]any{"day": day, "orders": orders, "gross_sales": gross, "discounts": disc, "returns": ret, "net_sales": net, "shipping": ship, "taxes": tax, "total_sales": total}
	}
	want := []any{
		row("2026-03-10", 1.0, "120.00", "10.00", "0.00", "110.00", "7.95", "7.70", "125.65"),
		row("2026-03-11", 1.0, "30.00", "0.00", "30.00", "0.00", "0.00", "0.00", "0.00"),
		row("2026-03-12", 0.0, "0.00", "-5.00", "50.00", "-45.00", "0.00", "-3.15", "-48.15"),
		row("2026-03-13", 0.0, "0.00", "0.00", "0.00", "0.00", "0.00", "0.00", "0.00"),
	}
	if !reflect.DeepEqual(rows, want) {
		t.Fatalf("rows:\n got %v\nwant %v", rows, want)
	}
	if dig(d, "shopifyqlQuery", "tableData", "columns", 0, "name") != "day" || dig(d, "shopifyqlQuery", "tableData", "columns", 2, "dataType") != "MONEY" {
		t.Fatalf("columns: %v", dig(d, "shopifyqlQuery", "tableData", "columns"))
	}

	_ = e.s.SetSessions(testShop, "2026-03-10", 4700, 100)
	d = e.gql(testShop, tok, q, map[string]any{"q": "FROM sessions SHOW conversion_rate, sessions SINCE 2026-03-10 UNTIL 2026-03-11 GROUP BY day"})
	want = []any{
		map[string]any{"day": "2026-03-10", "conversion_rate": 0.0213, "sessions": 4700.0},
		map[string]any{"day": "2026-03-11", "conversion_rate": 0.0, "sessions": 0.0},
	}
	if rows := dig(d, "shopifyqlQuery", "tableData", "rows"); !reflect.DeepEqual(rows, want) {
		t.Fatalf("sessions rows: %v", rows)
	}
	if dig(d, "shopifyqlQuery", "tableData", "columns", 1, "name") != "conversion_rate" {
		t.Fatal("column order must follow SHOW")
	}
	d = e.gql(testShop, tok, q, map[string]any{"q": "FROM sales SHOW everything"})
	if dig(d, "shopifyqlQuery", "parseErrors", 0) == nil || dig(d, "shopifyqlQuery", "tableData") != nil {
		t.Fatalf("parse error: %v", d)
	}

	noReports := e.install(testShop, "read_orders")
	_, out := e.gqlStatus(testShop, noReports, q, map[string]any{"q": "FROM sessions SHOW sessions SINCE 2026-03-10 UNTIL 2026-03-10 GROUP BY day"})
	if dig(out, "errors", 0, "message") != "Access denied for shopifyqlQuery field." {
		t.Fatalf("no read_reports: %v", out)
	}
}

func TestAgreementsSumToZeroAfterCancelTaxIncluded(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{}, ShopSpec{Domain: testShop, Currency: "EUR", Timezone: "Europe/Berlin", TaxesIncluded: true})
	id, err := e.s.AddOrder(testShop, OrderSpec{CreatedAt: time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC), Shipping: 490, ShippingTax: 78, Tip: 200,
		Lines: []LineSpec{{Title: "Mug", Quantity: 3, UnitPrice: 1190, Discount: 100, Tax: 554}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.s.Refund(testShop, id, RefundSpec{At: time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC), Lines: []RefundLine{{0, 1}}}); err != nil {
		t.Fatal(err)
	}
	if err := e.s.Cancel(testShop, id, time.Date(2026, 3, 3, 9, 0, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	e.s.mu.Lock()
	defer e.s.mu.Unlock()
	var total, tax, disc, qty int64
	od := e.s.shops[testShop].orders[id]
	for _, a := range od.agreements {
		for _, sa := range a.sales {
			total += sa.total
			tax += sa.tax
			disc += sa.discount
			if sa.lineType == "PRODUCT" {
				qty += sa.quantity
			}
		}
	}
	if total != 0 || tax != 0 || disc != 0 || qty != 0 || len(od.agreements) != 3 {
		t.Fatalf("not reversed exactly: total %d tax %d discount %d qty %d", total, tax, disc, qty)
	}
	// the first return takes floor(554/3) of the tax; the cancel the rest
	if r := od.agreements[1].sales[0]; r.tax != -184 || r.discount != -33 || r.total != -(1190-33) {
		t.Fatalf("pro-rata return: %+v", r)
	}
}
