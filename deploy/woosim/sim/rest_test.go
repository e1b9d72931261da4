package sim

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
)

func ids(v any) []int64 {
	var out []int64
	for _, x := range v.([]any) {
		out = append(out, int64(dig(x, "id").(float64)))
	}
	return out
}

func TestPaginationHeadersAndLimits(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	k := e.key("read")
	var want []int64
	for i := range 25 {
		want = append(want, e.order(hat(time.Date(2026, 3, 1, 10, i, 0, 0, time.UTC))))
	}
	r := e.get("orders", k) // default: 10 a page, newest first
	if got := ids(r.body); r.header.Get("X-WP-Total") != "25" || r.header.Get("X-WP-TotalPages") != "3" || len(got) != 10 || got[0] != want[24] {
		t.Fatalf("first page: %v %v", r.header, got)
	}
	if l := r.header.Get("Link"); strings.Contains(l, `rel="prev"`) || !strings.Contains(l, "<"+e.api("orders?page=2")+`>; rel="next"`) {
		t.Fatalf("first page Link %q", l)
	}
	r = e.get("orders?page=2&per_page=10&order=asc&orderby=id&consumer_key="+k.ConsumerKey+"&consumer_secret="+k.ConsumerSecret, Key{})
	l := r.header.Get("Link")
	if got := ids(r.body); got[0] != want[10] || !strings.Contains(l, `rel="prev"`) || !strings.Contains(l, `rel="next"`) || strings.Contains(l, "consumer_") {
		t.Fatalf("page 2: %v Link %q", got, l)
	}
	r = e.get("orders?page=3&order=asc", k)
	if got := ids(r.body); len(got) != 5 || got[4] != want[24] || strings.Contains(r.header.Get("Link"), "next") {
		t.Fatalf("last page: %v %q", got, r.header.Get("Link"))
	}
	if r = e.get("orders?page=9", k); len(r.body.([]any)) != 0 || r.header.Get("X-WP-Total") != "25" {
		t.Fatalf("past the end: %s", r.raw)
	}
	if got := ids(e.get("orders?per_page=100&offset=20&order=asc", k).body); len(got) != 5 || got[0] != want[20] {
		t.Fatalf("offset: %v", got)
	}
	r = e.do("GET", "orders?per_page=101", k, nil)
	wantError(t, r, 400, "rest_invalid_param", "Invalid parameter(s): per_page")
	if dig(r.body, "data", "params", "per_page") != "per_page must be between 1 (inclusive) and 100 (inclusive)" {
		t.Fatalf("params: %s", r.raw)
	}
	for _, bad := range []string{"page=0", "per_page=x", "order=up", "orderby=total", "after=yesterday", "status=paid", "dates_are_gmt=maybe"} {
		if r := e.do("GET", "orders?"+bad, k, nil); r.status != 400 || dig(r.body, "code") != "rest_invalid_param" {
			t.Fatalf("%s: %d %s", bad, r.status, r.raw)
		}
	}
}

