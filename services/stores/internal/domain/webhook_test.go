package domain

import (
	"reflect"
	"testing"
)

func TestParseWebhookReadsWhatEachKindCarries(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		topic, body string
		want        WebhookBody
	}{
		{"shop/redact", `{"shop_id":9,"shop_domain":"Fixture.myshopify.com"}`,
			WebhookBody{Kind: BodyShopRedact, Shop: "fixture.myshopify.com"}},
		{"customers/redact", `{"shop_id":9,"shop_domain":"f.myshopify.com","customer":{"id":820982911946154508},"orders_to_redact":[1,2]}`,
			WebhookBody{Kind: BodyCustomerRedact, Shop: "f.myshopify.com", CustomerID: 820982911946154508, OrdersToRedact: []int64{1, 2}}},
		{"customers/redact", `{"shop_id":9,"shop_domain":"f.myshopify.com","customer":{"id":0},"orders_to_redact":[]}`,
			WebhookBody{Kind: BodyCustomerRedact, Shop: "f.myshopify.com"}},
		{"customers/data_request", `{"shop_id":9,"shop_domain":"f.myshopify.com","customer":{"id":5},"orders_requested":[],"data_request":{"id":1}}`,
			WebhookBody{Kind: BodyDataRequest, Shop: "f.myshopify.com", CustomerID: 5}},
		{"app/uninstalled", `{"id":9,"domain":"shop.example","myshopify_domain":"f.myshopify.com"}`,
			WebhookBody{Kind: BodyShop, Shop: "f.myshopify.com", ID: 9}},
		{"refunds/create", `{"id":3,"admin_graphql_api_id":"gid://shopify/Refund/3","order_id":2}`,
			WebhookBody{Kind: BodyRefund, ID: 3, OrderID: 2}},
		{"products/update", `{"id":4,"admin_graphql_api_id":"gid://shopify/Product/4","title":"Mug"}`,
			WebhookBody{Kind: BodyProduct, ID: 4, Title: "Mug"}},
		{"orders/delete", `{"id":2}`, WebhookBody{Kind: BodyDeleted, ID: 2}},
		{"customers/delete", `{"id":5,"admin_graphql_api_id":"gid://shopify/Customer/5","addresses":[]}`,
			WebhookBody{Kind: BodyCustomer, ID: 5}},
	} {
		got, err := ParseWebhook(c.topic, []byte(c.body))
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s %s = %+v, %v; want %+v", c.topic, c.body, got, err, c.want)
		}
	}
}

func TestParseWebhookRefusesMalformedFields(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ topic, body string }{
		{"orders/delete", `{"id":-2}`},
		{"orders/delete", `{"id":1.5}`},
		{"orders/delete", `{}`},
		{"orders/delete", `{"id":2} {"id":3}`},
		{"shop/redact", `{"shop_id":9,"shop_domain":""}`},
		{"shop/redact", `{"shop_id":9,"shop_domain":7}`},
		{"customers/redact", `{"shop_id":9,"shop_domain":"f.myshopify.com","customer":{"id":5},"orders_to_redact":[-1]}`},
		{"customers/redact", `{"shop_id":9,"shop_domain":"f.myshopify.com","orders_to_redact":[1]}`},
		{"app/uninstalled", `{"myshopify_domain":"f.myshopify.com"}`},
		{"products/update", `{"id":4,"admin_graphql_api_id":"gid://shopify/Collection/4"}`},
		{"refunds/create", `{"id":3,"admin_graphql_api_id":"gid://shopify/Refund/3"}`},
	} {
		if got, err := ParseWebhook(c.topic, []byte(c.body)); err == nil {
			t.Errorf("%s %s = %+v, want refused", c.topic, c.body, got)
		}
	}
}
