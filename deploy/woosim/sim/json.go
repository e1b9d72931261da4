package sim

import (
	"fmt"
	"time"
)

// The resources as WooCommerce's v3 controllers render them, trimmed to the
// fields a reporting client reads plus enough of the rest to look real.
// Money is strings, dates come in pairs without an offset: the plain one in
// the site's zone, the _gmt one in UTC.

func dates(m map[string]any, name string, t *time.Time, loc *time.Location) {
	if t == nil {
		m[name], m[name+"_gmt"] = nil, nil
		return
	}
	m[name], m[name+"_gmt"] = wcTime(*t, loc), wcTime(*t, time.UTC)
}

func (s *Server) orderJSON(st *store, od *order, loc *time.Location) map[string]any {
	var cartTax, discount, discountTax int64
	lines := []any{}
	for _, l := range od.lines {
		cartTax += l.tax
		discount += l.subtotal - l.total
		discountTax += l.subTax - l.tax
		lines = append(lines, map[string]any{
			"id": l.id, "name": l.name, "product_id": l.productID, "variation_id": 0, "quantity": l.qty, "tax_class": "",
			"subtotal": money(l.subtotal), "subtotal_tax": money(l.subTax), "total": money(l.total), "total_tax": money(l.tax),
			"taxes": []any{map[string]any{"id": 1, "total": money(l.tax), "subtotal": money(l.subTax)}},
			"sku":   l.sku, "price": float64(l.total) / float64(l.qty) / 100, "meta_data": []any{},
		})
	}
	taxLines, shipLines, couponLines := []any{}, []any{}, []any{}
	if st.spec.TaxPercent > 0 {
		taxLines = append(taxLines, map[string]any{"id": od.id*10 + 1, "rate_code": "US-NY-SALES TAX-1", "rate_id": 1, "label": "Sales tax",
			"compound": false, "tax_total": money(cartTax), "shipping_tax_total": money(od.shippingTax), "rate_percent": st.spec.TaxPercent, "meta_data": []any{}})
	}
	if od.shipping > 0 {
		shipLines = append(shipLines, map[string]any{"id": od.id*10 + 2, "method_title": "Flat rate", "method_id": "flat_rate", "instance_id": "1",
			"total": money(od.shipping), "total_tax": money(od.shippingTax), "taxes": []any{map[string]any{"id": 1, "total": money(od.shippingTax)}}, "meta_data": []any{}})
	}
	if od.coupon != "" {
		couponLines = append(couponLines, map[string]any{"id": od.id*10 + 3, "code": od.coupon, "discount": money(discount), "discount_tax": money(discountTax), "meta_data": []any{}})
	}
	refunds := []any{}
	for _, rf := range od.refunds {
		refunds = append(refunds, map[string]any{"id": rf.id, "reason": rf.reason, "total": money(-rf.amount)})
	}
	m := map[string]any{
		"id": od.id, "parent_id": 0, "number": fmt.Sprint(od.id), "order_key": od.key, "created_via": "checkout", "version": "9.9.0",
		"status": od.status, "currency": od.currency, "prices_include_tax": false,
		"discount_total": money(discount), "discount_tax": money(discountTax),
		"shipping_total": money(od.shipping), "shipping_tax": money(od.shippingTax),
		"cart_tax": money(cartTax), "total": money(od.total()), "total_tax": money(cartTax + od.shippingTax),
		"customer_id": od.customerID, "customer_note": "",
		"billing":        map[string]any{"first_name": "", "last_name": "", "city": "", "state": "NY", "postcode": "", "country": "US", "email": "", "phone": ""},
		"shipping":       map[string]any{"first_name": "", "last_name": "", "city": "", "state": "NY", "postcode": "", "country": "US"},
		"payment_method": "stripe", "payment_method_title": "Credit card", "transaction_id": "",
		"line_items": lines, "tax_lines": taxLines, "shipping_lines": shipLines, "fee_lines": []any{}, "coupon_lines": couponLines,
		"refunds": refunds, "meta_data": []any{}, "set_paid": false,
		"_links": map[string]any{"self": []any{map[string]string{"href": s.homeLocked(st.spec.Slug) + fmt.Sprintf("/wp-json/wc/v3/orders/%d", od.id)}}},
	}
	if od.customerID != 0 {
		m["billing"].(map[string]any)["email"] = fmt.Sprintf("customer%d@example.com", od.customerID)
	}
	created, modified := od.createdAt, od.modifiedAt
	dates(m, "date_created", &created, loc)
	dates(m, "date_modified", &modified, loc)
	dates(m, "date_paid", od.paidAt, loc)
	dates(m, "date_completed", od.completedAt, loc)
	return m
}

