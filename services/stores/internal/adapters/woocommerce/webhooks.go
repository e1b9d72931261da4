package woocommerce

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"

	"uplift.dev/stores/internal/app"
	"uplift.dev/stores/internal/domain"
)

// Webhooks implements app.WooCommerce: the store's webhooks (§3).
func (c *Client) Webhooks(ctx context.Context, store string, keys app.WooKeys) ([]app.WooWebhook, error) {
	var out []app.WooWebhook
	for page := 1; ; page++ {
		var raw []struct {
			ID          int64  `json:"id"`
			Topic       string `json:"topic"`
			Status      string `json:"status"`
			DeliveryURL string `json:"delivery_url"`
		}
		_, _, pages, err := c.page(ctx, fmt.Sprintf("%s/wp-json/wc/v3/webhooks?per_page=100&page=%d", store, page), keys, &raw)
		if err != nil {
			return nil, err
		}
		for _, w := range raw {
			out = append(out, app.WooWebhook{ID: w.ID, Topic: w.Topic, Status: w.Status, DeliveryURL: w.DeliveryURL})
		}
		if page >= pages || len(raw) == 0 {
			return out, nil
		}
	}
}

// CreateWebhook implements app.WooCommerce (§3 "Create").
func (c *Client) CreateWebhook(ctx context.Context, store string, keys app.WooKeys, topic, deliveryURL, secret string) error {
	return c.send(ctx, http.MethodPost, store+"/wp-json/wc/v3/webhooks", keys, map[string]string{
		"name": "Uplift " + topic, "topic": topic, "delivery_url": deliveryURL, "secret": secret, "status": "active"})
}

// ActivateWebhook implements app.WooCommerce: a webhook WooCommerce
// disabled after failed deliveries (§3 "Failures": re-enable with PUT
// status=active), given Uplift's secret again.
func (c *Client) ActivateWebhook(ctx context.Context, store string, keys app.WooKeys, id int64, secret string) error {
	return c.send(ctx, http.MethodPut, fmt.Sprintf("%s/wp-json/wc/v3/webhooks/%d", store, id), keys,
		map[string]string{"status": "active", "secret": secret})
}

// Order implements app.WooCommerce: one order with its refunds as the API
// has it now; found is false once it is deleted or in the trash.
func (c *Client) Order(ctx context.Context, store string, keys app.WooKeys, id int64) (domain.WooOrder, bool, error) {
	var raw wooOrderJSON
	_, _, _, err := c.page(ctx, fmt.Sprintf("%s/wp-json/wc/v3/orders/%d", store, id), keys, &raw)
	if e, ok := err.(*APIError); ok && (e.Status == http.StatusNotFound || e.Status == http.StatusGone) {
		return domain.WooOrder{}, false, nil
	}
	if err != nil {
		return domain.WooOrder{}, false, err
	}
	if raw.Status == "trash" {
		return domain.WooOrder{}, false, nil
	}
	o, err := raw.order()
	if err != nil {
		return o, false, err
	}
	if len(raw.Refunds) > 0 {
		var refunds []wooRefundJSON
		if _, _, _, err := c.page(ctx, fmt.Sprintf("%s/wp-json/wc/v3/orders/%d/refunds?per_page=100", store, id), keys, &refunds); err != nil {
			return o, false, err
		}
		for _, rf := range refunds {
			wr, err := rf.refund(o.Currency)
			if err != nil {
				return o, false, err
			}
			o.Refunds = append(o.Refunds, wr)
		}
	}
	return o, true, nil
}

// send writes one JSON body with the keys.
func (c *Client) send(ctx context.Context, method, u string, keys app.WooKeys, body any) error {
	b, err := json.Marshal(body)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, method, u, bytes.NewReader(b))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	req.SetBasicAuth(keys.ConsumerKey, keys.ConsumerSecret)
	res, err := c.http.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	rb, _ := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	if res.StatusCode/100 != 2 {
		e := &APIError{Status: res.StatusCode}
		var wc struct{ Code, Message string }
		if json.Unmarshal(rb, &wc) == nil {
			e.Code, e.Message = wc.Code, strings.TrimSpace(wc.Message)
		}
		return e
	}
	return nil
}
