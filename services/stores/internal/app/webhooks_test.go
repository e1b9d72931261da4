package app_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"io"
	"log/slog"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"uplift.dev/stores/internal/adapters/shopify"
	"uplift.dev/stores/internal/app"
	"uplift.dev/stores/internal/domain"
)

const webhookSecret = "shpss_unit_test_secret"

// webhookRepo keeps deliveries as the repository's contract says (one per
// shop and event id) and records what the deliveries did.
type webhookRepo struct {
	app.Repository // only the methods below are called
	mu             sync.Mutex
	events         []app.WebhookEvent
	conns          map[string]*app.Connection // by shop
	did            []string                   // what was applied, in order
}

func (r *webhookRepo) RecordWebhook(_ context.Context, ev app.WebhookEvent) (bool, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, e := range r.events {
		if e.Shop == ev.Shop && e.EventID == ev.EventID {
			return false, nil
		}
	}
	r.events = append(r.events, ev)
	return true, nil
}

func (r *webhookRepo) PendingWebhooks(context.Context, int) ([]app.WebhookEvent, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.events), nil
}

func (r *webhookRepo) FinishWebhook(_ context.Context, shop, eventID, failure string, _ time.Time) error {
	r.note("finished " + shop + " " + eventID + " " + failure)
	return nil
}

func (r *webhookRepo) ConnectionByShop(_ context.Context, shop string) (*app.Connection, error) {
	return r.conns[shop], nil
}

func (r *webhookRepo) CategoriesOfShop(_ context.Context, shop string) ([]string, error) {
	if c := r.conns[shop]; c != nil {
		return []string{c.CategoryID}, nil
	}
	return nil, nil
}

func (r *webhookRepo) DeleteShopData(_ context.Context, shop string) error {
	r.note("erased " + shop)
	return nil
}

func (r *webhookRepo) Disconnect(_ context.Context, categoryID, status string, _ time.Time) error {
	r.note("disconnected " + categoryID)
	return nil
}

func (r *webhookRepo) DeleteOrder(_ context.Context, categoryID, orderID string) error {
	r.note("deleted " + categoryID + " " + orderID)
	return nil
}

func (r *webhookRepo) SaveOrders(_ context.Context, link app.ShopLink, orders []domain.Order) (int, error) {
	for _, o := range orders {
		r.note("saved " + link.CategoryID + " " + o.ID)
	}
	return len(orders), nil
}

func (r *webhookRepo) RedactCustomers(_ context.Context, categoryID string, customers, orders []string) error {
	r.note("redacted " + categoryID)
	return nil
}

func (r *webhookRepo) note(s string) {
	r.mu.Lock()
	r.did = append(r.did, s)
	r.mu.Unlock()
}

func (r *webhookRepo) done() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.did)
}

// shopAPI is a shop's Admin API holding the orders in has.
type shopAPI struct {
	app.ShopClient
	has map[int64]bool
}

func (s shopAPI) Order(_ context.Context, id int64, _ *time.Location) (domain.Order, bool, error) {
	if !s.has[id] {
		return domain.Order{}, false, nil
	}
	return domain.Order{ID: "shopify:" + strconv.FormatInt(id, 10)}, true, nil
}

// Two connected shops, a and b; each shop's API has the orders of apiOrders.
func newWebhookApp(t *testing.T, apiOrders map[string][]int64) (*app.App, *webhookRepo) {
	t.Helper()
	repo := &webhookRepo{conns: map[string]*app.Connection{
		"a.myshopify.com": {CategoryID: "cat-a", Shop: "a.myshopify.com", Status: app.StatusConnected},
		"b.myshopify.com": {CategoryID: "cat-b", Shop: "b.myshopify.com", Status: app.StatusConnected},
	}}
	client := func(shop string, _ app.TokenSource) app.ShopClient {
		has := map[int64]bool{}
		for _, id := range apiOrders[shop] {
			has[id] = true
		}
		return shopAPI{has: has}
	}
	a := app.New(repo, nil, shopify.New(shopify.Config{APISecret: webhookSecret}), client, nil,
		slog.New(slog.NewTextHandler(io.Discard, nil)), app.Options{})
	return a, repo
}

func signed(topic, shop, eventID, body string) app.Webhook {
	m := hmac.New(sha256.New, []byte(webhookSecret))
	m.Write([]byte(body))
	return app.Webhook{Payload: []byte(body), HMAC: base64.StdEncoding.EncodeToString(m.Sum(nil)),
		Topic: topic, Shop: shop, EventID: eventID}
}

