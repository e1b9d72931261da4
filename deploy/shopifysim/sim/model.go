package sim

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"time"

	"uplift.dev/simkit"
)

// ShopSpec describes a shop to create. Zero MaxAvailable/RestoreRate give
// Shopify's Standard plan bucket (2000 points, 100/s).
type ShopSpec struct {
	Domain         string   `json:"domain"`
	Name           string   `json:"name"`
	Currency       string   `json:"currency"`
	Timezone       string   `json:"timezone"`
	TaxesIncluded  bool     `json:"taxesIncluded"`
	MaxAvailable   float64  `json:"maxAvailable"`
	RestoreRate    float64  `json:"restoreRate"`
	WithholdScopes []string `json:"withholdScopes"` // scopes the merchant declines even when requested
}

// LineSpec is one order line; money is in minor units of the shop currency.
type LineSpec struct {
	Title     string `json:"title"`
	SKU       string `json:"sku"`
	ProductID int64  `json:"productId"`
	Quantity  int64  `json:"quantity"`
	UnitPrice int64  `json:"unitPrice"` // minor units; includes tax when the shop's taxes are included
	Discount  int64  `json:"discount"`  // total line discount, minor units
	Tax       int64  `json:"tax"`       // total line tax, minor units
	GiftCard  bool   `json:"giftCard"`
}

// OrderSpec is an order to place; the simulator derives its sales agreement from it.
type OrderSpec struct {
	Name             string     `json:"name"`
	CreatedAt        time.Time  `json:"createdAt"`
	Test             bool       `json:"test"`
	CustomerID       int64      `json:"customerId"`
	Lines            []LineSpec `json:"lines"`
	Shipping         int64      `json:"shipping"`
	ShippingTax      int64      `json:"shippingTax"`
	ShippingDiscount int64      `json:"shippingDiscount"`
	Duties           int64      `json:"duties"`
	Fees             int64      `json:"fees"`
	Tip              int64      `json:"tip"`
}

// RefundSpec returns goods and/or shipping at a time, producing a RefundAgreement.
type RefundSpec struct {
	At          time.Time    `json:"at"`
	Lines       []RefundLine `json:"lines"`
	Shipping    int64        `json:"shipping"`    // shipping refunded, before tax
	ShippingTax int64        `json:"shippingTax"` // tax on the refunded shipping
}

// RefundLine returns Quantity units of OrderSpec.Lines[LineIndex].
type RefundLine struct {
	LineIndex int   `json:"lineIndex"`
	Quantity  int64 `json:"quantity"`
}

var shopDomainRE = regexp.MustCompile(`^[a-zA-Z0-9][a-zA-Z0-9-]*\.myshopify\.com$`)

type shop struct {
	spec      ShopSpec
	id        int64
	handle    string
	loc       *time.Location
	installed bool
	seq       int64 // per-shop id counter, so a shop's ids do not depend on other shops

	orders    map[int64]*order
	orderNum  int64
	products  map[int64]*product
	customers map[int64]*customer
	sessions  map[string][2]int64 // day → {sessions, completed}

	faults     simkit.Faults
	subs       []*subscription
	bulks      []*bulkOp
	deliveries []*Delivery
	buckets    map[string]*bucket
}

func (sh *shop) nextID() int64 { sh.seq++; return sh.seq }

type product struct {
	id                   int64
	title, handle        string
	price                int64 // minor units of the shop's currency; 0 when not set
	imageURL             string
	createdAt, updatedAt time.Time
}

type customer struct {
	id                   int64
	createdAt, updatedAt time.Time
}

type order struct {
	id                   int64
	name                 string
	createdAt, updatedAt time.Time
	cancelledAt          *time.Time
	test                 bool
	customerID           int64
	currency             string
	taxesIncluded        bool
	lines                []*lineItem
	agreements           []*agreement
	// what is still unreturned, so refunds and cancel allocate exact remainders
	shipLeft, shipTaxLeft, dutiesLeft, feesLeft, tipLeft int64
}

type lineItem struct {
	id                         int64
	spec                       LineSpec
	qtyLeft, discLeft, taxLeft int64
}

type agreement struct {
	id         int64
	typename   string // OrderAgreement | RefundAgreement
	reason     string // ORDER | REFUND
	happenedAt time.Time
	sales      []*sale
}

