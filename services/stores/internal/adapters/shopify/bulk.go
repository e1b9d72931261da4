package shopify

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	"uplift.dev/stores/internal/app"
	"uplift.dev/stores/internal/domain"
)

// bulkOrdersQuery is the first import: orders with line items (for the
// gift-card flag) and agreements → sales, four connections nested two deep,
// inside Shopify's bulk limits.
var bulkOrdersQuery = `{ orders { edges { node { ` + orderFields + `
lineItems { edges { node { id isGiftCard } } }
agreements { edges { node { id happenedAt sales { edges { node { ` + saleFields + ` } } } } } } } } } }`

const (
	bulkProductsQuery  = `{ products { edges { node { id legacyResourceId title } } } }`
	bulkCustomersQuery = `{ customers { edges { node { id legacyResourceId numberOfOrders } } } }`
	bulkRun            = `mutation Run($q: String!) { bulkOperationRunQuery(query: $q) {
bulkOperation { id status } userErrors { field message } } }`
	bulkPoll = `query Bulk($id: ID!) { bulkOperation(id: $id) { id status errorCode objectCount url } }`
)

// BulkOrders reads every order through a bulk operation, the only way to
// import a shop's history without thousands of paginated calls. It streams
// the result and calls fn once per complete order; progress, if not nil,
// gets the number of orders delivered so far.
func (c *Client) BulkOrders(ctx context.Context, loc *time.Location, fn func(domain.Order) error, progress func(n int64)) error {
	var n int64
	return c.bulk(ctx, bulkOrdersQuery, func(root *bulkNode) error {
		var g gqlOrder
		if err := json.Unmarshal(root.raw, &g); err != nil {
			return fmt.Errorf("shopify bulk order: %w", err)
		}
		for _, ch := range root.children {
			var probe struct {
				HappenedAt *string `json:"happenedAt"`
			}
			if err := json.Unmarshal(ch.raw, &probe); err != nil {
				return fmt.Errorf("shopify bulk line: %w", err)
			}
			if probe.HappenedAt == nil { // a line item
				var li gqlLineItem
				if err := json.Unmarshal(ch.raw, &li); err != nil {
					return fmt.Errorf("shopify bulk line item: %w", err)
				}
				g.LineItems.Nodes = append(g.LineItems.Nodes, li)
				continue
			}
			a := gqlAgreement{ID: ch.ID, HappenedAt: *probe.HappenedAt}
			for _, sc := range ch.children {
				var s gqlSale
				if err := json.Unmarshal(sc.raw, &s); err != nil {
					return fmt.Errorf("shopify bulk sale: %w", err)
				}
				a.bulkSales = append(a.bulkSales, s)
			}
			g.Agreements.Edges = append(g.Agreements.Edges, struct {
				Cursor string       `json:"cursor"`
				Node   gqlAgreement `json:"node"`
			}{Node: a})
		}
		o, err := toOrder(&g, loc)
		if err != nil {
			return err
		}
		if err := fn(o); err != nil {
			return err
		}
		n++
		if progress != nil {
			progress(n)
		}
		return nil
	})
}

// BulkProducts reads every product's id and title.
func (c *Client) BulkProducts(ctx context.Context, fn func(app.Product) error) error {
	return c.bulk(ctx, bulkProductsQuery, func(root *bulkNode) error {
		var p struct {
			ID               string `json:"id"`
			LegacyResourceID string `json:"legacyResourceId"`
			Title            string `json:"title"`
		}
		if err := json.Unmarshal(root.raw, &p); err != nil {
			return fmt.Errorf("shopify bulk product: %w", err)
		}
		return fn(app.Product{ID: "shopify:" + firstNonEmpty(p.LegacyResourceID, gidNumber(p.ID)), Title: domain.ClipTitle(p.Title)})
	})
}

// BulkCustomers reads every customer's id and order count.
func (c *Client) BulkCustomers(ctx context.Context, fn func(app.Customer) error) error {
	return c.bulk(ctx, bulkCustomersQuery, func(root *bulkNode) error {
		var cu struct {
			ID               string  `json:"id"`
			LegacyResourceID string  `json:"legacyResourceId"`
			NumberOfOrders   flexInt `json:"numberOfOrders"`
		}
		if err := json.Unmarshal(root.raw, &cu); err != nil {
			return fmt.Errorf("shopify bulk customer: %w", err)
		}
		return fn(app.Customer{ID: "shopify:" + firstNonEmpty(cu.LegacyResourceID, gidNumber(cu.ID)), NumberOfOrders: int64(cu.NumberOfOrders)})
	})
}