func TestOrderShapeMoneyAndDates(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	k := e.key("read")
	cust, _ := e.s.AddCustomer(testStore, time.Time{})
	at := time.Date(2026, 3, 10, 3, 30, 0, 0, time.UTC) // 23:30 on the 9th in New York
	id := e.order(OrderSpec{CreatedAt: at, CustomerID: cust, Coupon: "TENOFF", Shipping: 595,
		Lines: []LineSpec{{ProductID: 11, Quantity: 2, Discount: 400}, {ProductID: 12, Quantity: 1}}})
	o := e.get(fmt.Sprintf("orders/%d", id), k).body
	for field, want := range map[string]any{
		"status": "processing", "currency": "USD", "prices_include_tax": false, "customer_id": float64(cust),
		"date_created": "2026-03-09T23:30:00", "date_created_gmt": "2026-03-10T03:30:00", "date_paid_gmt": "2026-03-10T03:30:00",
		"discount_total": "4.00", "discount_tax": "0.28", "shipping_total": "5.95", "shipping_tax": "0.42",
		"cart_tax": "2.87", "total_tax": "3.29", "total": "50.24", "date_completed": nil,
	} {
		if o.(map[string]any)[field] != want {
			t.Errorf("%s = %#v, want %#v", field, o.(map[string]any)[field], want)
		}
	}
	if dig(o, "line_items", 0, "subtotal") != "40.00" || dig(o, "line_items", 0, "total") != "36.00" || dig(o, "line_items", 0, "total_tax") != "2.52" ||
		dig(o, "line_items", 0, "sku") != "HAT" || dig(o, "coupon_lines", 0, "code") != "TENOFF" || dig(o, "coupon_lines", 0, "discount") != "4.00" ||
		dig(o, "tax_lines", 0, "tax_total") != "2.87" || dig(o, "tax_lines", 0, "shipping_tax_total") != "0.42" {
		t.Fatalf("lines: %v", o)
	}

	pending := e.order(OrderSpec{Status: "pending", CreatedAt: at, Lines: []LineSpec{{ProductID: 12, Quantity: 1}}})
	if p := e.get(fmt.Sprintf("orders/%d", pending), k).body; dig(p, "date_paid") != nil || dig(p, "date_paid_gmt") != nil || dig(p, "customer_id") != 0.0 {
		t.Fatalf("pending: %v", p)
	}
	wantError(t, e.do("GET", "orders/999999", k, nil), 404, "woocommerce_rest_shop_order_invalid_id", "Invalid ID.")
}

