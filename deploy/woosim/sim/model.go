package sim

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"uplift.dev/simkit"
)

// StoreSpec describes a store to create.
type StoreSpec struct {
	Slug     string `json:"slug"` // the path the store's WordPress lives under
	Name     string `json:"name"`
	Currency string `json:"currency"` // ISO 4217; every order carries it
	// Timezone is WordPress's timezone_string (IANA), or "UTC+2", "UTC-5:30"
	// for a manual offset, which WordPress stores with an empty
	// timezone_string and only gmt_offset.
	Timezone   string `json:"timezone"`
	TaxPercent int64  `json:"taxPercent"` // one standard rate on goods and shipping
}

// LineSpec is one order line; money is in minor units, before tax.
type LineSpec struct {
	ProductID int64 `json:"productId"`
	Quantity  int64 `json:"quantity"`
	Price     int64 `json:"price"`    // unit price; 0 = the product's
	Discount  int64 `json:"discount"` // the coupon's share of this line
}

// OrderSpec is an order to place. The simulator adds the store's tax.
type OrderSpec struct {
	Status     string     `json:"status"` // "" = processing
	CreatedAt  time.Time  `json:"createdAt"`
	CustomerID int64      `json:"customerId"` // 0 = a guest
	Lines      []LineSpec `json:"lines"`
	Coupon     string     `json:"coupon"` // the code the line discounts came from
	Shipping   int64      `json:"shipping"`
	// PaidAt and CompletedAt default to CreatedAt for an order created paid
	// (processing, completed) and to a day later for completed.
	PaidAt      time.Time `json:"paidAt"`
	CompletedAt time.Time `json:"completedAt"`
}

// RefundSpec returns units of lines (by index into the order's lines), the
// shipping, or, with no lines, a plain amount as a merchant may refund.
type RefundSpec struct {
	At       time.Time    `json:"at"`
	Reason   string       `json:"reason"`
	Lines    []RefundLine `json:"lines"`
	Shipping bool         `json:"shipping"` // refund what is left of the shipping and its tax
	Amount   int64        `json:"amount"`   // minor units, only without lines or shipping
}

// RefundLine returns Quantity units of the order's LineIndex-th line.
type RefundLine struct {
	LineIndex int   `json:"lineIndex"`
	Quantity  int64 `json:"quantity"`
}

// ProductSpec is a product as the merchant set it up.
type ProductSpec struct {
	ID       int64  `json:"id"` // 0 = the next id
	Name     string `json:"name"`
	Slug     string `json:"slug"`
	SKU      string `json:"sku"`
	Price    int64  `json:"price"` // minor units
	Category string `json:"category"`
	ImageURL string `json:"imageUrl"`
	// Status is publish (default), draft, pending or private.
	Status string `json:"status"`
}

// Statuses are the core order statuses an order can be set to.
var Statuses = []string{"pending", "processing", "on-hold", "completed", "cancelled", "refunded", "failed", "trash"}

