package sim

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestThrottleBucketEmptiesAndRefills(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{AutoApprove: true}, ShopSpec{Domain: testShop, MaxAvailable: 100, RestoreRate: 10})
	tok := e.install(testShop, "read_orders")
	base := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	for i := range 20 {
		if _, err := e.s.AddOrder(testShop, simpleOrder(base.Add(time.Duration(i)*time.Hour))); err != nil {
			t.Fatal(err)
		}
	}
	// 2 + 20 × (1 order + 2 + 1 line) = 82
	q := `{ orders(first: 20) { edges { node { id lineItems(first: 1) { edges { node { id } } } } } } }`
	st, out := e.gqlStatus(testShop, tok, q, nil)
	cost := dig(out, "extensions", "cost")
	if st != 200 || out["errors"] != nil || dig(cost, "requestedQueryCost") != 82.0 || dig(cost, "actualQueryCost") != 82.0 ||
		dig(cost, "throttleStatus", "currentlyAvailable") != 18.0 || dig(cost, "throttleStatus", "maximumAvailable") != 100.0 || dig(cost, "throttleStatus", "restoreRate") != 10.0 {
		t.Fatalf("first call: %d %v", st, out)
	}
	st, out = e.gqlStatus(testShop, tok, q, nil)
	if st != 200 || dig(out, "errors", 0, "extensions", "code") != "THROTTLED" || dig(out, "errors", 0, "message") != "Throttled" ||
		out["data"] != nil || dig(out, "extensions", "cost", "actualQueryCost") != nil {
		t.Fatalf("expected THROTTLED: %v", out)
	}
	e.clock.Add(7 * time.Second) // 18 + 70 = 88 ≥ 82
	if st, out = e.gqlStatus(testShop, tok, q, nil); out["errors"] != nil {
		t.Fatalf("after refill: %v", out)
	}
	// requested 2 + 3 × (1 + 2 + 5); actual counts what came back: 2 + 3 × (1 + 2 + 1)
	e.clock.Add(time.Minute)
	_, out = e.gqlStatus(testShop, tok, `{ orders(first: 3) { edges { node { id lineItems(first: 5) { edges { node { id } } } } } } }`, nil)
	if dig(out, "extensions", "cost", "requestedQueryCost") != 26.0 || dig(out, "extensions", "cost", "actualQueryCost") != 14.0 {
		t.Fatalf("cost: %v", dig(out, "extensions"))
	}
	if err := e.s.InjectFault(testShop, Fault{Kind: "throttle"}); err != nil {
		t.Fatal(err)
	}
	if _, out = e.gqlStatus(testShop, tok, `{ shop { name } }`, nil); dig(out, "errors", 0, "extensions", "code") != "THROTTLED" {
		t.Fatalf("throttle fault: %v", out)
	}
}

func TestMaxCostExceeded(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{AutoApprove: true})
	tok := e.install(testShop, "read_orders")
	st, out := e.gqlStatus(testShop, tok, `query($n: Int) { orders(first: $n) { edges { node { lineItems(first: 10) { edges { node { id } } } } } } }`, map[string]any{"n": 250})
	if st != 200 || dig(out, "errors", 0, "extensions", "code") != "MAX_COST_EXCEEDED" || dig(out, "extensions", "cost", "requestedQueryCost") != 3252.0 {
		t.Fatalf("%d %v", st, out)
	}
}

func TestFaults(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{AutoApprove: true})
	tok := e.install(testShop, "read_orders")
	_ = e.s.InjectFault(testShop, Fault{Kind: "5xx", Count: 2})
	_ = e.s.InjectFault(testShop, Fault{Kind: "429", Delay: 500 * time.Millisecond})
	for _, want := range []int{503, 503, 429, 200} {
		if st, _ := e.gqlStatus(testShop, tok, `{ shop { name } }`, nil); st != want {
			t.Fatalf("want %d, got %d", want, st)
		}
	}
	if err := e.s.InjectFault(testShop, Fault{Kind: "nonsense"}); err == nil {
		t.Fatal("unknown fault kind accepted")
	}
}

