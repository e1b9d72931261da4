package shopify

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"uplift.dev/stores/internal/domain"
)

// Page sizes of the per-order query. They keep its calculated cost under
// Shopify's 1000-point cap; larger orders are read in further pages.
const (
	lineItemsPage  = 50
	agreementsPage = 10
	salesPage      = 10
	ordersPage     = 50
)

// saleFields is what each Sale node contributes to the numbers (research 3.3).
const saleFields = `__typename id actionType lineType quantity
totalAmount { shopMoney { amount currencyCode } }
totalDiscountAmountBeforeTaxes { shopMoney { amount } }
totalTaxAmount { shopMoney { amount } }
... on ProductSale { lineItem { id name sku product { id legacyResourceId title } } }`

// orderFields are the order's own fields, without its connections.
const orderFields = `id legacyResourceId name createdAt updatedAt cancelledAt test currencyCode taxesIncluded customer { id }`

type pageInfo struct {
	HasNextPage bool   `json:"hasNextPage"`
	EndCursor   string `json:"endCursor"`
}

type moneyBag struct {
	ShopMoney struct {
		Amount       string `json:"amount"`
		CurrencyCode string `json:"currencyCode"`
	} `json:"shopMoney"`
}

type gqlSale struct {
	ID                             string    `json:"id"`
	ActionType                     string    `json:"actionType"`
	LineType                       string    `json:"lineType"`
	Quantity                       *int64    `json:"quantity"`
	TotalAmount                    moneyBag  `json:"totalAmount"`
	TotalDiscountAmountBeforeTaxes *moneyBag `json:"totalDiscountAmountBeforeTaxes"`
	TotalTaxAmount                 *moneyBag `json:"totalTaxAmount"`
	LineItem                       *struct {
		Name    string  `json:"name"`
		SKU     *string `json:"sku"`
		Product *struct {
			ID               string `json:"id"`
			LegacyResourceID string `json:"legacyResourceId"`
			Title            string `json:"title"`
		} `json:"product"`
	} `json:"lineItem"`
}

type gqlAgreement struct {
	ID         string `json:"id"`
	HappenedAt string `json:"happenedAt"`
	Sales      struct {
		PageInfo pageInfo  `json:"pageInfo"`
		Nodes    []gqlSale `json:"nodes"`
	} `json:"sales"`
	// sales read in bulk arrive as separate lines
	bulkSales []gqlSale
}

type gqlLineItem struct {
	IsGiftCard bool `json:"isGiftCard"`
}

type gqlOrder struct {
	ID               string  `json:"id"`
	LegacyResourceID string  `json:"legacyResourceId"`
	Name             string  `json:"name"`
	CreatedAt        string  `json:"createdAt"`
	UpdatedAt        string  `json:"updatedAt"`
	CancelledAt      *string `json:"cancelledAt"`
	Test             bool    `json:"test"`
	CurrencyCode     string  `json:"currencyCode"`
	Customer         *struct {
		ID string `json:"id"`
	} `json:"customer"`
	LineItems struct {
		PageInfo pageInfo      `json:"pageInfo"`
		Nodes    []gqlLineItem `json:"nodes"`
	} `json:"lineItems"`
	Agreements struct {
		PageInfo pageInfo `json:"pageInfo"`
		Edges    []struct {
			Cursor string       `json:"cursor"`
			Node   gqlAgreement `json:"node"`
		} `json:"edges"`
	} `json:"agreements"`
}

// orderQuery reads one order with the first pages of its connections.
var orderQuery = fmt.Sprintf(`query Order($id: ID!) { order(id: $id) { %s
lineItems(first: %d) { pageInfo { hasNextPage endCursor } nodes { isGiftCard } }
agreements(first: %d) { pageInfo { hasNextPage endCursor } edges { cursor node { id happenedAt
  sales(first: %d) { pageInfo { hasNextPage endCursor } nodes { %s } } } } } } }`,
	orderFields, lineItemsPage, agreementsPage, salesPage, saleFields)

