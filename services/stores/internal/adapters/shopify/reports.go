package shopify

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"uplift.dev/stores/internal/app"
	"uplift.dev/stores/internal/domain"
)

const shopifyqlQuery = `query QL($q: String!) { shopifyqlQuery(query: $q) {
tableData { columns { name dataType displayName } rows } parseErrors } }`

// Sessions reads sessions and sessions that completed checkout per day of
// [from, to] (YYYY-MM-DD, shop-local). They exist only in Shopify's
// analytics, never in orders; domain.ErrNotGranted when read_reports is missing.
func (c *Client) Sessions(ctx context.Context, from, to string) ([]app.ShopSessions, error) {
	rows, err := c.shopifyQL(ctx, "FROM sessions SHOW sessions, sessions_that_completed_checkout, conversion_rate", from, to)
	if err != nil {
		return nil, err
	}
	out := make([]app.ShopSessions, 0, len(rows))
	for _, r := range rows {
		d := app.ShopSessions{Day: r.day()}
		var err error
		if d.Sessions, err = r.int("sessions"); err != nil {
			return nil, err
		}
		if d.Completed, err = r.int("sessions_that_completed_checkout"); err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, nil
}

// Sales reads Shopify's own sales report per day of [from, to], amounts in
// currency's minor units (the shop's currency).
func (c *Client) Sales(ctx context.Context, from, to, currency string) ([]app.ShopSales, error) {
	rows, err := c.shopifyQL(ctx, "FROM sales SHOW orders, gross_sales, discounts, returns, net_sales, shipping, taxes, total_sales", from, to)
	if err != nil {
		return nil, err
	}
	out := make([]app.ShopSales, 0, len(rows))
	for _, r := range rows {
		d := app.ShopSales{Day: r.day()}
		var err error
		if d.Orders, err = r.int("orders"); err != nil {
			return nil, err
		}
		for _, f := range []struct {
			col string
			dst *domain.Money
		}{{"gross_sales", &d.GrossSales}, {"discounts", &d.Discounts}, {"returns", &d.Returns}, {"net_sales", &d.NetSales},
			{"shipping", &d.Shipping}, {"taxes", &d.Taxes}, {"total_sales", &d.TotalSales}} {
			if *f.dst, err = r.money(f.col, currency); err != nil {
				return nil, err
			}
		}
		out = append(out, d)
	}
	return out, nil
}

// qlRow is one ShopifyQL row keyed by column name, values as JSON text.
type qlRow map[string]json.RawMessage

// shopifyQL runs "<show> SINCE from UNTIL to GROUP BY day" and returns its
// rows. Shopify documents rows as objects keyed by column; arrays in column
// order are read too.
func (c *Client) shopifyQL(ctx context.Context, show, from, to string) ([]qlRow, error) {
	for _, d := range []string{from, to} {
		if _, err := domain.ParseDate(d); err != nil {
			return nil, fmt.Errorf("shopifyql day %q: %w", d, err)
		}
	}
	q := show + " SINCE " + from + " UNTIL " + to + " GROUP BY day"
	var r struct {
		ShopifyqlQuery *struct {
			TableData *struct {
				Columns []struct {
					Name string `json:"name"`
				} `json:"columns"`
				Rows json.RawMessage `json:"rows"`
			} `json:"tableData"`
			ParseErrors []string `json:"parseErrors"`
		} `json:"shopifyqlQuery"`
	}
	if err := c.do(ctx, shopifyqlQuery, map[string]any{"q": q}, &r); err != nil {
		return nil, err
	}
	res := r.ShopifyqlQuery
	if res == nil {
		return nil, fmt.Errorf("shopifyql: no answer to %q", q)
	}
	if len(res.ParseErrors) > 0 {
		return nil, fmt.Errorf("shopifyql: %s", strings.Join(res.ParseErrors, "; "))
	}
	if res.TableData == nil {
		return nil, nil
	}
	raw := bytes.TrimSpace(res.TableData.Rows)
	if len(raw) > 0 && raw[0] == '"' { // a JSON document sent as a string
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, fmt.Errorf("shopifyql rows: %w", err)
		}
		raw = []byte(s)
	}
	var items []json.RawMessage
	if len(raw) > 0 && string(raw) != "null" {
		if err := json.Unmarshal(raw, &items); err != nil {
			return nil, fmt.Errorf("shopifyql rows: %w", err)
		}
	}
	rows := make([]qlRow, 0, len(items))
	for _, it := range items {
		row := qlRow{}
		if t := bytes.TrimSpace(it); len(t) > 0 && t[0] == '[' {
			var cells []json.RawMessage
			if err := json.Unmarshal(t, &cells); err != nil {
				return nil, fmt.Errorf("shopifyql row: %w", err)
			}
			for i, col := range res.TableData.Columns {
				if i < len(cells) {
					row[col.Name] = cells[i]
				}
			}
		} else if err := json.Unmarshal(t, &row); err != nil {
			return nil, fmt.Errorf("shopifyql row: %w", err)
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// text is a cell as a string, whether sent as a JSON string or number.
func (r qlRow) text(col string) string {
	v := bytes.TrimSpace(r[col])
	if len(v) == 0 || string(v) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(v, &s) == nil {
		return s
	}
	return string(v)
}

// day is the row's day as YYYY-MM-DD, whatever time part Shopify adds.
func (r qlRow) day() string {
	d := r.text("day")
	if len(d) > 10 {
		d = d[:10]
	}
	return d
}

func (r qlRow) int(col string) (int64, error) {
	var n flexInt
	s := r.text(col)
	if s == "" {
		return 0, nil
	}
	if whole, frac, ok := strings.Cut(s, "."); ok && strings.Trim(frac, "0") == "" {
		s = whole // "12.0"
	}
	if err := n.UnmarshalJSON([]byte(s)); err != nil {
		return 0, fmt.Errorf("shopifyql %s: %w", col, err)
	}
	return int64(n), nil
}

func (r qlRow) money(col, currency string) (domain.Money, error) {
	m, err := parseMoney(r.text(col), currency)
	if err != nil {
		return 0, fmt.Errorf("shopifyql %s: %w", col, err)
	}
	return m, nil
}