// bulk starts a bulk query, waits for it, and streams its result to fn one
// top-level object (with its nested children) at a time.
func (c *Client) bulk(ctx context.Context, query string, fn func(root *bulkNode) error) error {
	var run struct {
		BulkOperationRunQuery struct {
			BulkOperation *struct {
				ID string `json:"id"`
			} `json:"bulkOperation"`
			UserErrors []userError `json:"userErrors"`
		} `json:"bulkOperationRunQuery"`
	}
	if err := c.do(ctx, bulkRun, map[string]any{"q": query}, &run); err != nil {
		return err
	}
	if err := userErrors(run.BulkOperationRunQuery.UserErrors); err != nil {
		return fmt.Errorf("shopify bulk: %w", err)
	}
	if run.BulkOperationRunQuery.BulkOperation == nil {
		return errors.New("shopify bulk: no operation started")
	}
	link, err := c.waitBulk(ctx, run.BulkOperationRunQuery.BulkOperation.ID)
	if err != nil || link == "" {
		return err // an empty link means no results
	}
	return c.streamBulk(ctx, link, fn)
}

// waitBulk polls the operation until it ends, backing off from pollBase to
// ten times it, and returns its result URL.
func (c *Client) waitBulk(ctx context.Context, id string) (string, error) {
	every := c.s.pollBase
	for {
		var r struct {
			BulkOperation *struct {
				Status    string  `json:"status"`
				ErrorCode *string `json:"errorCode"`
				URL       *string `json:"url"`
			} `json:"bulkOperation"`
		}
		if err := c.do(ctx, bulkPoll, map[string]any{"id": id}, &r); err != nil {
			return "", err
		}
		if r.BulkOperation == nil {
			return "", fmt.Errorf("shopify bulk: operation %s not found", id)
		}
		switch r.BulkOperation.Status {
		case "COMPLETED":
			if r.BulkOperation.URL == nil {
				return "", nil
			}
			return *r.BulkOperation.URL, nil
		case "FAILED", "CANCELED", "EXPIRED":
			code := ""
			if r.BulkOperation.ErrorCode != nil {
				code = " (" + *r.BulkOperation.ErrorCode + ")"
			}
			return "", fmt.Errorf("shopify bulk: operation %s%s", r.BulkOperation.Status, code)
		}
		if err := sleep(ctx, every); err != nil {
			return "", err
		}
		every = min(every*3/2, 10*c.s.pollBase)
	}
}

// streamBulk downloads the JSONL result without holding it in memory. The
// link is pre-signed, so no token is sent with it.
func (c *Client) streamBulk(ctx context.Context, link string, fn func(root *bulkNode) error) error {
	u, err := url.Parse(link)
	if err != nil {
		return fmt.Errorf("shopify bulk: result link: %w", err)
	}
	if !u.IsAbs() {
		base, err := url.Parse(c.s.cfg.BaseURL(c.shop) + "/")
		if err != nil {
			return err
		}
		u = base.ResolveReference(u)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return err
	}
	resp, err := c.s.cfg.HTTPClient.Do(req)
	if err != nil {
		return fmt.Errorf("shopify bulk: download: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("shopify bulk: download: %s", resp.Status)
	}
	return readBulk(resp.Body, fn)
}

// bulkNode is one JSONL line with the lines that named it as __parentId.
type bulkNode struct {
	ID       string
	raw      json.RawMessage
	children []*bulkNode
}

// readBulk re-nests a bulk result: each line without __parentId starts a
// new top-level object, and the lines after it attach to their parent by
// id. Shopify writes children after their parent, so a top-level object is
// complete when the next one starts and only one is held at a time.
func readBulk(r io.Reader, fn func(root *bulkNode) error) error {
	dec := json.NewDecoder(r)
	var root *bulkNode
	index := map[string]*bulkNode{}
	for line := 1; ; line++ {
		var raw json.RawMessage
		if err := dec.Decode(&raw); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return fmt.Errorf("shopify bulk: line %d: %w", line, err)
		}
		var head struct {
			ID     string `json:"id"`
			Parent string `json:"__parentId"`
		}
		if err := json.Unmarshal(raw, &head); err != nil {
			return fmt.Errorf("shopify bulk: line %d: %w", line, err)
		}
		n := &bulkNode{ID: head.ID, raw: raw}
		if head.Parent == "" {
			if root != nil {
				if err := fn(root); err != nil {
					return err
				}
			}
			root = n
			clear(index)
		} else {
			p := index[head.Parent]
			if p == nil {
				return fmt.Errorf("shopify bulk: line %d: parent %s not seen before it", line, head.Parent)
			}
			p.children = append(p.children, n)
		}
		if head.ID != "" {
			index[head.ID] = n
		}
	}
	if root != nil {
		return fn(root)
	}
	return nil
}