var slugRE = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,62}$`)

var reservedSlugs = map[string]bool{"_control": true, "wp-json": true, "wc-auth": true}

type store struct {
	spec  StoreSpec
	loc   *time.Location
	seq   int64 // post ids: orders, refunds, products and webhooks share WordPress's posts counter
	users int64

	orders    map[int64]*order
	products  map[int64]*product
	customers map[int64]*customer
	keys      map[string]*apiKey // by consumer key
	keySeq    int64
	webhooks  map[int64]*webhook
	retries   int

	faults     simkit.Faults
	deliveries []*Delivery
	queued     map[string]bool // webhook:resource pairs waiting in the queue
}

func (st *store) nextID() int64 { st.seq++; return st.seq }

type product struct {
	spec                 ProductSpec
	createdAt, updatedAt time.Time
}

type customer struct {
	id                   int64
	createdAt, updatedAt time.Time
}

type order struct {
	id                    int64
	key                   string
	status                string
	currency              string
	customerID            int64
	createdAt, modifiedAt time.Time
	paidAt, completedAt   *time.Time
	coupon                string
	lines                 []*line
	shipping, shippingTax int64
	refunds               []*refund
	// what is not refunded yet, so refunds take exact remainders
	shipLeft, shipTaxLeft int64
}

type line struct {
	id                 int64
	productID          int64
	name, sku          string
	qty, price         int64
	subtotal, subTax   int64 // before the coupon
	total, tax         int64 // after the coupon
	qtyLeft            int64
	totalLeft, taxLeft int64
}

type refund struct {
	id        int64
	createdAt time.Time
	reason    string
	amount    int64
	lines     []refundLine
	shipping  int64
	shipTax   int64
}

type refundLine struct {
	l          *line
	qty        int64
	total, tax int64
}

// CreateStore adds a store.
func (s *Server) CreateStore(sp StoreSpec) error {
	if !slugRE.MatchString(sp.Slug) || reservedSlugs[sp.Slug] {
		return fmt.Errorf("%w: slug %q must be lower-case letters, digits and dashes", ErrInvalid, sp.Slug)
	}
	if sp.Currency == "" {
		sp.Currency = "USD"
	}
	if len(sp.Currency) != 3 || strings.ToUpper(sp.Currency) != sp.Currency {
		return fmt.Errorf("%w: currency %q is not an ISO 4217 code", ErrInvalid, sp.Currency)
	}
	if sp.Timezone == "" {
		sp.Timezone = "UTC"
	}
	loc, err := storeLocation(sp.Timezone)
	if err != nil {
		return err
	}
	if sp.TaxPercent < 0 || sp.TaxPercent > 100 {
		return fmt.Errorf("%w: taxPercent must be 0..100", ErrInvalid)
	}
	if sp.Name == "" {
		sp.Name = sp.Slug
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.stores[sp.Slug]; ok {
		return fmt.Errorf("%w: store %s", ErrExists, sp.Slug)
	}
	s.stores[sp.Slug] = &store{
		spec: sp, loc: loc, seq: 100, users: 1, // user 1 is the admin who approves keys
		orders: map[int64]*order{}, products: map[int64]*product{}, customers: map[int64]*customer{},
		keys: map[string]*apiKey{}, webhooks: map[int64]*webhook{}, retries: s.o.WebhookRetries, queued: map[string]bool{},
	}
	return nil
}

var manualOffsetRE = regexp.MustCompile(`^UTC([+-])(\d{1,2})(?::(\d{2}))?$`)

// storeLocation reads WordPress's timezone setting: an IANA name, or a
// manual UTC offset, which has no DST.
func storeLocation(tz string) (*time.Location, error) {
	if m := manualOffsetRE.FindStringSubmatch(tz); m != nil {
		h, _ := strconv.Atoi(m[2])
		mins := 0
		if m[3] != "" {
			mins, _ = strconv.Atoi(m[3])
		}
		off := h*3600 + mins*60
		if m[1] == "-" {
			off = -off
		}
		if h > 14 || mins >= 60 {
			return nil, fmt.Errorf("%w: timezone %q", ErrInvalid, tz)
		}
		return time.FixedZone(tz, off), nil
	}
	loc, err := time.LoadLocation(tz)
	if err != nil || tz == "Local" {
		return nil, fmt.Errorf("%w: timezone %q", ErrInvalid, tz)
	}
	return loc, nil
}

func (s *Server) storeLocked(slug string) (*store, error) {
	st, ok := s.stores[slug]
	if !ok {
		return nil, fmt.Errorf("%w: %s", ErrNoStore, slug)
	}
	return st, nil
}

func (s *Server) orderLocked(slug string, id int64) (*store, *order, error) {
	st, err := s.storeLocked(slug)
	if err != nil {
		return nil, nil, err
	}
	od, ok := st.orders[id]
	if !ok {
		return nil, nil, fmt.Errorf("%w: %d in %s", ErrNoOrder, id, slug)
	}
	return st, od, nil
}

// taxOf is the store's tax on an amount, rounded half up as WooCommerce rounds at subtotal.
func (st *store) taxOf(minor int64) int64 {
	return int64(math.Round(float64(minor*st.spec.TaxPercent) / 100))
}

// AddOrder places an order and fires order.created.
func (s *Server) AddOrder(slug string, o OrderSpec) (int64, error) {
	if o.Status == "" {
		o.Status = "processing"
	}
	if !slices.Contains(Statuses, o.Status) || o.Status == "refunded" || o.Status == "trash" {
		return 0, fmt.Errorf("%w: status %q (refunded comes from refunds)", ErrInvalid, o.Status)
	}
	if len(o.Lines) == 0 {
		return 0, fmt.Errorf("%w: an order needs at least one line", ErrInvalid)
	}
	if o.Shipping < 0 {
		return 0, fmt.Errorf("%w: shipping must be >= 0", ErrInvalid)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	st, err := s.storeLocked(slug)
	if err != nil {
		return 0, err
	}
	if o.CustomerID != 0 && st.customers[o.CustomerID] == nil {
		return 0, fmt.Errorf("%w: no customer %d", ErrInvalid, o.CustomerID)
	}
	if o.CreatedAt.IsZero() {
		o.CreatedAt = s.now()
	}
	id := st.nextID()
	od := &order{
		id: id, key: orderKey(slug, id), status: o.Status, currency: st.spec.Currency, customerID: o.CustomerID,
		createdAt: o.CreatedAt, modifiedAt: o.CreatedAt, coupon: o.Coupon,
		shipping: o.Shipping, shippingTax: st.taxOf(o.Shipping),
	}
	od.shipLeft, od.shipTaxLeft = od.shipping, od.shippingTax
	for i, ls := range o.Lines {
		p, ok := st.products[ls.ProductID]
		if !ok {
			return 0, fmt.Errorf("%w: line %d: no product %d", ErrInvalid, i, ls.ProductID)
		}
		price := ls.Price
		if price == 0 {
			price = p.spec.Price
		}
		sub := price * ls.Quantity
		if ls.Quantity <= 0 || price < 0 || ls.Discount < 0 || ls.Discount > sub {
			return 0, fmt.Errorf("%w: line %d: quantity must be > 0, price >= 0, 0 <= discount <= price×quantity", ErrInvalid, i)
		}
		l := &line{id: st.nextID(), productID: p.spec.ID, name: p.spec.Name, sku: p.spec.SKU, qty: ls.Quantity, price: price,
			subtotal: sub, subTax: st.taxOf(sub), total: sub - ls.Discount, tax: st.taxOf(sub - ls.Discount)}
		l.qtyLeft, l.totalLeft, l.taxLeft = l.qty, l.total, l.tax
		od.lines = append(od.lines, l)
	}
	switch od.status {
	case "processing", "completed":
		paid := o.PaidAt
		if paid.IsZero() {
			paid = o.CreatedAt
		}
		od.paidAt = &paid
	}
	if od.status == "completed" {
		done := o.CompletedAt
		if done.IsZero() {
			done = od.paidAt.Add(24 * time.Hour)
		}
		od.completedAt = &done
		od.modifiedAt = done
	}
	st.orders[od.id] = od
	s.emitLocked(st, "order.created", od.id)
	return od.id, nil
}

// SetStatus moves an order to a status, as the merchant or a payment would,
// and fires order.updated. Reaching processing or completed sets the paid
// date once; completed sets the completed date.
func (s *Server) SetStatus(slug string, id int64, status string, at time.Time) error {
	if !slices.Contains(Statuses, status) {
		return fmt.Errorf("%w: status %q is none of %s", ErrInvalid, status, strings.Join(Statuses, ", "))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	st, od, err := s.orderLocked(slug, id)
	if err != nil {
		return err
	}
	if at.IsZero() {
		at = s.now()
	}
	od.status, od.modifiedAt = status, at
	if (status == "processing" || status == "completed") && od.paidAt == nil {
		od.paidAt = &at
	}
	if status == "completed" {
		od.completedAt = &at
	}
	topic := "order.updated"
	if status == "trash" {
		topic = "order.deleted"
	}
	s.emitLocked(st, topic, od.id)
	return nil
}

// Refund records a refund and fires order.updated, as
// woocommerce_order_refunded does. A refund of everything left sets the
// order refunded.
func (s *Server) Refund(slug string, orderID int64, r RefundSpec) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st, od, err := s.orderLocked(slug, orderID)
	if err != nil {
		return 0, err
	}
	if r.At.IsZero() {
		r.At = s.now()
	}
	if r.At.Before(od.createdAt) {
		return 0, fmt.Errorf("%w: a refund cannot precede its order", ErrInvalid)
	}
	want := map[int]int64{}
	for _, rl := range r.Lines {
		if rl.LineIndex < 0 || rl.LineIndex >= len(od.lines) || rl.Quantity <= 0 {
			return 0, fmt.Errorf("%w: refund line index %d quantity %d", ErrInvalid, rl.LineIndex, rl.Quantity)
		}
		want[rl.LineIndex] += rl.Quantity
		if want[rl.LineIndex] > od.lines[rl.LineIndex].qtyLeft {
			return 0, fmt.Errorf("%w: line %d has only %d unrefunded units", ErrInvalid, rl.LineIndex, od.lines[rl.LineIndex].qtyLeft)
		}
	}
	if len(want) == 0 && !r.Shipping && r.Amount <= 0 {
		return 0, fmt.Errorf("%w: a refund needs lines, shipping or an amount", ErrInvalid)
	}
	if r.Amount != 0 && (len(want) > 0 || r.Shipping) {
		return 0, fmt.Errorf("%w: an amount refund has no lines or shipping", ErrInvalid)
	}
	if r.Amount > od.remaining() {
		return 0, fmt.Errorf("%w: the order has only %s left to refund", ErrInvalid, money(od.remaining()))
	}
	rf := &refund{id: st.nextID(), createdAt: r.At, reason: r.Reason, amount: r.Amount}
	for i, l := range od.lines {
		q := want[i]
		if q == 0 {
			continue
		}
		tot, tax := l.totalLeft, l.taxLeft
		if q < l.qtyLeft { // pro rata; the last unit takes the remainder, so refunds sum to the line
			tot, tax = l.totalLeft*q/l.qtyLeft, l.taxLeft*q/l.qtyLeft
		}
		l.qtyLeft, l.totalLeft, l.taxLeft = l.qtyLeft-q, l.totalLeft-tot, l.taxLeft-tax
		rf.lines = append(rf.lines, refundLine{l: l, qty: q, total: tot, tax: tax})
		rf.amount += tot + tax
	}
	if r.Shipping {
		rf.shipping, rf.shipTax = od.shipLeft, od.shipTaxLeft
		od.shipLeft, od.shipTaxLeft = 0, 0
		rf.amount += rf.shipping + rf.shipTax
	}
	od.refunds = append(od.refunds, rf)
	if r.At.After(od.modifiedAt) {
		od.modifiedAt = r.At
	}
	if od.remaining() == 0 {
		od.status = "refunded"
	}
	s.emitLocked(st, "order.updated", od.id)
	return rf.id, nil
}

// DeleteRefund deletes a refund, giving back what it took, and fires
// order.updated as WooCommerce 11.2 does. The order keeps its status (a
// guess: README.md).
func (s *Server) DeleteRefund(slug string, orderID, refundID int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	st, od, err := s.orderLocked(slug, orderID)
	if err != nil {
		return err
	}
	i := slices.IndexFunc(od.refunds, func(rf *refund) bool { return rf.id == refundID })
	if i < 0 {
		return fmt.Errorf("%w: order %d has no refund %d", ErrNoOrder, orderID, refundID)
	}
	rf := od.refunds[i]
	for _, rl := range rf.lines {
		rl.l.qtyLeft += rl.qty
		rl.l.totalLeft += rl.total
		rl.l.taxLeft += rl.tax
	}
	od.shipLeft += rf.shipping
	od.shipTaxLeft += rf.shipTax
	od.refunds = slices.Delete(od.refunds, i, i+1)
	od.modifiedAt = s.now()
	s.emitLocked(st, "order.updated", od.id)
	return nil
}

func (od *order) total() int64 {
	t := od.shipping + od.shippingTax
	for _, l := range od.lines {
		t += l.total + l.tax
	}
	return t
}

func (od *order) remaining() int64 {
	t := od.total()
	for _, r := range od.refunds {
		t -= r.amount
	}
	return t
}

// DeleteOrder deletes an order for good (force) or moves it to the trash,
// and fires order.deleted either way.
func (s *Server) DeleteOrder(slug string, id int64, force bool) error {
	if !force {
		return s.SetStatus(slug, id, "trash", time.Time{})
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	st, od, err := s.orderLocked(slug, id)
	if err != nil {
		return err
	}
	delete(st.orders, od.id)
	s.emitLocked(st, "order.deleted", od.id)
	return nil
}

var nonAlnum = regexp.MustCompile(`[^a-z0-9]+`)

// SaveProduct adds or updates a product and fires product.created or product.updated.
func (s *Server) SaveProduct(slug string, p ProductSpec) (int64, error) {
	if strings.TrimSpace(p.Name) == "" || p.Price < 0 || p.ID < 0 {
		return 0, fmt.Errorf("%w: a product needs a name and a price of 0 or more", ErrInvalid)
	}
	if p.Status == "" {
		p.Status = "publish"
	}
	if !slices.Contains([]string{"publish", "draft", "pending", "private"}, p.Status) {
		return 0, fmt.Errorf("%w: product status %q", ErrInvalid, p.Status)
	}
	if p.Slug == "" {
		p.Slug = strings.Trim(nonAlnum.ReplaceAllString(strings.ToLower(p.Name), "-"), "-")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	st, err := s.storeLocked(slug)
	if err != nil {
		return 0, err
	}
	now := s.now()
	if p.ID == 0 {
		p.ID = st.nextID()
	}
	topic := "product.updated"
	pr, ok := st.products[p.ID]
	if !ok {
		pr = &product{createdAt: now}
		st.products[p.ID] = pr
		st.seq = max(st.seq, p.ID)
		topic = "product.created"
	}
	pr.spec, pr.updatedAt = p, now
	s.emitLocked(st, topic, p.ID)
	return p.ID, nil
}

// DeleteProduct removes a product and fires product.deleted.
func (s *Server) DeleteProduct(slug string, id int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	st, err := s.storeLocked(slug)
	if err != nil {
		return err
	}
	if _, ok := st.products[id]; !ok {
		return fmt.Errorf("%w: no product %d", ErrInvalid, id)
	}
	delete(st.products, id)
	s.emitLocked(st, "product.deleted", id)
	return nil
}

// AddCustomer registers a customer (a WordPress user with the customer
// role) at a time and fires customer.created; it returns the user id.
func (s *Server) AddCustomer(slug string, at time.Time) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st, err := s.storeLocked(slug)
	if err != nil {
		return 0, err
	}
	if at.IsZero() {
		at = s.now()
	}
	st.users++
	st.customers[st.users] = &customer{id: st.users, createdAt: at, updatedAt: at}
	s.emitLocked(st, "customer.created", st.users)
	return st.users, nil
}

// orderKey is the order's wc_order_ key, derived rather than random so the
// demo store is the same at every start.
func orderKey(slug string, id int64) string {
	h := sha256.Sum256([]byte(fmt.Sprintf("%s/%d", slug, id)))
	return "wc_order_" + hex.EncodeToString(h[:])[:13]
}

// money renders minor units as WooCommerce's decimal string ("19.99", "-3.50").
func money(minor int64) string {
	sign := ""
	if minor < 0 {
		sign, minor = "-", -minor
	}
	return fmt.Sprintf("%s%d.%02d", sign, minor/100, minor%100)
}

// wcTime is WordPress's REST date: no offset, in the zone given.
func wcTime(t time.Time, loc *time.Location) string { return t.In(loc).Format("2006-01-02T15:04:05") }
