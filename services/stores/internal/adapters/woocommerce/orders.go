package woocommerce

import (
	"fmt"
	"strings"
	"time"

	"uplift.dev/stores/internal/domain"
)

// The REST API v3 order and refund as JSON (§2 "Orders", "Refunds"):
// money is strings, dates are pairs without an offset, of which the _gmt
// one is UTC and the only one read here.

type wooLineJSON struct {
	ProductID   int64  `json:"product_id"`
	VariationID int64  `json:"variation_id"`
	Name        string `json:"name"`
	SKU         string `json:"sku"`
	Quantity    int64  `json:"quantity"`
	Subtotal    string `json:"subtotal"`
	Total       string `json:"total"`
	TotalTax    string `json:"total_tax"`
}

type wooFeeJSON struct {
	Name     string `json:"name"`
	Total    string `json:"total"`
	TotalTax string `json:"total_tax"`
}

type wooShippingJSON struct {
	Total    string `json:"total"`
	TotalTax string `json:"total_tax"`
}

type wooOrderJSON struct {
	ID            int64         `json:"id"`
	Number        string        `json:"number"`
	Status        string        `json:"status"`
	Currency      string        `json:"currency"`
	CustomerID    int64         `json:"customer_id"`
	DateCreated   *string       `json:"date_created_gmt"`
	DatePaid      *string       `json:"date_paid_gmt"`
	DateModified  *string       `json:"date_modified_gmt"`
	Total         string        `json:"total"`
	TotalTax      string        `json:"total_tax"`
	ShippingTotal string        `json:"shipping_total"`
	ShippingTax   string        `json:"shipping_tax"`
	DiscountTotal string        `json:"discount_total"`
	LineItems     []wooLineJSON `json:"line_items"`
	FeeLines      []wooFeeJSON  `json:"fee_lines"`
	Refunds       []struct {
		ID int64 `json:"id"`
	} `json:"refunds"`
}

type wooRefundJSON struct {
	ID            int64             `json:"id"`
	DateCreated   *string           `json:"date_created_gmt"`
	Amount        string            `json:"amount"`
	LineItems     []wooLineJSON     `json:"line_items"`
	FeeLines      []wooFeeJSON      `json:"fee_lines"`
	ShippingLines []wooShippingJSON `json:"shipping_lines"`
}

// money reads a WooCommerce amount; an empty string is zero.
type moneyReader struct {
	currency string
	err      error
}

func (m *moneyReader) read(field, s string) domain.Money {
	s = strings.TrimSpace(s)
	if s == "" || m.err != nil {
		return 0
	}
	v, err := domain.ParseMoney(s, m.currency)
	if err != nil {
		m.err = fmt.Errorf("%s %q: %w", field, s, err)
	}
	return v
}

// gmt reads a _gmt date (UTC, no offset); nil or empty is "not set".
func gmt(field string, s *string) (*time.Time, error) {
	if s == nil || strings.TrimSpace(*s) == "" {
		return nil, nil
	}
	t, err := time.ParseInLocation("2006-01-02T15:04:05", strings.TrimSpace(*s), time.UTC)
	if err != nil {
		return nil, fmt.Errorf("%s %q is not a date", field, *s)
	}
	return &t, nil
}

func (r wooOrderJSON) order() (domain.WooOrder, error) {
	m := &moneyReader{currency: r.Currency}
	o := domain.WooOrder{ID: r.ID, Number: r.Number, Status: domain.WooStatus(r.Status), Currency: r.Currency,
		CustomerID: r.CustomerID, Total: m.read("total", r.Total), TotalTax: m.read("total_tax", r.TotalTax),
		ShippingTotal: m.read("shipping_total", r.ShippingTotal), ShippingTax: m.read("shipping_tax", r.ShippingTax),
		DiscountTotal: m.read("discount_total", r.DiscountTotal)}
	created, err := gmt("date_created_gmt", r.DateCreated)
	if err != nil || created == nil {
		return o, fmt.Errorf("date_created_gmt missing or bad: %v", err)
	}
	o.CreatedAt = *created
	if o.PaidAt, err = gmt("date_paid_gmt", r.DatePaid); err != nil {
		return o, err
	}
	modified, err := gmt("date_modified_gmt", r.DateModified)
	if err != nil {
		return o, err
	}
	if modified != nil {
		o.ModifiedAt = *modified
	}
	for _, l := range r.LineItems {
		o.Lines = append(o.Lines, l.line(m))
	}
	for _, f := range r.FeeLines {
		o.Fees = append(o.Fees, domain.WooFee{Name: f.Name, Total: m.read("fee total", f.Total), Tax: m.read("fee tax", f.TotalTax)})
	}
	return o, m.err
}

func (l wooLineJSON) line(m *moneyReader) domain.WooLine {
	return domain.WooLine{ProductID: l.ProductID, VariationID: l.VariationID, SKU: l.SKU, Name: l.Name,
		Quantity: l.Quantity, Subtotal: m.read("subtotal", l.Subtotal), Total: m.read("line total", l.Total),
		Tax: m.read("line tax", l.TotalTax)}
}

func (r wooRefundJSON) refund(currency string) (domain.WooRefund, error) {
	m := &moneyReader{currency: currency}
	at, err := gmt("date_created_gmt", r.DateCreated)
	if err != nil || at == nil {
		return domain.WooRefund{}, fmt.Errorf("refund date missing or bad: %v", err)
	}
	out := domain.WooRefund{ID: r.ID, CreatedAt: *at, Amount: m.read("amount", r.Amount)}
	for _, l := range r.LineItems {
		out.Lines = append(out.Lines, l.line(m))
	}
	for _, f := range r.FeeLines {
		out.Fees = append(out.Fees, domain.WooFee{Name: f.Name, Total: m.read("fee total", f.Total), Tax: m.read("fee tax", f.TotalTax)})
	}
	for _, s := range r.ShippingLines {
		out.Shipping += m.read("shipping total", s.Total)
		out.ShippingTax += m.read("shipping tax", s.TotalTax)
	}
	return out, m.err
}