// Bodies as Shopify (and the simulator) sign them for shop a.
const (
	shopRedactA     = `{"shop_id":1,"shop_domain":"a.myshopify.com"}`
	customerRedactA = `{"shop_id":1,"shop_domain":"a.myshopify.com","customer":{"id":7,"email":"c@example.com","phone":null},"orders_to_redact":[11]}`
	dataRequestA    = `{"shop_id":1,"shop_domain":"a.myshopify.com","customer":{"id":7},"orders_requested":[11],"data_request":{"id":3}}`
	uninstalledA    = `{"id":1,"name":"A","domain":"a.example","myshopify_domain":"a.myshopify.com"}`
	orderA          = `{"id":11,"admin_graphql_api_id":"gid://shopify/Order/11","name":"#1001"}`
	refundA         = `{"id":21,"admin_graphql_api_id":"gid://shopify/Refund/21","order_id":11}`
	productA        = `{"id":31,"admin_graphql_api_id":"gid://shopify/Product/31","title":"Mug"}`
	customerA       = `{"id":7,"admin_graphql_api_id":"gid://shopify/Customer/7"}`
	orderDeletedA   = `{"id":11}`
)

func wantRefused(t *testing.T, err error, field string) {
	t.Helper()
	var ve *domain.ValidationError
	if !errors.As(err, &ve) || ve.Field != field || ve.Message == "" {
		t.Fatalf("err = %v, want a ValidationError on %s", err, field)
	}
}

// The finding: a body Shopify signed for shop a, sent with shop b in the
// header, erased or disconnected b. Every body that names its shop is now
// refused for another shop, and nothing is queued.
func TestWebhookForAnotherShopThanItsBodyIsRefused(t *testing.T) {
	t.Parallel()
	for topic, body := range map[string]string{"shop/redact": shopRedactA, "customers/redact": customerRedactA,
		"customers/data_request": dataRequestA, "app/uninstalled": uninstalledA} {
		a, repo := newWebhookApp(t, nil)
		err := a.ReceiveWebhook(context.Background(), signed(topic, "b.myshopify.com", "e1", body))
		wantRefused(t, err, "X-Shopify-Shop-Domain")
		if err := a.ProcessWebhooks(context.Background()); err != nil || len(repo.done()) != 0 {
			t.Fatalf("%s for b: applied %v (%v)", topic, repo.done(), err)
		}
	}
}

// A body is held to what its topic can carry, told by the fields each kind
// of body must have.
func TestWebhookBodyThatItsTopicCannotCarryIsRefused(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ topic, body string }{
		{"customers/data_request", shopRedactA},
		{"customers/redact", shopRedactA},
		{"shop/redact", customerRedactA},
		{"shop/redact", dataRequestA},
		{"customers/redact", dataRequestA},
		{"customers/data_request", customerRedactA},
		{"shop/redact", orderA},
		{"shop/redact", uninstalledA},
		{"shop/redact", orderDeletedA},
		{"app/uninstalled", shopRedactA},
		{"app/uninstalled", orderA},
		{"orders/create", productA},
		{"orders/updated", orderDeletedA},
		{"orders/create", shopRedactA},
		{"refunds/create", orderA},
		{"products/update", customerA},
		{"customers/create", orderA},
		{"orders/delete", uninstalledA},
		{"orders/delete", refundA},
		{"orders/create", `{"id":12,"admin_graphql_api_id":"gid://shopify/Order/11"}`},
		{"shop/redact", `{"shop_domain":"a.myshopify.com"}`},
	} {
		a, repo := newWebhookApp(t, nil)
		err := a.ReceiveWebhook(context.Background(), signed(c.topic, "a.myshopify.com", "e1", c.body))
		wantRefused(t, err, "X-Shopify-Topic")
		if err := a.ProcessWebhooks(context.Background()); err != nil || len(repo.done()) != 0 {
			t.Fatalf("%s with %s: applied %v (%v)", c.topic, c.body, repo.done(), err)
		}
	}
	a, _ := newWebhookApp(t, nil)
	wantRefused(t, a.ReceiveWebhook(context.Background(), signed("shop/redact", "a.myshopify.com", "e1", `[1]`)), "payload")
}

func TestWebhookHeaderShopMustBeAShopDomain(t *testing.T) {
	t.Parallel()
	a, _ := newWebhookApp(t, nil)
	for _, shop := range []string{"", "evil.com", "a.myshopify.com.evil.com", "https://a.myshopify.com:8443"} {
		wantRefused(t, a.ReceiveWebhook(context.Background(), signed("orders/create", shop, "e1", orderA)), "X-Shopify-Shop-Domain")
	}
}