// moreLineItemsQuery, moreAgreementsQuery and moreSalesQuery read the pages
// after the first. Sales of one agreement are reached through the
// agreements connection (first: 1 after the previous agreement's cursor),
// which needs no top-level node query.
var (
	moreLineItemsQuery = `query LineItems($id: ID!, $after: String) { order(id: $id) {
lineItems(first: 250, after: $after) { pageInfo { hasNextPage endCursor } nodes { isGiftCard } } } }`
	moreAgreementsQuery = fmt.Sprintf(`query Agreements($id: ID!, $after: String) { order(id: $id) {
agreements(first: %d, after: $after) { pageInfo { hasNextPage endCursor } edges { cursor node { id happenedAt
  sales(first: %d) { pageInfo { hasNextPage endCursor } nodes { %s } } } } } } }`, agreementsPage, salesPage, saleFields)
	moreSalesQuery = fmt.Sprintf(`query Sales($id: ID!, $agreementAfter: String, $after: String) { order(id: $id) {
agreements(first: 1, after: $agreementAfter) { edges { node { id
  sales(first: 50, after: $after) { pageInfo { hasNextPage endCursor } nodes { %s } } } } } } }`, saleFields)
)

// Order reads one order by its numeric id, every page of it; found is false
// when Shopify has no such order (deleted, or older than the token may see).
func (c *Client) Order(ctx context.Context, id int64, loc *time.Location) (domain.Order, bool, error) {
	gid := "gid://shopify/Order/" + strconv.FormatInt(id, 10)
	var r struct {
		Order *gqlOrder `json:"order"`
	}
	if err := c.do(ctx, orderQuery, map[string]any{"id": gid}, &r); err != nil {
		return domain.Order{}, false, err
	}
	if r.Order == nil {
		return domain.Order{}, false, nil
	}
	if err := c.completeOrder(ctx, r.Order); err != nil {
		return domain.Order{}, false, err
	}
	o, err := toOrder(r.Order, loc)
	return o, err == nil, err
}

// completeOrder fetches the pages after the first of every connection.
func (c *Client) completeOrder(ctx context.Context, o *gqlOrder) error {
	for pi := o.LineItems.PageInfo; pi.HasNextPage; {
		var r struct {
			Order *gqlOrder `json:"order"`
		}
		if err := c.do(ctx, moreLineItemsQuery, map[string]any{"id": o.ID, "after": pi.EndCursor}, &r); err != nil {
			return err
		}
		if r.Order == nil {
			return errOrderVanished
		}
		o.LineItems.Nodes = append(o.LineItems.Nodes, r.Order.LineItems.Nodes...)
		pi = r.Order.LineItems.PageInfo
	}
	for pi := o.Agreements.PageInfo; pi.HasNextPage; {
		var r struct {
			Order *gqlOrder `json:"order"`
		}
		if err := c.do(ctx, moreAgreementsQuery, map[string]any{"id": o.ID, "after": pi.EndCursor}, &r); err != nil {
			return err
		}
		if r.Order == nil {
			return errOrderVanished
		}
		o.Agreements.Edges = append(o.Agreements.Edges, r.Order.Agreements.Edges...)
		pi = r.Order.Agreements.PageInfo
	}
	for i := range o.Agreements.Edges {
		a := &o.Agreements.Edges[i].Node
		var before any // the cursor of the previous agreement, so first: 1 lands on this one
		if i > 0 {
			before = o.Agreements.Edges[i-1].Cursor
		}
		for pi := a.Sales.PageInfo; pi.HasNextPage; {
			var r struct {
				Order *gqlOrder `json:"order"`
			}
			vars := map[string]any{"id": o.ID, "agreementAfter": before, "after": pi.EndCursor}
			if err := c.do(ctx, moreSalesQuery, vars, &r); err != nil {
				return err
			}
			if r.Order == nil || len(r.Order.Agreements.Edges) != 1 || r.Order.Agreements.Edges[0].Node.ID != a.ID {
				return errOrderVanished
			}
			more := r.Order.Agreements.Edges[0].Node.Sales
			a.Sales.Nodes = append(a.Sales.Nodes, more.Nodes...)
			pi = more.PageInfo
		}
	}
	return nil
}

