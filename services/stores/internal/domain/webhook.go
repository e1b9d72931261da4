package domain

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
)

// A Shopify webhook's HMAC covers its body only: the topic, the shop and the
// delivery id travel in headers anyone can rewrite. So a body Shopify signed
// once can be sent again under another topic or for another shop, and what a
// delivery may do has to follow from the body itself. ParseWebhook reads a
// body by the fields each kind must carry and refuses one that cannot be what
// its topic says: a shop/redact body sent as customers/redact, an order sent
// as shop/redact, and so on.

// BodyKind is what a webhook body is, told by the fields it carries.
type BodyKind int

// Body kinds. The compliance bodies and the Shop resource name their shop
// (shop_domain, myshopify_domain), so the app can hold the header shop to
// it; the resource bodies (orders, refunds, products, customers) do not, and
// are safe for other reasons (the app's ReceiveWebhook says which).
const (
	BodyUnknown BodyKind = iota
	// BodyShopRedact is {shop_id, shop_domain} and nothing about a customer.
	BodyShopRedact
	// BodyCustomerRedact is {shop_id, shop_domain, customer, orders_to_redact}.
	BodyCustomerRedact
	// BodyDataRequest is {shop_id, shop_domain, customer, orders_requested, data_request}.
	BodyDataRequest
	// BodyShop is the Shop resource app/uninstalled carries: {id, myshopify_domain, …}.
	BodyShop
	// BodyOrder, BodyRefund, BodyProduct and BodyCustomer are resources, each
	// with its id and the matching admin_graphql_api_id ("gid://shopify/Order/1").
	BodyOrder
	BodyRefund
	BodyProduct
	BodyCustomer
	// BodyDeleted names a deleted order, product or customer by id alone.
	BodyDeleted
)

// topicBodies are the topics acted on and the kinds of body each can carry.
// A deletion may come as the bare id or as the resource.
var topicBodies = map[string][]BodyKind{
	"orders/create":          {BodyOrder},
	"orders/updated":         {BodyOrder},
	"orders/cancelled":       {BodyOrder},
	"orders/delete":          {BodyDeleted, BodyOrder},
	"refunds/create":         {BodyRefund},
	"products/create":        {BodyProduct},
	"products/update":        {BodyProduct},
	"products/delete":        {BodyDeleted, BodyProduct},
	"customers/create":       {BodyCustomer},
	"customers/update":       {BodyCustomer},
	"customers/delete":       {BodyDeleted, BodyCustomer},
	"app/uninstalled":        {BodyShop},
	"shop/redact":            {BodyShopRedact},
	"customers/redact":       {BodyCustomerRedact},
	"customers/data_request": {BodyDataRequest},
}

// resourceKinds maps a global id's type to the body kind.
var resourceKinds = map[string]BodyKind{"Order": BodyOrder, "Refund": BodyRefund, "Product": BodyProduct, "Customer": BodyCustomer}

// WebhookTopic reports whether a topic is acted on; others are acknowledged
// and dropped.
func WebhookTopic(topic string) bool {
	_, ok := topicBodies[topic]
	return ok
}

// WebhookBody is what the app acts on in a verified delivery's body.
type WebhookBody struct {
	Kind BodyKind
	// Shop is the shop domain the body names (compliance and Shop bodies),
	// lower-cased; "" for resource bodies, which name none.
	Shop string
	// ID is the resource's id: the order, refund, product or customer (or
	// the shop, for BodyShop).
	ID int64
	// OrderID is a refund's order.
	OrderID int64
	// Title is a product's.
	Title string
	// CustomerID is the compliance body's customer, 0 when it names none.
	CustomerID int64
	// OrdersToRedact are customers/redact's orders.
	OrdersToRedact []int64
}

// badBody is the one message for a body that is not what its topic says: a
// genuine delivery never gets it, so it need not say more.
func badBody(topic string) error {
	return &ValidationError{Field: "X-Shopify-Topic", Message: "The webhook body is not a " + topic + " body."}
}

// ParseWebhook reads a verified body for a topic WebhookTopic accepts. A
// body that is not JSON, or is not a kind the topic can carry, is a
// ValidationError.
func ParseWebhook(topic string, payload []byte) (WebhookBody, error) {
	var fields map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(payload))
	dec.UseNumber()
	if err := dec.Decode(&fields); err != nil || fields == nil || dec.More() {
		return WebhookBody{}, &ValidationError{Field: "payload", Message: "The webhook body is not a JSON object."}
	}
	b, ok := readBody(fields)
	if !ok || !slices.Contains(topicBodies[topic], b.Kind) {
		return WebhookBody{}, badBody(topic)
	}
	return b, nil
}