// The genuine deliveries still do what they did, for the shop they name.
func TestGenuineWebhooksApplyToTheirShop(t *testing.T) {
	t.Parallel()
	a, repo := newWebhookApp(t, map[string][]int64{"a.myshopify.com": {11}})
	for i, c := range []struct{ topic, body string }{
		{"orders/create", orderA}, {"refunds/create", refundA}, {"customers/redact", customerRedactA},
		{"customers/data_request", dataRequestA}, {"app/uninstalled", uninstalledA}, {"shop/redact", shopRedactA},
	} {
		if err := a.ReceiveWebhook(context.Background(), signed(c.topic, "A.myshopify.com", "e"+strconv.Itoa(i), c.body)); err != nil {
			t.Fatalf("%s: %v", c.topic, err)
		}
	}
	if err := a.ProcessWebhooks(context.Background()); err != nil {
		t.Fatal(err)
	}
	want := []string{"saved cat-a shopify:11", "finished a.myshopify.com e0 ", "saved cat-a shopify:11", "finished a.myshopify.com e1 ",
		"redacted cat-a", "finished a.myshopify.com e2 ", "finished a.myshopify.com e3 ",
		"disconnected cat-a", "finished a.myshopify.com e4 ", "erased a.myshopify.com", "finished a.myshopify.com e5 "}
	if got := repo.done(); !slices.Equal(got, want) {
		t.Fatalf("applied\n %q\nwant\n %q", got, want)
	}
}

// An event id is kept once per shop: the same id again for the same shop is
// a duplicate, but sent for another shop first it does not use up the id
// for that shop's own delivery.
func TestWebhookEventIDIsKeptOncePerShop(t *testing.T) {
	t.Parallel()
	a, repo := newWebhookApp(t, nil)
	ctx := context.Background()
	for _, w := range []app.Webhook{
		signed("orders/create", "b.myshopify.com", "e1", orderA), // a's order body, b's header: b's order 11
		signed("shop/redact", "a.myshopify.com", "e1", shopRedactA),
		signed("shop/redact", "a.myshopify.com", "e1", shopRedactA),
	} {
		if err := a.ReceiveWebhook(ctx, w); err != nil {
			t.Fatal(err)
		}
	}
	repo.mu.Lock()
	defer repo.mu.Unlock()
	if len(repo.events) != 2 || repo.events[0].Shop != "b.myshopify.com" || repo.events[1].Shop != "a.myshopify.com" ||
		repo.events[1].Topic != "shop/redact" {
		t.Fatalf("queued %+v, want b's order and a's shop/redact once", repo.events)
	}
}

// orders/delete deletes only what the shop's API no longer has: an order
// body replayed under orders/delete (for its own shop, or another shop with
// an order of the same id) keeps the order, stored as the API has it.
func TestOrdersDeleteDeletesOnlyWhatTheShopNoLongerHas(t *testing.T) {
	t.Parallel()
	a, repo := newWebhookApp(t, map[string][]int64{"b.myshopify.com": {11}})
	ctx := context.Background()
	for _, w := range []app.Webhook{
		signed("orders/delete", "b.myshopify.com", "e1", orderDeletedA), // b still has its order 11
		signed("orders/delete", "b.myshopify.com", "e2", orderA),
		signed("orders/delete", "a.myshopify.com", "e3", orderDeletedA), // a's order 11 is gone
	} {
		if err := a.ReceiveWebhook(ctx, w); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.ProcessWebhooks(ctx); err != nil {
		t.Fatal(err)
	}
	want := []string{"saved cat-b shopify:11", "finished b.myshopify.com e1 ", "saved cat-b shopify:11", "finished b.myshopify.com e2 ",
		"deleted cat-a shopify:11", "finished a.myshopify.com e3 "}
	if got := repo.done(); !slices.Equal(got, want) {
		t.Fatalf("applied\n %q\nwant\n %q", got, want)
	}
}

// A delivery queued before the shop was checked (by an older version) is
// held to its body's shop when it is applied.
func TestQueuedWebhookIsHeldToItsBodysShop(t *testing.T) {
	t.Parallel()
	a, repo := newWebhookApp(t, nil)
	repo.events = []app.WebhookEvent{{EventID: "old", Shop: "b.myshopify.com", Topic: "shop/redact", Payload: []byte(shopRedactA)}}
	if err := a.ProcessWebhooks(context.Background()); err != nil {
		t.Fatal(err)
	}
	got := repo.done()
	if len(got) != 1 || got[0] == "finished b.myshopify.com old " || slices.Contains(got, "erased b.myshopify.com") {
		t.Fatalf("applied %q, want only a recorded failure", got)
	}
}