// errOrderVanished: the order changed shape while its pages were read; the
// next sweep reads it again.
var errOrderVanished = errors.New("shopify: order changed while it was being read")

// updatedSinceQuery lists the ids of orders changed since a moment, oldest
// change first, so an interrupted sweep can resume from its watermark.
const updatedSinceQuery = `query Updated($q: String!, $after: String) {
orders(first: 50, after: $after, query: $q, sortKey: UPDATED_AT) { pageInfo { hasNextPage endCursor } nodes { legacyResourceId } } }`

// OrdersUpdatedSince calls fn for every order updated at or after since,
// in update order. Each order is read whole (one query per order) because
// an order with its sales does not fit several to a page under the cost cap.
func (c *Client) OrdersUpdatedSince(ctx context.Context, since time.Time, loc *time.Location, fn func(domain.Order) error) error {
	q := "updated_at:>='" + since.UTC().Format(time.RFC3339) + "'"
	var after any
	for {
		var r struct {
			Orders struct {
				PageInfo pageInfo `json:"pageInfo"`
				Nodes    []struct {
					LegacyResourceID string `json:"legacyResourceId"`
				} `json:"nodes"`
			} `json:"orders"`
		}
		if err := c.do(ctx, updatedSinceQuery, map[string]any{"q": q, "after": after}, &r); err != nil {
			return err
		}
		for _, n := range r.Orders.Nodes {
			id, err := strconv.ParseInt(n.LegacyResourceID, 10, 64)
			if err != nil {
				return fmt.Errorf("shopify: order id %q: %w", n.LegacyResourceID, err)
			}
			o, found, err := c.Order(ctx, id, loc)
			if err != nil {
				return err
			}
			if !found {
				continue // deleted between the listing and the read
			}
			if err := fn(o); err != nil {
				return err
			}
		}
		if !r.Orders.PageInfo.HasNextPage {
			return nil
		}
		after = r.Orders.PageInfo.EndCursor
	}
}

// toOrder maps Shopify's order to the domain's: one Sale per Sale node,
// dated by its agreement, amounts in the shop currency's minor units and
// signed as Shopify gives them. No personal data is kept.
func toOrder(g *gqlOrder, loc *time.Location) (domain.Order, error) {
	if loc == nil {
		loc = time.UTC
	}
	o := domain.Order{
		ID:       "shopify:" + firstNonEmpty(g.LegacyResourceID, gidNumber(g.ID)),
		Source:   domain.SourceShopify,
		Name:     g.Name,
		Test:     g.Test,
		Currency: g.CurrencyCode,
	}
	var err error
	if o.CreatedAt, err = parseTime(g.CreatedAt, loc); err != nil {
		return domain.Order{}, err
	}
	if o.UpdatedAt, err = parseTime(g.UpdatedAt, loc); err != nil {
		return domain.Order{}, err
	}
	if g.CancelledAt != nil && *g.CancelledAt != "" {
		t, err := parseTime(*g.CancelledAt, loc)
		if err != nil {
			return domain.Order{}, err
		}
		o.CancelledAt = &t
	}
	if g.Customer != nil && g.Customer.ID != "" {
		o.CustomerKey = "shopify:" + gidNumber(g.Customer.ID)
	}
	o.GiftCardOnly = len(g.LineItems.Nodes) > 0
	for _, li := range g.LineItems.Nodes {
		o.GiftCardOnly = o.GiftCardOnly && li.IsGiftCard
	}
	for _, e := range g.Agreements.Edges {
		at, err := parseTime(e.Node.HappenedAt, loc)
		if err != nil {
			return domain.Order{}, err
		}
		for _, s := range append(e.Node.Sales.Nodes, e.Node.bulkSales...) {
			ds, err := toSale(s, at, o.Currency)
			if err != nil {
				return domain.Order{}, fmt.Errorf("order %s: %w", o.ID, err)
			}
			o.Sales = append(o.Sales, ds)
		}
	}
	return o, nil
}

