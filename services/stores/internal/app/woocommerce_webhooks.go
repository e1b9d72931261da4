package app

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/url"
	"strconv"
	"strings"

	"uplift.dev/stores/internal/domain"
)

// wooDeliveryURL is where the category's store delivers webhooks.
func (a *App) wooDeliveryURL(categoryID string) string {
	return strings.TrimRight(a.woo.opts.WebhookURL, "/") + "/" + categoryID
}

// ensureWooWebhooks registers Uplift's webhooks on the store, once per
// topic, and re-activates any WooCommerce disabled after failed deliveries
// (§3 "Failures": there are no retries and the 7th failure in a row
// disables it): every sync does this, so a hook lost to an outage is back
// within one SYNC_SWEEP_EVERY, and the sync itself reads what it missed.
func (a *App) ensureWooWebhooks(ctx context.Context, c *WooConnection, keys WooKeys) error {
	secret := ""
	if len(c.WebhookSecret) > 0 {
		s, err := a.sealer.Open(c.WebhookSecret)
		if err != nil {
			return err
		}
		secret = s
	} else {
		b := make([]byte, 32)
		if _, err := rand.Read(b); err != nil {
			return err
		}
		secret = hex.EncodeToString(b)
		sealed, err := a.sealer.Seal(secret)
		if err != nil {
			return err
		}
		if err := a.woo.repo.SetWooWebhookSecret(ctx, c.CategoryID, c.ConnectedAt, sealed); err != nil {
			return err
		}
		c.WebhookSecret = sealed
	}
	hooks, err := a.woo.client.Webhooks(ctx, c.StoreURL, keys)
	if err != nil {
		return err
	}
	want := a.wooDeliveryURL(c.CategoryID)
	for _, topic := range domain.WooWebhookTopics {
		var found *WooWebhook
		for i, h := range hooks {
			if h.Topic == topic && h.DeliveryURL == want {
				found = &hooks[i]
				if h.Status == "active" {
					break
				}
			}
		}
		switch {
		case found == nil:
			err = a.woo.client.CreateWebhook(ctx, c.StoreURL, keys, topic, want, secret)
		case found.Status != "active":
			a.log.InfoContext(ctx, "woocommerce webhook re-activated", "store", c.StoreURL, "topic", topic, "was", found.Status)
			err = a.woo.client.ActivateWebhook(ctx, c.StoreURL, keys, found.ID, secret)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// WooDelivery is one webhook delivery as it arrived.
type WooDelivery struct {
	CategoryID, Topic, DeliveryID, Signature string
	Payload                                  []byte
}

// HandleWooCommerceWebhook verifies one delivery and applies it. The
// signature (§3: base64 HMAC-SHA256 of the raw body with the secret Uplift
// gave the store) proves the body only, so nothing in it is believed
// beyond an order's id: the order is read again from the store's API and
// stored as the API has it (deleted only once the API no longer has it),
// which also makes a delivery applied twice harmless; a delivery id is
// kept once per category besides. Products change no number: a product
// topic asks for the next catch-up sync. A ping (a form body
// `webhook_id=N` with no signature, §3 "Ping") is accepted and ignored.
func (a *App) HandleWooCommerceWebhook(ctx context.Context, d WooDelivery) error {
	if a.woo == nil {
		return errNoWoo
	}
	if validateCategoryID(d.CategoryID) != nil {
		return domain.ErrNotFound
	}
	if d.Signature == "" && d.Topic == "" {
		if q, err := url.ParseQuery(string(d.Payload)); err == nil && q.Get("webhook_id") != "" {
			return nil
		}
	}
	c, err := a.woo.repo.WooConnection(ctx, d.CategoryID)
	if err != nil {
		return err
	}
	if c == nil || c.Status != StatusConnected || len(c.WebhookSecret) == 0 {
		return domain.ErrBadWebhook
	}
	secret, err := a.sealer.Open(c.WebhookSecret)
	if err != nil {
		return err
	}
	if !domain.VerifyWooSignature(d.Payload, secret, d.Signature) {
		return domain.ErrBadWebhook
	}
	if d.DeliveryID != "" {
		fresh, err := a.woo.repo.NewWooDelivery(ctx, d.CategoryID, d.DeliveryID, a.now())
		if err != nil || !fresh {
			return err
		}
	}
	resource, _, _ := strings.Cut(d.Topic, ".")
	if resource != "order" {
		return a.woo.repo.RequestWooSync(ctx, d.CategoryID, false, a.now())
	}
	var body struct {
		ID int64 `json:"id"`
	}
	if err := json.Unmarshal(d.Payload, &body); err != nil || body.ID <= 0 {
		return &domain.ValidationError{Field: "payload", Message: "The delivery is not a WooCommerce order."}
	}
	ck, err := a.sealer.Open(c.ConsumerKey)
	if err != nil {
		return err
	}
	cs, err := a.sealer.Open(c.ConsumerSecret)
	if err != nil {
		return err
	}
	o, found, err := a.woo.client.Order(ctx, c.StoreURL, WooKeys{ConsumerKey: ck, ConsumerSecret: cs}, body.ID)
	if err != nil {
		return err
	}
	if !found {
		return a.woo.repo.DeleteOrder(ctx, d.CategoryID, domain.WooOrderID(body.ID))
	}
	err = a.woo.repo.SaveWooOrders(ctx, d.CategoryID, c.ConnectedAt, []domain.Order{domain.WooSales(o, StoreLocation(c.Timezone))})
	if errors.Is(err, domain.ErrConnectionChanged) {
		return nil
	}
	a.log.InfoContext(ctx, "woocommerce webhook applied", "category", d.CategoryID, "topic", d.Topic,
		"order", strconv.FormatInt(body.ID, 10))
	return err
}
