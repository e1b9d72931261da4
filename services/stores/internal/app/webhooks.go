package app

import (
	"context"
	"fmt"
	"strconv"

	"uplift.dev/stores/internal/domain"
)

// Webhook is one delivery as the gateway received it.
type Webhook struct {
	Payload                               []byte
	HMAC, Topic, Shop, WebhookID, EventID string
	APIVersion, TriggeredAt               string
}

// ReceiveWebhook verifies a delivery and queues it, once per shop and event
// id: the answer must reach Shopify within seconds, so the work (fetching
// the order it names) happens in the background. A bad signature is
// ErrBadWebhook.
//
// The signature covers the body only; the topic, the shop and the ids are
// headers anyone holding one signed body can rewrite. So a delivery is held
// to what its body can be (domain.ParseWebhook), and:
//   - a body that names its shop (the privacy topics' shop_domain,
//     app/uninstalled's myshopify_domain) is acted on for that shop only,
//     and refused when the header names another: an erasure or an uninstall
//     Shopify signed for one shop cannot be pointed at a second;
//   - an order, refund, product or customer body names no shop, so it is
//     taken as the header shop's, and nothing in it is trusted beyond an id:
//     the order is read again from that shop's API with that shop's own
//     token and stored as the API has it (orders/delete too: it deletes only
//     when the API no longer has the order). Sent for another shop, such a
//     body at most re-reads that shop's own order of the same id (Shopify's
//     ids are global, so usually none). Product and customer bodies add a
//     catalogue row (an id, a title) that no number or page reads;
//   - the dedupe key is the shop with the event id, so an id replayed for
//     another shop neither burns that shop's delivery nor is burned by it.
func (a *App) ReceiveWebhook(ctx context.Context, w Webhook) error {
	if w.HMAC == "" || !a.shopify.VerifyWebhook(w.Payload, w.HMAC) {
		return domain.ErrBadWebhook
	}
	if !domain.WebhookTopic(w.Topic) {
		a.log.InfoContext(ctx, "shopify webhook topic ignored", "topic", w.Topic, "shop", w.Shop)
		return nil
	}
	body, err := domain.ParseWebhook(w.Topic, w.Payload)
	if err != nil {
		return err
	}
	shop, err := a.webhookShop(w.Shop, body)
	if err != nil {
		return err
	}
	id := w.EventID
	if id == "" {
		id = "webhook:" + w.WebhookID
	}
	if id == "webhook:" {
		return &domain.ValidationError{Field: "X-Shopify-Webhook-Id", Message: "The webhook has no id."}
	}
	isNew, err := a.repo.RecordWebhook(ctx, WebhookEvent{EventID: id, Shop: shop, Topic: w.Topic,
		Payload: w.Payload, ReceivedAt: a.now()})
	if err != nil {
		return err
	}
	if !isNew {
		a.log.InfoContext(ctx, "duplicate shopify webhook ignored", "event", id, "topic", w.Topic, "shop", shop)
	}
	return nil
}

// webhookShop is the shop a delivery is for: the header's, which must be a
// shop domain and, when the body names a shop, that one.
func (a *App) webhookShop(header string, body domain.WebhookBody) (string, error) {
	shop, err := a.shopify.NormalizeShop(header)
	if err != nil {
		return "", &domain.ValidationError{Field: "X-Shopify-Shop-Domain",
			Message: "The X-Shopify-Shop-Domain header is not a Shopify shop domain."}
	}
	if body.Shop != "" && body.Shop != shop {
		return "", &domain.ValidationError{Field: "X-Shopify-Shop-Domain",
			Message: "The X-Shopify-Shop-Domain header names another shop than the webhook body."}
	}
	return shop, nil
}

// ProcessWebhooks applies queued deliveries, oldest first. A delivery that
// fails is retried at the next round, up to a bound, then left recorded.
func (a *App) ProcessWebhooks(ctx context.Context) error {
	evs, err := a.repo.PendingWebhooks(ctx, 100)
	if err != nil {
		return err
	}
	for _, ev := range evs {
		failure := ""
		if err := a.applyWebhook(ctx, ev); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			a.log.WarnContext(ctx, "shopify webhook not applied", "event", ev.EventID, "topic", ev.Topic, "err", err)
			failure = err.Error()
		}
		if err := a.repo.FinishWebhook(ctx, ev.Shop, ev.EventID, failure, a.now()); err != nil {
			return err
		}
	}
	return nil
}