// refundJSON is a refund as /orders/{id}/refunds renders it: a positive
// amount, negative line quantities and totals; /refunds adds parent_id.
func refundJSON(od *order, rf *refund, loc *time.Location, withParent bool) map[string]any {
	lines := []any{}
	for _, rl := range rf.lines {
		lines = append(lines, map[string]any{
			"id": rf.id*100 + rl.l.id%100, "name": rl.l.name, "product_id": rl.l.productID, "variation_id": 0, "quantity": -rl.qty, "tax_class": "",
			"subtotal": money(-rl.total), "subtotal_tax": money(-rl.tax), "total": money(-rl.total), "total_tax": money(-rl.tax),
			"taxes": []any{map[string]any{"id": 1, "total": money(-rl.tax), "subtotal": money(-rl.tax)}},
			"sku":   rl.l.sku, "price": -float64(rl.l.total) / float64(rl.l.qty) / 100, "meta_data": []any{map[string]any{"key": "_refunded_item_id", "value": fmt.Sprint(rl.l.id)}},
		})
	}
	ship := []any{}
	if rf.shipping > 0 || rf.shipTax > 0 {
		ship = append(ship, map[string]any{"id": rf.id*100 + 99, "method_title": "Flat rate", "method_id": "flat_rate", "total": money(-rf.shipping), "total_tax": money(-rf.shipTax)})
	}
	m := map[string]any{"id": rf.id, "reason": rf.reason, "amount": money(rf.amount), "refunded_by": 1, "refunded_payment": false,
		"line_items": lines, "shipping_lines": ship, "tax_lines": []any{}, "fee_lines": []any{}, "meta_data": []any{}}
	if withParent {
		m["parent_id"] = od.id
	}
	created := rf.createdAt
	dates(m, "date_created", &created, loc)
	return m
}

func (s *Server) productJSON(st *store, p *product) map[string]any {
	sp := p.spec
	images := []any{}
	if sp.ImageURL != "" {
		images = append(images, map[string]any{"id": sp.ID + 1000, "src": sp.ImageURL, "name": sp.Slug, "alt": sp.Name})
	}
	cats := []any{}
	if sp.Category != "" {
		cats = append(cats, map[string]any{"id": 15, "name": sp.Category, "slug": nonAlnum.ReplaceAllString(sp.Category, "-")})
	}
	m := map[string]any{
		"id": sp.ID, "name": sp.Name, "slug": sp.Slug, "permalink": s.homeLocked(st.spec.Slug) + "/product/" + sp.Slug + "/",
		"type": "simple", "status": sp.Status, "featured": false, "catalog_visibility": "visible",
		"description": "", "short_description": "", "sku": sp.SKU,
		"price": money(sp.Price), "regular_price": money(sp.Price), "sale_price": "", "on_sale": false, "purchasable": true,
		"virtual": false, "downloadable": false, "tax_status": "taxable", "tax_class": "", "manage_stock": false, "stock_status": "instock",
		"categories": cats, "tags": []any{}, "images": images, "attributes": []any{}, "variations": []any{}, "meta_data": []any{},
	}
	dates(m, "date_created", &p.createdAt, st.loc)
	dates(m, "date_modified", &p.updatedAt, st.loc)
	return m
}

func (s *Server) customerJSON(st *store, cu *customer) map[string]any {
	email := fmt.Sprintf("customer%d@example.com", cu.id)
	paying := false
	for _, od := range st.orders {
		if od.customerID == cu.id && od.paidAt != nil {
			paying = true
			break
		}
	}
	m := map[string]any{
		"id": cu.id, "email": email, "first_name": "", "last_name": "", "role": "customer", "username": fmt.Sprintf("customer%d", cu.id),
		"billing":            map[string]any{"first_name": "", "last_name": "", "email": email, "country": "US", "state": "NY"},
		"shipping":           map[string]any{"first_name": "", "last_name": "", "country": "US", "state": "NY"},
		"is_paying_customer": paying, "avatar_url": "", "meta_data": []any{},
	}
	dates(m, "date_created", &cu.createdAt, st.loc)
	dates(m, "date_modified", &cu.updatedAt, st.loc)
	return m
}