// readBody classifies a body by its required fields and reads them; ok is
// false when a field its kind requires is missing or malformed.
func readBody(f map[string]json.RawMessage) (WebhookBody, bool) {
	switch {
	case has(f, "shop_domain"):
		return readCompliance(f)
	case has(f, "myshopify_domain"):
		shop, ok := stringField(f, "myshopify_domain")
		id, idOK := idField(f, "id")
		return WebhookBody{Kind: BodyShop, Shop: shop, ID: id}, ok && idOK
	case has(f, "admin_graphql_api_id"):
		return readResource(f)
	case has(f, "id"):
		id, ok := idField(f, "id")
		return WebhookBody{Kind: BodyDeleted, ID: id}, ok
	}
	return WebhookBody{}, false
}

// readCompliance reads the three privacy bodies, told apart by what they
// carry beyond {shop_id, shop_domain}: a customer with orders_to_redact
// (customers/redact), with orders_requested and data_request
// (customers/data_request), or nothing (shop/redact).
func readCompliance(f map[string]json.RawMessage) (WebhookBody, bool) {
	shop, ok := stringField(f, "shop_domain")
	if !ok || !has(f, "shop_id") {
		return WebhookBody{}, false
	}
	b := WebhookBody{Shop: shop}
	switch {
	case has(f, "data_request") && has(f, "orders_requested") && !has(f, "orders_to_redact"):
		b.Kind = BodyDataRequest
	case has(f, "orders_to_redact") && !has(f, "data_request") && !has(f, "orders_requested"):
		b.Kind = BodyCustomerRedact
		var ids []json.Number
		if json.Unmarshal(f["orders_to_redact"], &ids) != nil {
			return WebhookBody{}, false
		}
		for _, id := range ids {
			n, ok := positiveID(id)
			if !ok {
				return WebhookBody{}, false
			}
			b.OrdersToRedact = append(b.OrdersToRedact, n)
		}
	case !has(f, "customer") && !has(f, "data_request") && !has(f, "orders_requested") && !has(f, "orders_to_redact"):
		b.Kind = BodyShopRedact
		return b, true
	default:
		return WebhookBody{}, false // parts of different bodies
	}
	var c struct {
		ID json.Number `json:"id"`
	}
	if !has(f, "customer") || json.Unmarshal(f["customer"], &c) != nil {
		return WebhookBody{}, false
	}
	if c.ID != "" && c.ID != "0" {
		if b.CustomerID, ok = positiveID(c.ID); !ok {
			return WebhookBody{}, false
		}
	}
	return b, true
}

// readResource reads an order, refund, product or customer, whose
// admin_graphql_api_id names its type and repeats its id.
func readResource(f map[string]json.RawMessage) (WebhookBody, bool) {
	gid, ok := stringField(f, "admin_graphql_api_id")
	typ, num, found := strings.Cut(strings.TrimPrefix(gid, "gid://shopify/"), "/")
	id, idOK := idField(f, "id")
	b := WebhookBody{Kind: resourceKinds[typ], ID: id}
	if !ok || !found || b.Kind == BodyUnknown || !idOK || num != strconv.FormatInt(id, 10) {
		return WebhookBody{}, false
	}
	switch b.Kind {
	case BodyRefund:
		if b.OrderID, ok = idField(f, "order_id"); !ok {
			return WebhookBody{}, false
		}
	case BodyProduct:
		b.Title, _ = stringField(f, "title")
	}
	return b, true
}

func has(f map[string]json.RawMessage, k string) bool {
	_, ok := f[k]
	return ok
}

// stringField is a non-empty string field; shop domains come lower-cased.
func stringField(f map[string]json.RawMessage, k string) (string, bool) {
	var s string
	if json.Unmarshal(f[k], &s) != nil || strings.TrimSpace(s) == "" {
		return "", false
	}
	if strings.HasSuffix(k, "domain") {
		s = strings.ToLower(s)
	}
	return s, true
}

func idField(f map[string]json.RawMessage, k string) (int64, bool) {
	var n json.Number
	if json.Unmarshal(f[k], &n) != nil {
		return 0, false
	}
	return positiveID(n)
}

// positiveID is a Shopify id: a positive integer.
func positiveID(n json.Number) (int64, bool) {
	id, err := strconv.ParseInt(n.String(), 10, 64)
	return id, err == nil && id > 0
}