// applyWebhook acts on a queued delivery. Its body is read again, and held
// to its shop again, so a delivery queued before ReceiveWebhook checked
// them is held to the same rules.
func (a *App) applyWebhook(ctx context.Context, ev WebhookEvent) error {
	body, err := domain.ParseWebhook(ev.Topic, ev.Payload)
	if err != nil {
		return err
	}
	if body.Shop != "" && body.Shop != ev.Shop {
		return fmt.Errorf("the body names shop %q, the delivery %q", body.Shop, ev.Shop)
	}
	switch ev.Topic {
	case "customers/data_request":
		// Uplift keeps no personal data of a shop's customers (ids only), so
		// there is nothing to send; the request is logged for the record.
		a.log.InfoContext(ctx, "customer data request: no personal data held", "shop", ev.Shop)
		return nil
	case "shop/redact":
		return a.repo.DeleteShopData(ctx, ev.Shop)
	case "customers/redact":
		// Owed whether or not the shop is still connected: a disconnected
		// shop's orders are still stored.
		return a.redactCustomer(ctx, ev.Shop, body)
	}
	conn, err := a.repo.ConnectionByShop(ctx, ev.Shop)
	if err != nil {
		return err
	}
	if conn == nil {
		return nil // not connected (any more): nothing to update
	}
	switch ev.Topic {
	case "app/uninstalled":
		a.log.InfoContext(ctx, "shopify app uninstalled", "shop", ev.Shop, "category", conn.CategoryID)
		return a.repo.Disconnect(ctx, conn.CategoryID, StatusUninstalled, a.now())
	case "orders/create", "orders/updated", "orders/cancelled", "orders/delete":
		// orders/delete too reads the order: a deletion is stored only once
		// the shop's API confirms the order is gone, so an order's id sent
		// again under this topic (for this shop or another) deletes nothing
		// that exists.
		return a.refetchOrder(ctx, conn, body.ID)
	case "refunds/create":
		return a.refetchOrder(ctx, conn, body.OrderID)
	case "products/create", "products/update":
		return a.repo.SaveCatalog(ctx, conn.Link(), []CatalogProduct{{ID: shopifyKey(body.ID), Title: body.Title}}, nil)
	case "customers/create", "customers/update":
		return a.repo.SaveCatalog(ctx, conn.Link(), nil, []CatalogCustomer{{ID: shopifyKey(body.ID)}})
	}
	return nil // deletions of products and customers change no number
}

// shopifyKey is how a Shopify id is stored: orders, products and customers
// alike.
func shopifyKey(id int64) string { return "shopify:" + strconv.FormatInt(id, 10) }

// redactCustomer forgets a customer (and their orders' customer keys) in
// every business that ever connected the shop.
func (a *App) redactCustomer(ctx context.Context, shop string, body domain.WebhookBody) error {
	var customers []string
	if body.CustomerID != 0 {
		customers = append(customers, shopifyKey(body.CustomerID))
	}
	orders := make([]string, 0, len(body.OrdersToRedact))
	for _, id := range body.OrdersToRedact {
		orders = append(orders, shopifyKey(id))
	}
	cats, err := a.repo.CategoriesOfShop(ctx, shop)
	if err != nil {
		return err
	}
	for _, cat := range cats {
		if err := a.repo.RedactCustomers(ctx, cat, customers, orders); err != nil {
			return err
		}
	}
	return nil
}

// refetchOrder reads an order a webhook names from the shop's API and
// stores it as the API has it, or deletes it when the API has it no more:
// webhook bodies carry no sales agreements, the API's copy is the current
// one even when deliveries arrive out of order, and nothing a body says
// about the order is believed.
func (a *App) refetchOrder(ctx context.Context, conn *Connection, id int64) error {
	loc := StoreLocation(conn.Timezone)
	client := a.client(conn.Shop, tokenSource{a: a, categoryID: conn.CategoryID})
	o, found, err := client.Order(ctx, id, loc)
	if err != nil {
		return err
	}
	if !found {
		return a.repo.DeleteOrder(ctx, conn.CategoryID, shopifyKey(id))
	}
	_, err = a.repo.SaveOrders(ctx, conn.Link(), []domain.Order{o})
	return err
}