func TestOrdersPaginationSchemaAndFilters(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{AutoApprove: true})
	tok := e.install(testShop, "read_orders")
	_ = e.s.AddProduct(testShop, 1, "Wool Hat")
	_ = e.s.AddCustomer(testShop, 77)
	base := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	var ids []int64
	for i := range 5 {
		o := simpleOrder(base.Add(time.Duration(i) * 24 * time.Hour))
		o.CustomerID = 77
		o.Test = i == 4
		id, err := e.s.AddOrder(testShop, o)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	if err := e.s.Refund(testShop, ids[0], RefundSpec{At: base.Add(10 * 24 * time.Hour), Lines: []RefundLine{{0, 1}}}); err != nil {
		t.Fatal(err)
	}

	var got []string
	after := any(nil)
	for page := 0; ; page++ {
		d := e.gql(testShop, tok, `query($after: String) { orders(first: 2, after: $after, sortKey: CREATED_AT) { edges { cursor node { id } } pageInfo { hasNextPage endCursor } } }`, map[string]any{"after": after})
		for _, ed := range dig(d, "orders", "edges").([]any) {
			got = append(got, dig(ed, "node", "id").(string))
		}
		if dig(d, "orders", "pageInfo", "hasNextPage") == false {
			break
		}
		after = dig(d, "orders", "pageInfo", "endCursor")
		if page > 5 {
			t.Fatal("pagination does not end")
		}
	}
	if len(got) != 5 || got[0] != gid("Order", ids[0]) || got[4] != gid("Order", ids[4]) {
		t.Fatalf("pages: %v", got)
	}

	d := e.gql(testShop, tok, `{ orders(first: 10, sortKey: UPDATED_AT, reverse: true, query: "updated_at:>=2026-03-02T00:00:00Z AND test:false") { edges { node { legacyResourceId updatedAt } } } }`, nil)
	edges := dig(d, "orders", "edges").([]any)
	if len(edges) != 4 || dig(edges[0], "node", "legacyResourceId") != fmt.Sprint(ids[0]) || dig(edges[0], "node", "updatedAt") != "2026-03-11T12:00:00Z" {
		t.Fatalf("filter+sort: %v", edges)
	}
	d = e.gql(testShop, tok, `{ a: ordersCount(query: "created_at:>=2026-03-03T12:00:00Z") { count } b: ordersCount(query: "created_at:>2026-03-03T12:00:00Z test:false") { count } productsCount { count } customersCount { count } }`, nil)
	if dig(d, "a", "count") != 3.0 || dig(d, "b", "count") != 1.0 || dig(d, "productsCount", "count") != 1.0 || dig(d, "customersCount", "count") != 1.0 {
		t.Fatalf("counts: %v", d)
	}

	d = e.gql(testShop, tok, `query($id: ID!) { shop { id name myshopifyDomain ianaTimezone currencyCode taxesIncluded }
	  order(id: $id) { id name test currencyCode customer { id } processedAt cancelledAt
	    lineItems(first: 5) { edges { node { id name sku quantity isGiftCard product { id title } originalUnitPriceSet { shopMoney { amount currencyCode } } totalDiscountSet { presentmentMoney { amount } } } } }
	    agreements(first: 5) { edges { node { __typename id happenedAt reason
	      sales(first: 5) { edges { node { __typename actionType lineType quantity totalAmount { shopMoney { amount } } totalTaxAmount { shopMoney { amount } } totalDiscountAmountBeforeTaxes { shopMoney { amount } }
	        ...on ProductSale { lineItem { id sku product { title } } } } } } } } } }
	  products(first: 5) { nodes { id title handle status } }
	  customers(first: 5) { edges { node { id numberOfOrders } } } }`, map[string]any{"id": gid("Order", ids[0])})
	if dig(d, "shop", "ianaTimezone") != "America/New_York" || dig(d, "shop", "currencyCode") != "USD" || dig(d, "order", "name") != "#1001" ||
		dig(d, "order", "customer", "id") != "gid://shopify/Customer/77" || dig(d, "order", "lineItems", "edges", 0, "node", "product", "title") != "Wool Hat" ||
		dig(d, "order", "lineItems", "edges", 0, "node", "originalUnitPriceSet", "shopMoney", "amount") != "20.00" ||
		dig(d, "products", "nodes", 0, "handle") != "wool-hat" || dig(d, "customers", "edges", 0, "node", "numberOfOrders") != "5" {
		t.Fatalf("fields: %v", d)
	}
	ags := dig(d, "order", "agreements", "edges").([]any)
	ret := dig(ags[1], "node", "sales", "edges", 0, "node")
	if len(ags) != 2 || dig(ags[0], "node", "__typename") != "OrderAgreement" || dig(ags[1], "node", "reason") != "REFUND" ||
		dig(ret, "__typename") != "ProductSale" || dig(ret, "actionType") != "RETURN" || dig(ret, "quantity") != -1.0 ||
		dig(ret, "totalAmount", "shopMoney", "amount") != "-21.40" || dig(ret, "lineItem", "product", "title") != "Wool Hat" {
		t.Fatalf("agreements: %v", ags)
	}

	if st, out := e.gqlStatus(testShop, tok, `{ orders(first: 251) { edges { node { id } } } }`, nil); st != 200 || out["errors"] == nil {
		t.Fatalf("first > 250 accepted: %v", out)
	}
	if _, out := e.gqlStatus(testShop, tok, `{ orders { edges { node { id } } } }`, nil); !strings.Contains(fmt.Sprint(out["errors"]), "first") {
		t.Fatalf("missing first accepted: %v", out)
	}
}

