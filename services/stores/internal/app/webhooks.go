package app

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"uplift.dev/stores/internal/domain"
)

// Webhook is one delivery as the gateway received it.
type Webhook struct {
	Payload                               []byte
	HMAC, Topic, Shop, WebhookID, EventID string
	APIVersion, TriggeredAt               string
}

// knownTopics are the topics acted on; others are acknowledged and dropped.
var knownTopics = map[string]bool{
	"orders/create": true, "orders/updated": true, "orders/cancelled": true, "orders/delete": true,
	"refunds/create": true, "products/create": true, "products/update": true, "products/delete": true,
	"customers/create": true, "customers/update": true, "customers/delete": true,
	"app/uninstalled": true, "customers/data_request": true, "customers/redact": true, "shop/redact": true,
}

// ReceiveWebhook verifies a delivery and queues it, once per event id: the
// answer must reach Shopify within seconds, so the work (fetching the order
// it names) happens in the background. A bad signature is ErrBadWebhook.
func (a *App) ReceiveWebhook(ctx context.Context, w Webhook) error {
	if w.HMAC == "" || !a.shopify.VerifyWebhook(w.Payload, w.HMAC) {
		return domain.ErrBadWebhook
	}
	if !knownTopics[w.Topic] {
		a.log.InfoContext(ctx, "shopify webhook topic ignored", "topic", w.Topic, "shop", w.Shop)
		return nil
	}
	if !json.Valid(w.Payload) {
		return &domain.ValidationError{Field: "payload", Message: "The webhook body is not JSON."}
	}
	id := w.EventID
	if id == "" {
		id = "webhook:" + w.WebhookID
	}
	if id == "webhook:" {
		return &domain.ValidationError{Field: "X-Shopify-Webhook-Id", Message: "The webhook has no id."}
	}
	isNew, err := a.repo.RecordWebhook(ctx, WebhookEvent{EventID: id, Shop: strings.ToLower(w.Shop), Topic: w.Topic,
		Payload: w.Payload, ReceivedAt: a.now()})
	if err != nil {
		return err
	}
	if !isNew {
		a.log.InfoContext(ctx, "duplicate shopify webhook ignored", "event", id, "topic", w.Topic)
	}
	return nil
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
		if err := a.repo.FinishWebhook(ctx, ev.EventID, failure, a.now()); err != nil {
			return err
		}
	}
	return nil
}

type webhookPayload struct {
	ID       json.Number `json:"id"`
	OrderID  json.Number `json:"order_id"`
	Title    string      `json:"title"`
	Customer *struct {
		ID json.Number `json:"id"`
	} `json:"customer"`
	OrdersToRedact []json.Number `json:"orders_to_redact"`
}

func (a *App) applyWebhook(ctx context.Context, ev WebhookEvent) error {
	if ev.Topic == "customers/data_request" {
		// Uplift keeps no personal data of a shop's customers (ids only), so
		// there is nothing to send; the request is logged for the record.
		a.log.InfoContext(ctx, "customer data request: no personal data held", "shop", ev.Shop)
		return nil
	}
	if ev.Topic == "shop/redact" {
		return a.repo.DeleteShopData(ctx, ev.Shop)
	}
	var p webhookPayload
	dec := json.NewDecoder(strings.NewReader(string(ev.Payload)))
	dec.UseNumber()
	if err := dec.Decode(&p); err != nil {
		return fmt.Errorf("payload: %w", err)
	}
	if ev.Topic == "customers/redact" {
		// Owed whether or not the shop is still connected: a disconnected
		// shop's orders are still stored.
		return a.redactCustomer(ctx, ev.Shop, p)
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
	case "orders/delete":
		return a.repo.DeleteOrder(ctx, conn.CategoryID, "shopify:"+p.ID.String())
	case "orders/create", "orders/updated", "orders/cancelled", "refunds/create":
		id := p.ID
		if ev.Topic == "refunds/create" {
			id = p.OrderID
		}
		return a.refetchOrder(ctx, conn, id)
	case "products/create", "products/update":
		return a.repo.SaveCatalog(ctx, conn.CategoryID, []CatalogProduct{{ID: "shopify:" + p.ID.String(), Title: p.Title}}, nil)
	case "customers/create", "customers/update":
		return a.repo.SaveCatalog(ctx, conn.CategoryID, nil, []CatalogCustomer{{ID: "shopify:" + p.ID.String()}})
	}
	return nil // deletions of products and customers change no number
}

// redactCustomer forgets a customer (and their orders' customer keys) in
// every business that ever connected the shop.
func (a *App) redactCustomer(ctx context.Context, shop string, p webhookPayload) error {
	var customers []string
	if p.Customer != nil && p.Customer.ID != "" {
		customers = append(customers, "shopify:"+p.Customer.ID.String())
	}
	orders := make([]string, 0, len(p.OrdersToRedact))
	for _, id := range p.OrdersToRedact {
		orders = append(orders, "shopify:"+id.String())
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

// refetchOrder reads an order a webhook names from the API: webhook bodies
// carry no sales agreements, and the API's copy is the current one even
// when deliveries arrive out of order.
func (a *App) refetchOrder(ctx context.Context, conn *Connection, id json.Number) error {
	n, err := strconv.ParseInt(id.String(), 10, 64)
	if err != nil || n <= 0 {
		return fmt.Errorf("order id %q", id)
	}
	loc := StoreLocation(conn.Timezone)
	client := a.client(conn.Shop, tokenSource{a: a, categoryID: conn.CategoryID})
	o, found, err := client.Order(ctx, n, loc)
	if err != nil {
		return err
	}
	if !found {
		return a.repo.DeleteOrder(ctx, conn.CategoryID, "shopify:"+id.String())
	}
	_, err = a.repo.SaveOrders(ctx, conn.CategoryID, []domain.Order{o})
	return err
}
