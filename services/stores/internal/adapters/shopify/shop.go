package shopify

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"uplift.dev/platform/validation"

	"uplift.dev/stores/internal/app"
)

// Shop reads the shop's own settings.
func (c *Client) Shop(ctx context.Context) (app.ShopInfo, error) {
	var r struct {
		Shop struct {
			Name            string `json:"name"`
			MyshopifyDomain string `json:"myshopifyDomain"`
			IanaTimezone    string `json:"ianaTimezone"`
			CurrencyCode    string `json:"currencyCode"`
			TaxesIncluded   bool   `json:"taxesIncluded"`
		} `json:"shop"`
	}
	if err := c.do(ctx, `{ shop { name myshopifyDomain ianaTimezone currencyCode taxesIncluded } }`, nil, &r); err != nil {
		return app.ShopInfo{}, err
	}
	s := r.Shop
	return app.ShopInfo{Name: validation.Clip(s.Name, validation.MaxNameRunes), Domain: s.MyshopifyDomain, Currency: s.CurrencyCode, Timezone: s.IanaTimezone,
		TaxesIncluded: s.TaxesIncluded}, nil
}

// Counts gives the totals a first sync will read, for the progress bar.
func (c *Client) Counts(ctx context.Context) (orders, products, customers int64, err error) {
	var r struct {
		Orders, Products, Customers struct {
			Count int64 `json:"count"`
		}
	}
	const q = `{ orders: ordersCount { count } products: productsCount { count } customers: customersCount { count } }`
	if err := c.do(ctx, q, nil, &r); err != nil {
		return 0, 0, 0, err
	}
	return r.Orders.Count, r.Products.Count, r.Customers.Count, nil
}

const (
	webhooksQuery = `query Hooks($after: String) { webhookSubscriptions(first: 100, after: $after) {
pageInfo { hasNextPage endCursor } nodes { topic uri } } }`
	webhookCreate = `mutation Hook($topic: WebhookSubscriptionTopic!, $uri: String!) {
webhookSubscriptionCreate(topic: $topic, webhookSubscription: { uri: $uri }) { webhookSubscription { id } userErrors { field message } } }`
)

// EnsureWebhooks subscribes uri to each topic ("ORDERS_CREATE") that is not
// subscribed to it yet, so reconnecting or re-running a sync never doubles
// deliveries.
func (c *Client) EnsureWebhooks(ctx context.Context, uri string, topics []string) error {
	have := map[string]bool{}
	var after any
	for {
		var r struct {
			WebhookSubscriptions struct {
				PageInfo pageInfo `json:"pageInfo"`
				Nodes    []struct {
					Topic string `json:"topic"`
					URI   string `json:"uri"`
				} `json:"nodes"`
			} `json:"webhookSubscriptions"`
		}
		if err := c.do(ctx, webhooksQuery, map[string]any{"after": after}, &r); err != nil {
			return err
		}
		for _, n := range r.WebhookSubscriptions.Nodes {
			if n.URI == uri {
				have[n.Topic] = true
			}
		}
		if !r.WebhookSubscriptions.PageInfo.HasNextPage {
			break
		}
		after = r.WebhookSubscriptions.PageInfo.EndCursor
	}
	for _, t := range topics {
		if have[t] {
			continue
		}
		var r struct {
			WebhookSubscriptionCreate struct {
				UserErrors []userError `json:"userErrors"`
			} `json:"webhookSubscriptionCreate"`
		}
		if err := c.do(ctx, webhookCreate, map[string]any{"topic": t, "uri": uri}, &r); err != nil {
			return fmt.Errorf("webhook %s: %w", t, err)
		}
		if err := userErrors(r.WebhookSubscriptionCreate.UserErrors); err != nil {
			return fmt.Errorf("webhook %s: %w", t, err)
		}
		have[t] = true
	}
	return nil
}

// userError is a mutation's refusal of its input.
type userError struct {
	Field   []string `json:"field"`
	Message string   `json:"message"`
}

// userErrors turns a mutation's userErrors into one error, or nil.
func userErrors(ue []userError) error {
	if len(ue) == 0 {
		return nil
	}
	msgs := make([]string, len(ue))
	for i, e := range ue {
		msgs[i] = e.Message
		if len(e.Field) > 0 {
			msgs[i] = strings.Join(e.Field, ".") + ": " + e.Message
		}
	}
	return &GraphQLError{Messages: msgs}
}

// flexInt reads an integer Shopify may send as a number or, for
// UnsignedInt64 fields, as a string.
type flexInt int64

func (f *flexInt) UnmarshalJSON(b []byte) error {
	s := strings.Trim(string(b), `"`)
	if s == "null" || s == "" {
		*f = 0
		return nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return fmt.Errorf("not an integer: %s", b)
	}
	*f = flexInt(n)
	return nil
}