type sale struct {
	id                   int64
	typename             string
	actionType, lineType string
	quantity             int64
	total, discount, tax int64
	line                 *lineItem // ProductSale, GiftCardSale
}

// CreateShop adds a shop; the domain must look like Shopify's ({handle}.myshopify.com).
func (s *Server) CreateShop(sp ShopSpec) error {
	if !shopDomainRE.MatchString(sp.Domain) {
		return fmt.Errorf("%w: domain %q must be {handle}.myshopify.com", ErrInvalid, sp.Domain)
	}
	if sp.Currency == "" {
		sp.Currency = "USD"
	}
	if sp.Timezone == "" {
		sp.Timezone = "UTC"
	}
	loc, err := time.LoadLocation(sp.Timezone)
	if err != nil {
		return fmt.Errorf("%w: timezone %q", ErrInvalid, sp.Timezone)
	}
	handle := strings.TrimSuffix(sp.Domain, ".myshopify.com")
	if sp.Name == "" {
		sp.Name = handle
	}
	if sp.MaxAvailable <= 0 {
		sp.MaxAvailable = 2000
	}
	if sp.RestoreRate <= 0 {
		sp.RestoreRate = 100
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.shops[sp.Domain]; ok {
		return fmt.Errorf("%w: shop %s", ErrExists, sp.Domain)
	}
	var id int64
	for _, c := range sp.Domain {
		id = (id*31 + int64(c)) % 1e10
	}
	s.shops[sp.Domain] = &shop{
		spec: sp, id: id, handle: handle, loc: loc, seq: 1000, orderNum: 1000,
		orders: map[int64]*order{}, products: map[int64]*product{}, customers: map[int64]*customer{},
		sessions: map[string][2]int64{}, buckets: map[string]*bucket{},
	}
	return nil
}

func (s *Server) shopLocked(domain string) (*shop, error) {
	sh, ok := s.shops[domain]
	if !ok {
		return nil, fmt.Errorf("%w: %s", ErrNoShop, domain)
	}
	return sh, nil
}

// AddOrder places an order with an OrderAgreement at CreatedAt and fires orders/create.
func (s *Server) AddOrder(domain string, o OrderSpec) (int64, error) {
	if len(o.Lines) == 0 {
		return 0, fmt.Errorf("%w: an order needs at least one line", ErrInvalid)
	}
	for i, l := range o.Lines {
		if l.Quantity <= 0 || l.UnitPrice < 0 || l.Discount < 0 || l.Tax < 0 || l.Discount > l.UnitPrice*l.Quantity {
			return 0, fmt.Errorf("%w: line %d: quantity must be > 0, amounts >= 0, discount <= price×quantity", ErrInvalid, i)
		}
	}
	if o.Shipping < 0 || o.ShippingTax < 0 || o.ShippingDiscount < 0 || o.ShippingDiscount > o.Shipping || o.Duties < 0 || o.Fees < 0 || o.Tip < 0 {
		return 0, fmt.Errorf("%w: shipping, duties, fees and tip must be >= 0 and the shipping discount <= shipping", ErrInvalid)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	sh, err := s.shopLocked(domain)
	if err != nil {
		return 0, err
	}
	if o.CreatedAt.IsZero() {
		o.CreatedAt = s.now()
	}
	sh.orderNum++
	od := &order{
		id: sh.nextID(), name: o.Name, createdAt: o.CreatedAt, updatedAt: o.CreatedAt, test: o.Test,
		customerID: o.CustomerID, currency: sh.spec.Currency, taxesIncluded: sh.spec.TaxesIncluded,
		shipLeft: o.Shipping - o.ShippingDiscount, shipTaxLeft: o.ShippingTax,
		dutiesLeft: o.Duties, feesLeft: o.Fees, tipLeft: o.Tip,
	}
	if od.name == "" {
		od.name = fmt.Sprintf("#%d", sh.orderNum)
	}
	ag := &agreement{id: sh.nextID(), typename: "OrderAgreement", reason: "ORDER", happenedAt: o.CreatedAt}
	for _, l := range o.Lines {
		li := &lineItem{id: sh.nextID(), spec: l, qtyLeft: l.Quantity, discLeft: l.Discount, taxLeft: l.Tax}
		od.lines = append(od.lines, li)
		ag.sales = append(ag.sales, sh.lineSale(od, li, "ORDER", l.Quantity, l.Discount, l.Tax, 1))
	}
	if o.Shipping > 0 {
		total := o.Shipping - o.ShippingDiscount
		if !od.taxesIncluded {
			total += o.ShippingTax
		}
		ag.sales = append(ag.sales, &sale{id: sh.nextID(), typename: "ShippingLineSale", actionType: "ORDER", lineType: "SHIPPING", quantity: 1, total: total, discount: o.ShippingDiscount, tax: o.ShippingTax})
	}
	ag.sales = append(ag.sales, sh.otherSales(1, "ORDER", o.Duties, o.Fees, o.Tip)...)
	od.agreements = append(od.agreements, ag)
	sh.orders[od.id] = od
	s.emitLocked(sh, "orders/create", orderPayload(od))
	return od.id, nil
}

// lineSale builds the PRODUCT or GIFT_CARD sale for qty units; sign is +1 for
// the order and -1 for returns. For tax-inclusive shops the unit price already
// holds the tax, so the tax is inside totalAmount rather than added.
func (sh *shop) lineSale(od *order, li *lineItem, action string, qty, disc, tax, sign int64) *sale {
	total := li.spec.UnitPrice*qty - disc
	if !od.taxesIncluded {
		total += tax
	}
	typ, lt := "ProductSale", "PRODUCT"
	if li.spec.GiftCard {
		typ, lt = "GiftCardSale", "GIFT_CARD"
	}
	return &sale{id: sh.nextID(), typename: typ, actionType: action, lineType: lt, quantity: sign * qty,
		total: sign * total, discount: sign * disc, tax: sign * tax, line: li}
}

func (sh *shop) otherSales(sign int64, action string, duties, fees, tip int64) []*sale {
	var out []*sale
	for _, x := range []struct {
		typ, lt string
		amt     int64
	}{{"DutySale", "DUTY", duties}, {"AdditionalFeeSale", "ADDITIONAL_FEE", fees}, {"TipSale", "TIP", tip}} {
		if x.amt != 0 {
			out = append(out, &sale{id: sh.nextID(), typename: x.typ, actionType: action, lineType: x.lt, quantity: sign, total: sign * x.amt})
		}
	}
	return out
}

// returnUnits takes qty units off a line and returns the sale reversing them:
// discount and tax go pro rata, and the last unit takes what is left, so the
// order and its returns always sum to zero.
func (sh *shop) returnUnits(od *order, li *lineItem, qty int64) *sale {
	disc, tax := li.discLeft, li.taxLeft
	if qty < li.qtyLeft {
		disc = li.discLeft * qty / li.qtyLeft
		tax = li.taxLeft * qty / li.qtyLeft
	}
	li.qtyLeft -= qty
	li.discLeft -= disc
	li.taxLeft -= tax
	return sh.lineSale(od, li, "RETURN", qty, disc, tax, -1)
}

func (s *Server) orderLocked(domain string, id int64) (*shop, *order, error) {
	sh, err := s.shopLocked(domain)
	if err != nil {
		return nil, nil, err
	}
	od, ok := sh.orders[id]
	if !ok {
		return nil, nil, fmt.Errorf("%w: %d in %s", ErrNoOrder, id, domain)
	}
	return sh, od, nil
}

// Refund records a RefundAgreement at r.At with negative RETURN sales and fires
// refunds/create and orders/updated.
func (s *Server) Refund(domain string, orderID int64, r RefundSpec) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	sh, od, err := s.orderLocked(domain, orderID)
	if err != nil {
		return err
	}
	if r.At.IsZero() {
		r.At = s.now()
	}
	want := map[int]int64{}
	for _, rl := range r.Lines {
		if rl.LineIndex < 0 || rl.LineIndex >= len(od.lines) || rl.Quantity <= 0 {
			return fmt.Errorf("%w: refund line index %d quantity %d", ErrInvalid, rl.LineIndex, rl.Quantity)
		}
		want[rl.LineIndex] += rl.Quantity
		if want[rl.LineIndex] > od.lines[rl.LineIndex].qtyLeft {
			return fmt.Errorf("%w: line %d has only %d unreturned units", ErrInvalid, rl.LineIndex, od.lines[rl.LineIndex].qtyLeft)
		}
	}
	if r.Shipping < 0 || r.ShippingTax < 0 || r.Shipping > od.shipLeft || r.ShippingTax > od.shipTaxLeft {
		return fmt.Errorf("%w: shipping refund exceeds what is left (%d + tax %d)", ErrInvalid, od.shipLeft, od.shipTaxLeft)
	}
	if len(want) == 0 && r.Shipping == 0 && r.ShippingTax == 0 {
		return fmt.Errorf("%w: a refund needs lines or shipping", ErrInvalid)
	}
	ag := &agreement{id: sh.nextID(), typename: "RefundAgreement", reason: "REFUND", happenedAt: r.At}
	idx := make([]int, 0, len(want))
	for i := range want {
		idx = append(idx, i)
	}
	sort.Ints(idx)
	for _, i := range idx {
		ag.sales = append(ag.sales, sh.returnUnits(od, od.lines[i], want[i]))
	}
	if r.Shipping > 0 || r.ShippingTax > 0 {
		ag.sales = append(ag.sales, sh.shippingReturn(od, r.Shipping, r.ShippingTax))
	}
	od.agreements = append(od.agreements, ag)
	od.updatedAt = r.At
	s.emitLocked(sh, "refunds/create", map[string]any{"id": ag.id, "admin_graphql_api_id": gid("Refund", ag.id), "order_id": od.id, "created_at": iso(r.At)})
	s.emitLocked(sh, "orders/updated", orderPayload(od))
	return nil
}

func (sh *shop) shippingReturn(od *order, amt, tax int64) *sale {
	od.shipLeft -= amt
	od.shipTaxLeft -= tax
	total := amt
	if !od.taxesIncluded {
		total += tax
	}
	return &sale{id: sh.nextID(), typename: "ShippingLineSale", actionType: "RETURN", lineType: "SHIPPING", quantity: -1, total: -total, tax: -tax}
}

// Cancel sets cancelledAt and reverses everything not yet refunded in one
// RefundAgreement at the cancel time, as Shopify's reports show a cancel.
func (s *Server) Cancel(domain string, orderID int64, at time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	sh, od, err := s.orderLocked(domain, orderID)
	if err != nil {
		return err
	}
	if od.cancelledAt != nil {
		return fmt.Errorf("%w: order %d is already cancelled", ErrInvalid, orderID)
	}
	if at.IsZero() {
		at = s.now()
	}
	ag := &agreement{id: sh.nextID(), typename: "RefundAgreement", reason: "REFUND", happenedAt: at}
	for _, li := range od.lines {
		if li.qtyLeft > 0 {
			ag.sales = append(ag.sales, sh.returnUnits(od, li, li.qtyLeft))
		}
	}
	if od.shipLeft > 0 || od.shipTaxLeft > 0 {
		ag.sales = append(ag.sales, sh.shippingReturn(od, od.shipLeft, od.shipTaxLeft))
	}
	ag.sales = append(ag.sales, sh.otherSales(-1, "RETURN", od.dutiesLeft, od.feesLeft, od.tipLeft)...)
	od.dutiesLeft, od.feesLeft, od.tipLeft = 0, 0, 0
	if len(ag.sales) > 0 {
		od.agreements = append(od.agreements, ag)
	}
	od.cancelledAt = &at
	od.updatedAt = at
	s.emitLocked(sh, "orders/cancelled", orderPayload(od))
	s.emitLocked(sh, "orders/updated", orderPayload(od))
	return nil
}

// DeleteOrder removes an order (deleted orders leave Shopify's reports) and fires orders/delete.
func (s *Server) DeleteOrder(domain string, orderID int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	sh, od, err := s.orderLocked(domain, orderID)
	if err != nil {
		return err
	}
	delete(sh.orders, od.id)
	s.emitLocked(sh, "orders/delete", map[string]any{"id": od.id})
	return nil
}

// AddProduct adds (or retitles) a product and fires products/create or products/update.
func (s *Server) AddProduct(domain string, id int64, title string) error {
	return s.AddProductSpec(domain, ProductSpec{ID: id, Title: title})
}

// ProductSpec is a product as a merchant set it up: without a handle, one is
// made from the title, as Shopify does.
type ProductSpec struct {
	ID       int64
	Title    string
	Handle   string
	Price    int64 // minor units of the shop's currency
	ImageURL string
}

// AddProductSpec adds or updates a product with its handle, price and image
// and fires products/create or products/update.
func (s *Server) AddProductSpec(domain string, spec ProductSpec) error {
	if spec.ID <= 0 || strings.TrimSpace(spec.Title) == "" || spec.Price < 0 {
		return fmt.Errorf("%w: product needs id > 0, a title and a price of 0 or more", ErrInvalid)
	}
	if spec.Handle == "" {
		spec.Handle = handleize(spec.Title)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	sh, err := s.shopLocked(domain)
	if err != nil {
		return err
	}
	now := s.now()
	topic := "products/update"
	p, ok := sh.products[spec.ID]
	if !ok {
		p = &product{id: spec.ID, createdAt: now}
		sh.products[spec.ID] = p
		topic = "products/create"
	}
	p.title, p.handle, p.price, p.imageURL, p.updatedAt = spec.Title, spec.Handle, spec.Price, spec.ImageURL, now
	s.emitLocked(sh, topic, map[string]any{"id": spec.ID, "admin_graphql_api_id": gid("Product", spec.ID), "updated_at": iso(now)})
	return nil
}

// AddCustomer adds a customer (no PII: Uplift never needs it) and fires customers/create.
func (s *Server) AddCustomer(domain string, id int64) error {
	if id <= 0 {
		return fmt.Errorf("%w: customer id must be > 0", ErrInvalid)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	sh, err := s.shopLocked(domain)
	if err != nil {
		return err
	}
	if _, ok := sh.customers[id]; ok {
		return fmt.Errorf("%w: customer %d", ErrExists, id)
	}
	now := s.now()
	sh.customers[id] = &customer{id: id, createdAt: now, updatedAt: now}
	s.emitLocked(sh, "customers/create", map[string]any{"id": id, "admin_graphql_api_id": gid("Customer", id), "updated_at": iso(now)})
	return nil
}

// SetSessions sets the online-store sessions of a shop-local day, which only
// ShopifyQL `FROM sessions` can report.
func (s *Server) SetSessions(domain, day string, sessions, completed int64) error {
	if _, err := time.Parse("2006-01-02", day); err != nil {
		return fmt.Errorf("%w: day %q is not YYYY-MM-DD", ErrInvalid, day)
	}
	if sessions < 0 || completed < 0 || completed > sessions {
		return fmt.Errorf("%w: need 0 <= completed <= sessions", ErrInvalid)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	sh, err := s.shopLocked(domain)
	if err != nil {
		return err
	}
	sh.sessions[day] = [2]int64{sessions, completed}
	return nil
}

func orderPayload(od *order) map[string]any {
	var cancelled any
	if od.cancelledAt != nil {
		cancelled = iso(*od.cancelledAt)
	}
	return map[string]any{"id": od.id, "admin_graphql_api_id": gid("Order", od.id), "name": od.name,
		"created_at": iso(od.createdAt), "updated_at": iso(od.updatedAt), "cancelled_at": cancelled, "test": od.test}
}

func gid(kind string, id int64) string { return fmt.Sprintf("gid://shopify/%s/%d", kind, id) }

func iso(t time.Time) string { return t.UTC().Format(time.RFC3339) }

var nonAlnum = regexp.MustCompile(`[^a-z0-9]+`)

func handleize(title string) string {
	return strings.Trim(nonAlnum.ReplaceAllString(strings.ToLower(title), "-"), "-")
}

// minorDigits is the number of decimals of a currency's minor unit.
func minorDigits(cur string) int {
	switch cur {
	case "JPY", "KRW", "VND", "CLP", "ISK", "HUF", "TWD", "UGX", "XAF", "XOF":
		return 0
	case "BHD", "KWD", "OMR", "JOD", "TND":
		return 3
	}
	return 2
}

// decimal renders minor units as Shopify's Decimal string ("19.99", "-3.50").
func decimal(minor int64, cur string) string {
	d := minorDigits(cur)
	if d == 0 {
		return fmt.Sprint(minor)
	}
	sign := ""
	if minor < 0 {
		sign, minor = "-", -minor
	}
	p := int64(1)
	for range d {
		p *= 10
	}
	return fmt.Sprintf("%s%d.%0*d", sign, minor/p, d, minor%p)
}