func TestOrderFilters(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	k := e.key("read")
	// New York is UTC-5 until 8 March 2026, then UTC-4.
	a := e.order(hat(time.Date(2026, 3, 7, 4, 30, 0, 0, time.UTC)))  // 6 March 23:30 local
	b := e.order(hat(time.Date(2026, 3, 7, 15, 0, 0, 0, time.UTC)))  // 7 March 10:00 local
	c := e.order(hat(time.Date(2026, 3, 10, 3, 30, 0, 0, time.UTC))) // 9 March 23:30 local
	d := e.order(OrderSpec{Status: "failed", CreatedAt: time.Date(2026, 3, 11, 12, 0, 0, 0, time.UTC), Lines: []LineSpec{{ProductID: 11, Quantity: 1}}})
	if err := e.s.SetStatus(testStore, b, "completed", time.Date(2026, 3, 15, 12, 0, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	if err := e.s.DeleteOrder(testStore, a, false); err != nil {
		t.Fatal(err)
	}
	cases := map[string][]int64{
		"orders?order=asc":                                                               {b, c, d},
		"orders?status=trash":                                                            {a},
		"orders?status=processing,failed&order=asc":                                      {c, d},
		"orders?status[]=completed&status[]=failed&order=asc":                            {b, d},
		"orders?after=2026-03-07T00:00:00&before=2026-03-10T00:00:00&order=asc":          {b, c},
		"orders?after=2026-03-07T00:00:00&dates_are_gmt=true&status=any,trash&order=asc": {a, b, c, d},
		"orders?after=2026-03-07T05:00:00Z&order=asc":                                    {b, c, d},
		"orders?before=2026-03-09T23:00:00-04:00":                                        {b},
		"orders?modified_after=2026-03-14T00:00:00&dates_are_gmt=true":                   {b},
		"orders?orderby=modified&order=asc":                                              {c, d, b},
		fmt.Sprintf("orders?include=%d,%d&order=asc", c, b):                              {b, c},
	}
	for q, want := range cases {
		if got := ids(e.get(q, k).body); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: %v, want %v", q, got, want)
		}
	}
	if o := e.get(fmt.Sprintf("orders/%d", b), k).body; dig(o, "date_completed_gmt") != "2026-03-15T12:00:00" || dig(o, "date_modified") != "2026-03-15T08:00:00" {
		t.Fatalf("completed: %v %v", dig(o, "date_completed_gmt"), dig(o, "date_modified"))
	}
}

func TestRefunds(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	k := e.key("read")
	id := e.order(OrderSpec{CreatedAt: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC), Shipping: 595,
		Lines: []LineSpec{{ProductID: 11, Quantity: 3}}})
	r1, err := e.s.Refund(testStore, id, RefundSpec{At: time.Date(2026, 3, 4, 2, 0, 0, 0, time.UTC), Reason: "Too big", Lines: []RefundLine{{LineIndex: 0, Quantity: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.s.Refund(testStore, id, RefundSpec{Lines: []RefundLine{{LineIndex: 0, Quantity: 3}}}); err == nil {
		t.Fatal("refunded more units than are left")
	}
	rs := e.get(fmt.Sprintf("orders/%d/refunds", id), k).body
	if ids(rs)[0] != r1 || dig(rs, 0, "amount") != "21.40" || dig(rs, 0, "reason") != "Too big" || dig(rs, 0, "date_created") != "2026-03-03T21:00:00" ||
		dig(rs, 0, "line_items", 0, "quantity") != -1.0 || dig(rs, 0, "line_items", 0, "total") != "-20.00" || dig(rs, 0, "line_items", 0, "total_tax") != "-1.40" ||
		dig(rs, 0, "parent_id") != nil {
		t.Fatalf("refunds: %v", rs)
	}
	o := e.get(fmt.Sprintf("orders/%d", id), k).body
	if dig(o, "refunds", 0, "total") != "-21.40" || dig(o, "status") != "processing" {
		t.Fatalf("order's refunds: %v", dig(o, "refunds"))
	}
	// The rest, shipping included, refunds the order.
	r2, _ := e.s.Refund(testStore, id, RefundSpec{At: time.Date(2026, 3, 5, 12, 0, 0, 0, time.UTC), Lines: []RefundLine{{LineIndex: 0, Quantity: 2}}, Shipping: true})
	all := e.get("refunds?order=asc", k).body
	if fmt.Sprint(ids(all)) != fmt.Sprint([]int64{r1, r2}) || dig(all, 1, "parent_id") != float64(id) || dig(all, 1, "amount") != "49.17" {
		t.Fatalf("/refunds: %v", all)
	}
	if o := e.get(fmt.Sprintf("orders/%d", id), k).body; dig(o, "status") != "refunded" {
		t.Fatalf("fully refunded order is %v", dig(o, "status"))
	}
	if got := ids(e.get("refunds?after=2026-03-04T00:00:00", k).body); len(got) != 1 || got[0] != r2 {
		t.Fatalf("refunds after the 4th (local): %v", got)
	}
	if got := e.get(fmt.Sprintf("orders/%d/refunds/%d", id, r2), k).body; dig(got, "shipping_lines", 0, "total") != "-5.95" {
		t.Fatalf("one refund: %v", got)
	}
	wantError(t, e.do("GET", fmt.Sprintf("orders/%d/refunds/1", id), k, nil), 404, "woocommerce_rest_shop_order_refund_invalid_id", "Invalid ID.")

	// A deleted refund gives its units back: they can be refunded again.
	if err := e.s.DeleteRefund(testStore, id, r1); err != nil {
		t.Fatal(err)
	}
	if got := ids(e.get(fmt.Sprintf("orders/%d/refunds", id), k).body); len(got) != 1 || got[0] != r2 {
		t.Fatalf("refunds after deleting %d: %v", r1, got)
	}
	if _, err := e.s.Refund(testStore, id, RefundSpec{Lines: []RefundLine{{LineIndex: 0, Quantity: 1}}}); err != nil {
		t.Fatalf("the deleted refund's unit: %v", err)
	}
}

func TestProductsCustomersSettingsAndIndex(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	k := e.key("read")
	e.clock.Add(time.Hour)
	if _, err := e.s.SaveProduct(testStore, ProductSpec{ID: 12, Name: "Wool Sock", SKU: "SOCK", Price: 650, Status: "draft"}); err != nil {
		t.Fatal(err)
	}
	ps := e.get("products?orderby=id&order=asc", k).body
	if fmt.Sprint(ids(ps)) != "[11 12]" || dig(ps, 0, "price") != "20.00" || dig(ps, 1, "name") != "Wool Sock" || dig(ps, 1, "status") != "draft" {
		t.Fatalf("products: %v", ps)
	}
	for q, want := range map[string]string{"products?status=publish": "[11]", "products?sku=SOCK": "[12]", "products?modified_after=2026-03-20T12:30:00&dates_are_gmt=true": "[12]"} {
		if got := fmt.Sprint(ids(e.get(q, k).body)); got != want {
			t.Errorf("%s: %s, want %s", q, got, want)
		}
	}
	wantError(t, e.do("GET", "products/77", k, nil), 404, "woocommerce_rest_product_invalid_id", "Invalid ID.")

	c1, _ := e.s.AddCustomer(testStore, time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC))
	e.order(OrderSpec{CustomerID: c1, Lines: []LineSpec{{ProductID: 11, Quantity: 1}}})
	cs := e.get("customers", k)
	if cs.header.Get("X-WP-Total") != "1" || dig(cs.body, 0, "id") != float64(c1) || dig(cs.body, 0, "role") != "customer" || dig(cs.body, 0, "is_paying_customer") != true {
		t.Fatalf("customers: %s", cs.raw)
	}
	wantError(t, e.do("GET", "customers/999", k, nil), 404, "woocommerce_rest_invalid_id", "Invalid resource ID.")

	if s := e.get("settings/general/woocommerce_currency", k).body; dig(s, "value") != "USD" || dig(s, "id") != "woocommerce_currency" {
		t.Fatalf("currency setting: %v", s)
	}
	if len(e.get("settings/general", k).body.([]any)) < 5 || dig(e.get("data/currencies/current", k).body, "code") != "USD" {
		t.Fatal("settings or current currency")
	}
	wantError(t, e.do("GET", "settings/general/nope", k, nil), 404, "rest_setting_setting_invalid", "Invalid setting.")

	// The WordPress index needs no key and names the zone; a manual offset has none.
	idx := e.get(e.srv.URL+"/"+testStore+"/wp-json/", Key{}).body
	if dig(idx, "timezone_string") != "America/New_York" || dig(idx, "gmt_offset") != -4.0 || dig(idx, "home") != e.srv.URL+"/"+testStore {
		t.Fatalf("index: %v", idx)
	}
	if err := e.s.CreateStore(StoreSpec{Slug: "kolkata", Timezone: "UTC+5:30"}); err != nil {
		t.Fatal(err)
	}
	if idx := e.get(e.srv.URL+"/kolkata/wp-json/", Key{}).body; dig(idx, "timezone_string") != "" || dig(idx, "gmt_offset") != 5.5 {
		t.Fatalf("manual offset index: %v", idx)
	}
	home := must(http.Head(e.srv.URL + "/" + testStore + "/"))
	if home.Header.Get("Link") != "<"+e.srv.URL+"/"+testStore+`/wp-json/>; rel="https://api.w.org/"` {
		t.Fatalf("discovery Link %q", home.Header.Get("Link"))
	}
	// Plain permalinks: the same API under ?rest_route=.
	if r := e.get(e.srv.URL+"/"+testStore+"/?rest_route=/wc/v3/products/11", k); dig(r.body, "sku") != "HAT" {
		t.Fatalf("rest_route: %s", r.raw)
	}
}

func TestRESTFaults(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	k := e.key("read")
	_ = e.s.InjectFault(testStore, Fault{Kind: "5xx"})
	wantError(t, e.do("GET", "orders", k, nil), 500, "internal_server_error", criticalError)
	_ = e.s.InjectFault(testStore, Fault{Kind: "429", Delay: 3 * time.Second})
	if r := e.do("GET", "orders", k, nil); r.status != 429 || r.header.Get("Retry-After") != "3" {
		t.Fatalf("429: %d %v", r.status, r.header)
	}
	_ = e.s.InjectFault(testStore, Fault{Kind: "slow", Delay: 80 * time.Millisecond})
	start := time.Now()
	e.get("orders", k)
	if time.Since(start) < 80*time.Millisecond {
		t.Fatal("slow fault did not wait")
	}
	e.get("orders", k) // faults are used up
	if err := e.s.InjectFault(testStore, Fault{Kind: "explode"}); err == nil {
		t.Fatal("unknown fault kind accepted")
	}
}
