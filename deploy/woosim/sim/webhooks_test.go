package sim

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

type received struct {
	header http.Header
	body   []byte
}

// hookReceiver records every request and answers status(n) to the n-th
// delivery (pings are recorded, answered 200 and not counted).
func hookReceiver(t *testing.T, status func(n int) int) (*httptest.Server, func() []received) {
	var mu sync.Mutex
	var got []received
	n := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		defer mu.Unlock()
		got = append(got, received{r.Header.Clone(), body})
		if r.Header.Get("X-WC-Webhook-Topic") == "" {
			return
		}
		n++
		w.WriteHeader(status(n))
	}))
	t.Cleanup(srv.Close)
	return srv, func() []received { mu.Lock(); defer mu.Unlock(); return append([]received(nil), got...) }
}

func always(code int) func(int) int { return func(int) int { return code } }

func (e *env) hook(k Key, topic, url, secret string) int64 {
	e.t.Helper()
	r := e.do("POST", "webhooks", k, map[string]string{"name": "Uplift " + topic, "topic": topic, "delivery_url": url, "secret": secret})
	if r.status != 201 || dig(r.body, "status") != "active" || dig(r.body, "topic") != topic || dig(r.body, "resource") == nil {
		e.t.Fatalf("create webhook: %d %s", r.status, r.raw)
	}
	return int64(dig(r.body, "id").(float64))
}

func (e *env) delivered(n int) []Delivery {
	e.t.Helper()
	var ds []Delivery
	waitFor(e.t, fmt.Sprintf("%d deliveries", n), func() bool {
		ds = nil
		for _, d := range e.s.Deliveries(testStore) {
			if d.Topic != "ping" && d.Attempts > 0 {
				ds = append(ds, d)
			}
		}
		return len(ds) >= n
	})
	return ds
}

func TestWebhookDeliveryIsSignedWithTheWebhooksSecret(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	k := e.key("read_write")
	rcv, got := hookReceiver(t, always(200))
	hookID := e.hook(k, "order.created", rcv.URL+"/woo", "s3cret-of-this-hook")
	waitFor(t, "the ping", func() bool { return len(got()) == 1 })
	if ping := got()[0]; string(ping.body) != fmt.Sprintf("webhook_id=%d", hookID) || ping.header.Get("X-WC-Webhook-Signature") != "" {
		t.Fatalf("ping: %q %v", ping.body, ping.header)
	}

	id := e.order(hat(time.Date(2026, 3, 19, 12, 0, 0, 0, time.UTC)))
	d := e.delivered(1)[0]
	req := got()[1]
	if Sign("s3cret-of-this-hook", req.body) != req.header.Get("X-WC-Webhook-Signature") || d.Signature != req.header.Get("X-WC-Webhook-Signature") {
		t.Fatal("the signature does not verify with the webhook's secret")
	}
	if Sign("another-secret", req.body) == req.header.Get("X-WC-Webhook-Signature") {
		t.Fatal("the signature verifies with another secret")
	}
	for h, want := range map[string]string{
		"X-WC-Webhook-Source": e.srv.URL + "/" + testStore + "/", "X-WC-Webhook-Topic": "order.created", "X-WC-Webhook-Resource": "order",
		"X-WC-Webhook-Event": "created", "X-WC-Webhook-ID": fmt.Sprint(hookID), "X-WC-Webhook-Delivery-ID": d.ID, "Content-Type": "application/json",
	} {
		if req.header.Get(h) != want {
			t.Errorf("%s = %q, want %q", h, req.header.Get(h), want)
		}
	}
	var body, api map[string]any
	_ = json.Unmarshal(req.body, &body)
	_ = json.Unmarshal(e.get(fmt.Sprintf("orders/%d", id), k).raw, &api)
	if fmt.Sprint(body) != fmt.Sprint(api) {
		t.Fatalf("payload is not the order as the API shows it:\n%v\n%v", body, api)
	}

	_ = e.s.InjectFault(testStore, Fault{Kind: "webhook-badsig"})
	e.order(hat(time.Date(2026, 3, 19, 13, 0, 0, 0, time.UTC)))
	e.delivered(2)
	if bad := got()[2]; Sign("s3cret-of-this-hook", bad.body) == bad.header.Get("X-WC-Webhook-Signature") {
		t.Fatal("webhook-badsig fault signed with the right secret")
	}
}

func TestWebhookTopicsAndCollapsing(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{WebhookDelay: 40 * time.Millisecond})
	k := e.key("read_write")
	rcv, got := hookReceiver(t, always(200))
	for _, topic := range []string{"order.updated", "order.deleted", "product.updated", "product.deleted"} {
		e.hook(k, topic, rcv.URL, "sec")
	}
	id := e.order(hat(time.Date(2026, 3, 19, 12, 0, 0, 0, time.UTC)))
	// A status change and a refund within the queue's delay: one order.updated, built at send time.
	_ = e.s.SetStatus(testStore, id, "completed", time.Time{})
	_, _ = e.s.Refund(testStore, id, RefundSpec{Amount: 100})
	_, _ = e.s.SaveProduct(testStore, ProductSpec{ID: 11, Name: "Hat", SKU: "HAT", Price: 2100})
	ds := e.delivered(2)
	time.Sleep(60 * time.Millisecond)
	if ds = e.delivered(2); len(ds) != 2 {
		t.Fatalf("deliveries: %+v", ds)
	}
	var order map[string]any
	for _, r := range got() {
		if r.header.Get("X-WC-Webhook-Topic") == "order.updated" {
			_ = json.Unmarshal(r.body, &order)
		}
	}
	if order["status"] != "completed" || dig(order, "refunds", 0, "total") != "-1.00" {
		t.Fatalf("collapsed order.updated payload: %v", order)
	}
	_ = e.s.DeleteOrder(testStore, id, true)
	_ = e.s.DeleteProduct(testStore, 12)
	e.delivered(4)
	for _, r := range got()[len(got())-2:] {
		if string(r.body) != fmt.Sprintf(`{"id":%d}`, id) && string(r.body) != `{"id":12}` {
			t.Fatalf("%s body %s", r.header.Get("X-WC-Webhook-Topic"), r.body)
		}
	}
}