// toSale maps one Sale node.
func toSale(s gqlSale, at time.Time, orderCurrency string) (domain.Sale, error) {
	cur := firstNonEmpty(s.TotalAmount.ShopMoney.CurrencyCode, orderCurrency)
	ds := domain.Sale{HappenedAt: at, Action: toAction(s.ActionType), Line: toLine(s.LineType)}
	if s.Quantity != nil {
		ds.Quantity = *s.Quantity
	}
	var err error
	if ds.Total, err = parseMoney(s.TotalAmount.ShopMoney.Amount, cur); err != nil {
		return domain.Sale{}, err
	}
	if s.TotalDiscountAmountBeforeTaxes != nil {
		if ds.Discount, err = parseMoney(s.TotalDiscountAmountBeforeTaxes.ShopMoney.Amount, cur); err != nil {
			return domain.Sale{}, err
		}
	}
	if s.TotalTaxAmount != nil {
		if ds.Tax, err = parseMoney(s.TotalTaxAmount.ShopMoney.Amount, cur); err != nil {
			return domain.Sale{}, err
		}
	}
	if li := s.LineItem; li != nil {
		// Shopify's titles are its merchants' text: cut to the bound, not refused.
		ds.ProductTitle = domain.ClipTitle(li.Name)
		switch {
		case li.Product != nil && (li.Product.LegacyResourceID != "" || li.Product.ID != ""):
			ds.ProductKey = "shopify:" + firstNonEmpty(li.Product.LegacyResourceID, gidNumber(li.Product.ID))
			if li.Product.Title != "" {
				ds.ProductTitle = domain.ClipTitle(li.Product.Title)
			}
		case li.SKU != nil && *li.SKU != "":
			ds.ProductKey = domain.ClipTitle(*li.SKU)
		default:
			ds.ProductKey = ds.ProductTitle
		}
	}
	return ds, nil
}

// toAction maps Shopify's SaleActionType.
func toAction(a string) domain.Action {
	switch a {
	case "RETURN":
		return domain.ActionReturn
	case "UPDATE":
		return domain.ActionEdit
	default:
		return domain.ActionOrder
	}
}

// toLine maps Shopify's SaleLineType; unknown kinds stay visible as UNKNOWN.
func toLine(l string) domain.Line {
	switch ln := domain.Line(l); ln {
	case domain.LineProduct, domain.LineShipping, domain.LineGiftCard, domain.LineDuty,
		domain.LineAdditionalFee, domain.LineFee, domain.LineTip:
		return ln
	}
	return domain.LineUnknown
}

// parseMoney reads Shopify's decimal string exactly; a missing amount is zero.
func parseMoney(s, currency string) (domain.Money, error) {
	if s == "" {
		return 0, nil
	}
	m, err := domain.ParseMoney(s, currency)
	if err != nil {
		return 0, fmt.Errorf("amount %q %s: %w", s, currency, err)
	}
	return m, nil
}

// parseTime reads an ISO 8601 instant and places it in loc.
func parseTime(s string, loc *time.Location) (time.Time, error) {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("shopify: time %q: %w", s, err)
	}
	return t.In(loc), nil
}

// gidNumber is the numeric tail of a global id ("gid://shopify/Order/12" → "12").
func gidNumber(gid string) string {
	gid, _, _ = strings.Cut(gid, "?")
	if i := strings.LastIndexByte(gid, '/'); i >= 0 {
		return gid[i+1:]
	}
	return gid
}
