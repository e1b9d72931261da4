package sim

import (
	"fmt"
	"net/http/httptest"
	"reflect"
	"testing"
	"time"

	"uplift.dev/shopifysim/teashop"
)

// demoOrders seeds the demo store at now and reads every order back through
// the REST API, a hundred a page, as a client would.
func demoOrders(t *testing.T, now time.Time) ([]map[string]any, *env) {
	t.Helper()
	s := New(Options{Clock: func() time.Time { return now }, DemoStoreURL: "http://127.0.0.1:9400/"})
	srv := httptest.NewServer(s.Handler())
	s.SetBaseURL(srv.URL)
	t.Cleanup(func() { srv.Close(); s.Close() })
	if err := SeedDemo(s, now); err != nil {
		t.Fatal(err)
	}
	e := &env{t: t, s: s, srv: srv}
	k, _ := s.IssueKey(DemoStore, "Uplift", "u", "read")
	var out []map[string]any
	for p := 1; ; p++ {
		r := e.get(fmt.Sprintf("%s/%s/wp-json/wc/v3/orders?per_page=100&page=%d&order=asc&status=any", srv.URL, DemoStore, p), k)
		for _, o := range r.body.([]any) {
			delete(o.(map[string]any), "_links") // the test server's address
			out = append(out, o.(map[string]any))
		}
		if fmt.Sprint(p) == r.header.Get("X-WP-TotalPages") {
			return out, e
		}
	}
}

func TestDemoStoreShape(t *testing.T) {
	t.Parallel()
	// 120 days before 24 November 2026 reach back into July: New York
	// left summer time on 1 November, inside the history.
	now := time.Date(2026, 11, 24, 15, 0, 0, 0, time.UTC)
	orders, e := demoOrders(t, now)
	again, _ := demoOrders(t, now)
	if !reflect.DeepEqual(orders, again) {
		t.Fatal("two seeds with the same now differ")
	}
	if len(orders) < 120*8 || len(orders) > 120*30 {
		t.Fatalf("%d orders", len(orders))
	}
	ny, _ := time.LoadLocation("America/New_York")
	today := time.Date(2026, 11, 24, 0, 0, 0, 0, ny)
	first := today.AddDate(0, 0, -120)
	byStatus := map[string]int{}
	offsets := map[time.Duration]int{}
	var refunds, laterDay, coupons int
	k, _ := e.s.IssueKey(DemoStore, "Uplift", "u", "read")
	for _, o := range orders {
		byStatus[o["status"].(string)]++
		local, _ := time.ParseInLocation("2006-01-02T15:04:05", o["date_created"].(string), ny)
		gmt, _ := time.Parse("2006-01-02T15:04:05", o["date_created_gmt"].(string))
		if !local.Equal(gmt) {
			t.Fatalf("order %v: %s local is not %s UTC", o["id"], o["date_created"], o["date_created_gmt"])
		}
		if local.Before(first) || !local.Before(today) {
			t.Fatalf("order %v dated %s, outside the 120 days before today", o["id"], o["date_created"])
		}
		_, off := local.Zone()
		offsets[time.Duration(off)*time.Second]++
		paid := o["date_paid"] != nil
		switch o["status"] {
		case "pending", "failed", "cancelled", "on-hold":
			if paid {
				t.Fatalf("unpaid %s order %v has date_paid", o["status"], o["id"])
			}
		default:
			if !paid {
				t.Fatalf("%s order %v has no date_paid", o["status"], o["id"])
			}
		}
		if len(o["coupon_lines"].([]any)) > 0 {
			coupons++
		}
		if len(o["refunds"].([]any)) == 0 {
			continue
		}
		for _, rf := range e.get(fmt.Sprintf("%s/%s/wp-json/wc/v3/orders/%v/refunds", e.srv.URL, DemoStore, o["id"]), k).body.([]any) {
			refunds++
			if rf.(map[string]any)["date_created"].(string)[:10] > o["date_created"].(string)[:10] {
				laterDay++
			}
		}
	}
	for _, st := range []string{"processing", "completed", "refunded", "cancelled", "failed", "pending", "on-hold"} {
		if byStatus[st] == 0 {
			t.Errorf("no %s orders: %v", st, byStatus)
		}
	}
	if refunds < 40 || laterDay < refunds/2 || laterDay == refunds {
		t.Errorf("%d refunds, %d on a later day than their order", refunds, laterDay)
	}
	if offsets[-4*time.Hour] < 500 || offsets[-5*time.Hour] < 200 || len(offsets) != 2 {
		t.Errorf("orders by UTC offset: %v (summer and winter time both)", offsets)
	}
	if coupons < len(orders)/20 {
		t.Errorf("%d orders with a coupon", coupons)
	}
	if dig(orders[0], "tax_lines", 0, "rate_percent") != 7.0 || orders[0]["currency"] != "USD" {
		t.Errorf("tax and currency: %v %v", orders[0]["tax_lines"], orders[0]["currency"])
	}
	t.Logf("%d orders %v, %d refunds (%d on a later day), %d with a coupon", len(orders), byStatus, refunds, laterDay, coupons)
}

// The demo store is the demo website's business: the same teas, SKUs,
// prices and photos, and every order line one of them.
func TestDemoStoreSellsTheTeaShopsCatalogue(t *testing.T) {
	t.Parallel()
	orders, e := demoOrders(t, time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC))
	k, _ := e.s.IssueKey(DemoStore, "Uplift", "u", "read")
	ps := e.get(e.srv.URL+"/"+DemoStore+"/wp-json/wc/v3/products?orderby=id&order=asc", k).body.([]any)
	if len(ps) != len(teashop.Catalogue) {
		t.Fatalf("%d products", len(ps))
	}
	skus := map[string]bool{}
	for i, want := range teashop.Catalogue {
		got := [4]any{dig(ps[i], "name"), dig(ps[i], "sku"), dig(ps[i], "price"), dig(ps[i], "images", 0, "src")}
		exp := [4]any{want.Title, want.SKU(), money(want.PriceCents), "http://127.0.0.1:9400/photos/" + want.Handle + ".jpg"}
		if got != exp {
			t.Errorf("product %d: %v, want %v", i, got, exp)
		}
		skus[want.SKU()] = true
	}
	for _, o := range orders {
		for _, l := range o["line_items"].([]any) {
			if !skus[dig(l, "sku").(string)] {
				t.Fatalf("order %v sells %v", o["id"], dig(l, "sku"))
			}
		}
	}
	idx := e.get(e.srv.URL+"/"+DemoStore+"/wp-json/", Key{}).body
	if dig(idx, "name") != teashop.Name || dig(idx, "timezone_string") != "America/New_York" {
		t.Fatalf("index: %v", idx)
	}
}