func TestWebhookSubscriptionsAPI(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{AutoApprove: true})
	tok := e.install(testShop, "read_orders")
	m := `mutation($topic: WebhookSubscriptionTopic!, $sub: WebhookSubscriptionInput!) { webhookSubscriptionCreate(topic: $topic, webhookSubscription: $sub) { webhookSubscription { id topic uri } userErrors { field message } } }`
	d := e.gql(testShop, tok, m, map[string]any{"topic": "ORDERS_CREATE", "sub": map[string]any{"uri": "https://app.example/wh"}})
	id := dig(d, "webhookSubscriptionCreate", "webhookSubscription", "id")
	if dig(d, "webhookSubscriptionCreate", "webhookSubscription", "topic") != "ORDERS_CREATE" || id == nil {
		t.Fatalf("create: %v", d)
	}
	d = e.gql(testShop, tok, m, map[string]any{"topic": "ORDERS_CREATE", "sub": map[string]any{"callbackUrl": "https://app.example/wh"}})
	if dig(d, "webhookSubscriptionCreate", "userErrors", 0, "message") != "Address for this topic has already been taken" {
		t.Fatalf("duplicate: %v", d)
	}
	d = e.gql(testShop, tok, m, map[string]any{"topic": "APP_UNINSTALLED", "sub": map[string]any{"uri": "not a url"}})
	if dig(d, "webhookSubscriptionCreate", "userErrors", 0, "message") != "Address is invalid" {
		t.Fatalf("invalid uri: %v", d)
	}
	d = e.gql(testShop, tok, `{ webhookSubscriptions(first: 10) { edges { node { id uri } } } }`, nil)
	if len(dig(d, "webhookSubscriptions", "edges").([]any)) != 1 {
		t.Fatalf("list: %v", d)
	}
	d = e.gql(testShop, tok, `mutation($id: ID!) { webhookSubscriptionDelete(id: $id) { deletedWebhookSubscriptionId userErrors { message } } }`, map[string]any{"id": id})
	if dig(d, "webhookSubscriptionDelete", "deletedWebhookSubscriptionId") != id {
		t.Fatalf("delete: %v", d)
	}
}