// WooCommerce never retries; it counts failures in a row and, once the
// count exceeds 5, disables the webhook at the next one: the 7th.
func TestFailingWebhookIsDisabledAtTheSeventhFailure(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	k := e.key("read_write")
	rcv, got := hookReceiver(t, func(n int) int {
		if n == 3 {
			return 302 // counts as delivered and resets the count
		}
		return 500
	})
	hookID := e.hook(k, "order.created", rcv.URL, "sec")
	state := func() WebhookState { return e.s.Webhooks(testStore)[0] }
	for i := 1; i <= 10; i++ {
		e.order(hat(time.Date(2026, 3, 19, 12, i, 0, 0, time.UTC)))
		e.delivered(i)
		if st := state(); i == 9 && (st.Status != "active" || st.FailureCount != 6) {
			t.Fatalf("after 2 failures, a success and 6 failures: %+v", st)
		}
	}
	ds := e.delivered(10)
	for _, d := range ds {
		if d.Attempts != 1 {
			t.Fatalf("retried: %+v", d)
		}
	}
	if st := state(); st.Status != "disabled" || st.FailureCount != 6 {
		t.Fatalf("after the 7th failure in a row: %+v", st)
	}
	if r := e.get(fmt.Sprintf("webhooks/%d", hookID), k); dig(r.body, "status") != "disabled" {
		t.Fatalf("REST status %v", dig(r.body, "status"))
	}
	n := len(got())
	e.order(hat(time.Date(2026, 3, 19, 14, 0, 0, 0, time.UTC)))
	time.Sleep(50 * time.Millisecond)
	if len(got()) != n {
		t.Fatal("a disabled webhook was delivered")
	}
	if r := e.do("PUT", fmt.Sprintf("webhooks/%d", hookID), k, map[string]string{"status": "active"}); r.status != 200 || dig(r.body, "status") != "active" {
		t.Fatalf("re-enable: %d %s", r.status, r.raw)
	}
	e.order(hat(time.Date(2026, 3, 19, 15, 0, 0, 0, time.UTC)))
	e.delivered(11)
	if st := state(); st.FailureCount != 1 || st.Status != "active" {
		t.Fatalf("re-enabled webhook starts counting again: %+v", st)
	}
}

func TestWebhookRetriesSwitch(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	k := e.key("read_write")
	rcv, _ := hookReceiver(t, func(n int) int {
		if n <= 2 {
			return 503
		}
		return 200
	})
	e.hook(k, "order.created", rcv.URL, "sec")
	if err := e.s.SetWebhookRetries(testStore, 2); err != nil {
		t.Fatal(err)
	}
	e.order(hat(time.Date(2026, 3, 19, 12, 0, 0, 0, time.UTC)))
	waitFor(t, "a delivery after retries", func() bool { ds := e.delivered(1); return ds[0].Delivered })
	if d := e.delivered(1)[0]; d.Attempts != 3 || d.Status != 200 {
		t.Fatalf("delivery: %+v", d)
	}
	waitFor(t, "the count", func() bool { return e.s.Webhooks(testStore)[0].FailureCount == 0 })
}

func TestWebhookREST(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	k := e.key("read_write")
	wantError(t, e.do("POST", "webhooks", k, map[string]string{"topic": "order.exploded", "delivery_url": "https://a.example"}),
		400, "woocommerce_rest_webhook_invalid_topic", "Webhook topic is required and must be valid.")
	wantError(t, e.do("POST", "webhooks", k, map[string]string{"topic": "order.created", "delivery_url": "ftp://a.example"}),
		400, "woocommerce_rest_webhook_invalid_delivery_url", "")
	wantError(t, e.do("POST", "webhooks", k, "not an object"), 400, "rest_invalid_json", "")
	id := e.hook(k, "order.created", "http://127.0.0.1:1/unreachable", "sec")
	e.hook(k, "product.created", "http://127.0.0.1:1/unreachable", "sec")
	if r := e.get("webhooks?status=active", k); r.header.Get("X-WP-Total") != "2" {
		t.Fatalf("list: %s", r.raw)
	}
	if r := e.do("PUT", fmt.Sprintf("webhooks/%d", id), k, map[string]string{"status": "paused"}); dig(r.body, "status") != "paused" {
		t.Fatalf("pause: %s", r.raw)
	}
	wantError(t, e.do("DELETE", fmt.Sprintf("webhooks/%d", id), k, nil), 501, "woocommerce_rest_trash_not_supported", "Webhooks do not support trashing.")
	if r := e.do("DELETE", fmt.Sprintf("webhooks/%d?force=true", id), k, nil); r.status != 200 || dig(r.body, "id") != float64(id) {
		t.Fatalf("delete: %d %s", r.status, r.raw)
	}
	wantError(t, e.do("GET", fmt.Sprintf("webhooks/%d", id), k, nil), 404, "woocommerce_rest_webhook_invalid_id", "Invalid ID.")
}
