// Package ordercsv reads Shopify's order export (Admin → Orders → Export)
// into orders, so a store without a connection still gets its numbers. It
// maps columns by name because Shopify has added columns over the years and
// people reorder them in spreadsheets; it refuses a bad file as a whole, with
// the row and column a person can find, because half an import would show
// numbers that are quietly wrong.
package ordercsv

import (
	"bufio"
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"uplift.dev/stores/internal/domain"
)

// File is a read export: what each order states, kept compact (each
// distinct title once, no row's text), and what the whole file says. Its
// orders are built a batch at a time (Each), so an import never holds them
// all at once.
type File struct {
	// Orders is how many orders the file holds, test orders included.
	Orders int
	// Currency is the one currency the file is in; empty when it names none.
	Currency string
	// FirstDay and LastDay are the first and last day an order was placed,
	// as the file writes them.
	FirstDay, LastDay domain.Date
	// Newest is when the newest order was placed, in the file's offset:
	// an export carries no zone name, and its newest offset is the store's
	// current one.
	Newest time.Time
	drafts []*draft
}

// Error names the place in the file a person must fix. Rows are numbered as
// a spreadsheet shows them: the header is row 1; an Error about the whole
// file has no row.
type Error struct {
	Row     int
	Column  string
	Message string
}

// errNotCSV is what a photo, a spreadsheet's own format or any other
// binary file chosen by mistake gets.
var errNotCSV = &Error{Message: "This is not a CSV file. In Shopify Admin, go to Orders → Export, choose CSV and import that file."}

// Error reads like `Row 12, column "Created at": … .` so the message can be
// shown to the person who exported the file as it is.
func (e *Error) Error() string {
	if e.Row == 0 {
		return e.Message
	}
	if e.Column == "" {
		return fmt.Sprintf("Row %d: %s", e.Row, e.Message)
	}
	return fmt.Sprintf("Row %d, column %q: %s", e.Row, e.Column, e.Message)
}

// column is a column the parser reads. The header is resolved to each
// column's index once, so a row's fields are found without a map lookup.
type column int

// Columns the parser reads; keys holds each one's normalised header name.
const (
	colName column = iota
	colEmail
	colCurrency
	colSubtotal
	colShipping
	colTaxes
	colTotal
	colDiscountAmount
	colCreatedAt
	colQuantity
	colLineName
	colPrice
	colSKU
	colRequiresShipping
	colLineTaxable
	colLineDiscount
	colCancelledAt
	colRefunded
	colID
	colTest
	colDuties
	numColumns
)

var keys = [numColumns]string{
	colName: "name", colEmail: "email", colCurrency: "currency", colSubtotal: "subtotal", colShipping: "shipping",
	colTaxes: "taxes", colTotal: "total", colDiscountAmount: "discountamount", colCreatedAt: "createdat",
	colQuantity: "lineitemquantity", colLineName: "lineitemname", colPrice: "lineitemprice", colSKU: "lineitemsku",
	colRequiresShipping: "lineitemrequiresshipping", colLineTaxable: "lineitemtaxable",
	colLineDiscount: "lineitemdiscount", colCancelledAt: "cancelledat", colRefunded: "refundedamount", colID: "id",
	colTest: "test", colDuties: "duties",
}

// required are the columns without which no order can be read.
var required = []struct {
	key    column
	header string
}{
	{colName, "Name"}, {colCreatedAt, "Created at"}, {colQuantity, "Lineitem quantity"}, {colPrice, "Lineitem price"},
}

// normalise makes header matching case- and space-insensitive.
func normalise(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(h) {
		if r != ' ' && r != '\t' && r != '_' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// header maps normalised names to their index and the file's own spelling.
type header struct {
	index map[string]int
	names []string
	// pos is each column's index in a row, -1 when the file has none.
	pos [numColumns]int
	// taxes are the indexes of the Tax N Value columns.
	taxes []int
}

func (h *header) get(rec []string, key column) string { return field(rec, h.pos[key]) }

// field is a row's i-th field without surrounding space, "" when the row is
// shorter or i is -1.
func field(rec []string, i int) string {
	if i >= 0 && i < len(rec) {
		return strings.TrimSpace(rec[i])
	}
	return ""
}

func (h *header) has(key column) bool { return h.pos[key] >= 0 }

func (h *header) name(key column) string {
	if i := h.pos[key]; i >= 0 {
		return h.names[i]
	}
	return keys[key]
}

// line is one line item as the file states it.
type line struct {
	qty                 int64
	price, discount     domain.Money
	title, sku          string
	giftCard, untaxable bool
}

// draft is an order being read, before its sales are built.
type draft struct {
	// name, id (the order's ID: "shopify:" and the Id column, or "import:"
	// and the name) and customer (the hex SHA-256 of the email, "" without
	// one) share one string: a file's orders are all held at once, and each
	// order's texts were four allocations.
	name, id, customer, currency                         string
	created                                              time.Time
	cancelled                                            *time.Time
	test                                                 bool
	subtotal, shipping, taxes, total, discount, refunded domain.Money
	duties                                               domain.Money
	hasTaxes, hasSubtotal, hasTotal                      bool
	taxN                                                 domain.Money
	hasTaxN                                              bool
	lines                                                []line
	gross                                                domain.Money // of all lines so far, to refuse overflow
	// first holds the first line: lines starts in it.
	first [1]line
}

// maxAmount bounds what one order may add up to (10 trillion in a two-decimal
// currency), so no sum of amounts can overflow.
const maxAmount = domain.Money(1e15)

// sniffBytes is how much of a file is looked at before reading it as CSV.
const sniffBytes = 64 << 10

// Read reads a whole export as it arrives. It keeps only what the orders
// need and returns either the file or an *Error, having checked every row:
// a file that reads imports whole.
func Read(r io.Reader) (*File, error) {
	br := bufio.NewReaderSize(r, sniffBytes)
	if bom, err := br.Peek(3); err == nil && string(bom) == "\ufeff" {
		_, _ = br.Discard(3) // Excel's byte-order mark
	}
	head, err := br.Peek(sniffBytes)
	if err != nil && err != io.EOF {
		return nil, err // the upload broke off: no fault of the file's
	}
	// No text file holds a NUL byte (PostgreSQL cannot store one either);
	// a photo, a PDF or a spreadsheet's own format has them from the start.
	// Text that is not UTF-8 is refused where a row's text is kept, by
	// row and column, since a legacy encoding is still a CSV file.
	if bytes.IndexByte(head, 0) >= 0 {
		return nil, errNotCSV
	}
	cr := newRecords(br)
	rec, err := cr.read()
	if err == io.EOF || (err == nil && blank(rec)) {
		return nil, &Error{Row: 1, Message: "the file is empty; export your orders from Shopify (Orders → Export) and import that file."}
	}
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return nil, &Error{Row: 1, Message: "the file is not a CSV file; export your orders from Shopify (Orders → Export) and import that file."}
	}
	if err != nil {
		return nil, err
	}
	h := &header{index: map[string]int{}, names: make([]string, len(rec))}
	for i, raw := range rec {
		h.names[i] = strings.TrimSpace(raw)
		k := normalise(raw)
		if _, dup := h.index[k]; !dup && k != "" {
			h.index[k] = i
		}
	}
	for c, k := range keys {
		h.pos[c] = -1
		if i, ok := h.index[k]; ok {
			h.pos[c] = i
		}
	}
	for _, raw := range rec {
		// A Tax N Value column named twice is read (and added) twice, at
		// its first index, as the header's map finds it.
		k := normalise(raw)
		if strings.HasPrefix(k, "tax") && strings.HasSuffix(k, "value") {
			if _, err := strconv.Atoi(k[3 : len(k)-5]); err == nil {
				h.taxes = append(h.taxes, h.index[k])
			}
		}
	}
	for _, c := range required {
		if !h.has(c.key) {
			return nil, &Error{Row: 1, Column: c.header, Message: "the header has no such column; is this Shopify's order export (Orders → Export)?"}
		}
	}
	p := parser{h: h, orders: newOrderIndex(), zones: map[int]*time.Location{}, texts: map[string]string{}}
	row := 1
	for {
		rec, err := cr.read()
		if err == io.EOF {
			break
		}
		row++
		if errors.As(err, &pe) {
			return nil, &Error{Row: row, Message: "the row is not valid CSV: " + pe.Err.Error() + "."}
		}
		if err != nil {
			return nil, err
		}
		if blank(rec) {
			continue
		}
		if err := p.row(row, rec); err != nil {
			return nil, err
		}
	}
	if len(p.drafts) == 0 {
		return nil, &Error{Row: 2, Message: "the file holds no orders."}
	}
	return p.file(), nil
}

// blank reports an empty line, which spreadsheets often leave at the end.
func blank(rec []string) bool {
	for _, f := range rec {
		if strings.TrimSpace(f) != "" {
			return false
		}
	}
	return true
}

// parser holds the state across rows.
type parser struct {
	h        *header
	drafts   []*draft
	orders   orderIndex
	currency string
	curRow   int
	zones    map[int]*time.Location
	slab     []draft // newDraft's
	last     *draft  // the order of the row before
	// texts holds each distinct title and SKU once: a row's fields share
	// the row's memory, and products repeat on every order.
	texts map[string]string
	// textBuf is where a draft's one string is put together.
	textBuf []byte
	// decCurrency's minor units are decUnits (decimals).
	decCurrency string
	decUnits    int
	decKnown    bool
	// rowCurrency is the Currency field of the row being read, as written
	// (every amount on the row looks it up).
	rowCurrency string
}

func (p *parser) fail(row int, key column, msg string) error {
	return &Error{Row: row, Column: p.h.name(key), Message: msg}
}

// textField reads a column whose text is kept (stored, or published in
// events): it must be UTF-8 without NUL, and at most max bytes.
func (p *parser) textField(row int, rec []string, key column, max int) (string, error) {
	s := p.h.get(rec, key)
	if len(s) > max {
		return "", p.fail(row, key, fmt.Sprintf("the text is too long (%d bytes, at most %d).", len(s), max))
	}
	if !utf8.ValidString(s) || strings.IndexByte(s, 0) >= 0 {
		return "", p.fail(row, key, "the text is not UTF-8; save the file as CSV UTF-8 and import it again.")
	}
	return s, nil
}

// draftSlab is how many drafts are allocated at once: one allocation for
// many orders instead of one each (a file's drafts live until it is read).
const draftSlab = 256

// newDraft returns a zero draft whose first line needs no allocation of
// its own: most orders have one line.
func (p *parser) newDraft() *draft {
	if len(p.slab) == 0 {
		p.slab = make([]draft, draftSlab)
	}
	d := &p.slab[0]
	p.slab = p.slab[1:]
	d.lines = d.first[:0]
	return d
}

// hashEmail is the SHA-256 of the email in lower case. An ASCII email (the
// usual) is lowered in a buffer on the stack; any other goes through
// strings.ToLower, which is what decides the hash.
func hashEmail(email string) [sha256.Size]byte {
	var buf [domain.MaxEmailBytes]byte
	if len(email) > len(buf) || !isASCII(email) {
		return sha256.Sum256([]byte(strings.ToLower(email)))
	}
	for i := 0; i < len(email); i++ {
		c := email[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf[i] = c
	}
	return sha256.Sum256(buf[:len(email)])
}

// mentionsGiftCard reports whether strings.ToLower(title) contains "gift
// card", without making the lower-case copy when title is ASCII (Unicode
// lower-casing can turn non-ASCII letters into ASCII ones, such as U+0130
// into "i", so other titles take strings.ToLower itself).
func mentionsGiftCard(title string) bool {
	if !isASCII(title) {
		return strings.Contains(strings.ToLower(title), "gift card")
	}
	const want = "gift card"
	for i := 0; i+len(want) <= len(title); i++ {
		j := 0
		for ; j < len(want); j++ {
			c := title[i+j]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != want[j] {
				break
			}
		}
		if j == len(want) {
			return true
		}
	}
	return false
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// intern returns s without the row it was read from.
func (p *parser) intern(s string) string {
	if v, ok := p.texts[s]; ok {
		return v
	}
	s = strings.Clone(s)
	p.texts[s] = s
	return s
}

func (p *parser) row(row int, rec []string) error {
	h := p.h
	p.rowCurrency = h.get(rec, colCurrency)
	name, err := p.textField(row, rec, colName, domain.MaxOrderNameBytes)
	if err != nil {
		return err
	}
	if name == "" {
		return p.fail(row, colName, "the order has no name; every row needs the order's name (like #1001).")
	}
	// An order's rows usually follow each other: the order of the row
	// before is found without the map.
	var d *draft
	seen := p.last != nil && p.last.name == name
	if seen {
		d = p.last
	} else if i, ok, at := p.orders.find(name, p.drafts); ok {
		seen, d = true, p.drafts[i]
	} else {
		d = p.newDraft()
		if err := p.orderColumns(row, rec, name, d); err != nil {
			return err
		}
		p.orders.add(at, d.name, len(p.drafts))
		p.drafts = append(p.drafts, d)
	}
	p.last = d
	if seen && p.rowCurrency != "" {
		if c := strings.ToUpper(p.rowCurrency); c != p.currency {
			return p.fail(row, colCurrency, fmt.Sprintf("%q differs from %q on row %d; export one currency per file.", c, p.currency, p.curRow))
		}
	}
	if seen {
		if s := h.get(rec, colCreatedAt); s != "" {
			if _, err := p.timestamp(s); err != nil {
				return p.fail(row, colCreatedAt, fmt.Sprintf("%q is not a date like 2025-12-06 10:37:33 -0500.", s))
			}
		}
	}
	return p.lineColumns(row, rec, d)
}

// currencyOf reads and checks the order's currency against the file's.
func (p *parser) currencyOf(row int, rec []string, d *draft) error {
	c := strings.ToUpper(p.rowCurrency)
	if c == "" {
		return nil
	}
	if !isCurrencyCode(c) {
		return p.fail(row, colCurrency, fmt.Sprintf("%q is not a currency code like USD.", c))
	}
	if p.currency == "" {
		p.currency, p.curRow = c, row
	} else if c != p.currency {
		return p.fail(row, colCurrency, fmt.Sprintf("%q differs from %q on row %d; export one currency per file.", c, p.currency, p.curRow))
	}
	d.currency = p.intern(c)
	return nil
}

// isCurrencyCode reports whether c is three letters A–Z, as ISO 4217's
// codes are.
func isCurrencyCode(c string) bool {
	return len(c) == 3 && 'A' <= c[0] && c[0] <= 'Z' && 'A' <= c[1] && c[1] <= 'Z' && 'A' <= c[2] && c[2] <= 'Z'
}

func (p *parser) money(row int, rec []string, key column) (domain.Money, bool, error) {
	return p.moneyAt(row, rec, p.h.pos[key])
}

// moneyAt reads the amount in a row's i-th field (none when i is -1).
func (p *parser) moneyAt(row int, rec []string, i int) (domain.Money, bool, error) {
	s := field(rec, i)
	if s == "" {
		return 0, false, nil
	}
	m, err := domain.ParseMoneyDecimals(s, p.decimals(p.amountCurrency()))
	if err != nil {
		return 0, false, &Error{Row: row, Column: p.h.names[i], Message: fmt.Sprintf("%q is not an amount like 19.99.", s)}
	}
	return m, true, nil
}

// decimals is domain.MinorUnits of currency, remembered for the last
// currency asked about: a file's rows are nearly always in one.
func (p *parser) decimals(currency string) int {
	if currency != p.decCurrency || !p.decKnown {
		p.decCurrency, p.decUnits, p.decKnown = currency, domain.MinorUnits(currency), true
	}
	return p.decUnits
}

// amountCurrency is the currency the row's amounts are written in.
func (p *parser) amountCurrency() string {
	if p.rowCurrency != "" {
		return p.rowCurrency
	}
	return p.currency
}

func (p *parser) boolean(row int, rec []string, key column) (bool, error) {
	switch s := strings.ToLower(p.h.get(rec, key)); s {
	case "", "false", "no", "0":
		return false, nil
	case "true", "yes", "1":
		return true, nil
	default:
		return false, p.fail(row, key, fmt.Sprintf("%q is not true or false.", p.h.get(rec, key)))
	}
}

// orderColumns reads the order-level columns of an order's first row.
func (p *parser) orderColumns(row int, rec []string, name string, d *draft) error {
	h := p.h
	s := h.get(rec, colCreatedAt)
	t, err := p.timestamp(s)
	if err != nil {
		return p.fail(row, colCreatedAt, fmt.Sprintf("%q is not a date like 2025-12-06 10:37:33 -0500.", s))
	}
	d.created = t
	if s := h.get(rec, colCancelledAt); s != "" {
		t, err := p.timestamp(s)
		if err != nil {
			return p.fail(row, colCancelledAt, fmt.Sprintf("%q is not a date like 2025-12-06 10:37:33 -0500.", s))
		}
		d.cancelled = &t
	}
	email, err := p.textField(row, rec, colEmail, domain.MaxEmailBytes)
	if err != nil {
		return err
	}
	// The order's texts, in one string (draft).
	b := append(p.textBuf[:0], name...)
	if id := h.get(rec, colID); isID(id) {
		b = append(append(b, "shopify:"...), id...)
	} else {
		b = append(append(b, "import:"...), name...)
	}
	idEnd := len(b)
	if email != "" {
		// Only the hash is kept: personal data itself is never stored.
		sum := hashEmail(email)
		b = hex.AppendEncode(b, sum[:])
	}
	p.textBuf = b
	all := string(b)
	d.name, d.id, d.customer = all[:len(name)], all[len(name):idEnd], all[idEnd:]
	if d.test, err = p.boolean(row, rec, colTest); err != nil {
		return err
	}
	if err := p.currencyOf(row, rec, d); err != nil {
		return err
	}
	for _, f := range []struct {
		key column
		dst *domain.Money
		has *bool
	}{
		{colSubtotal, &d.subtotal, &d.hasSubtotal}, {colShipping, &d.shipping, nil}, {colTaxes, &d.taxes, &d.hasTaxes},
		{colTotal, &d.total, &d.hasTotal}, {colDiscountAmount, &d.discount, nil}, {colRefunded, &d.refunded, nil},
		{colDuties, &d.duties, nil},
	} {
		m, ok, err := p.money(row, rec, f.key)
		if err != nil {
			return err
		}
		*f.dst = m
		if f.has != nil {
			*f.has = ok
		}
	}
	for _, i := range h.taxes {
		m, ok, err := p.moneyAt(row, rec, i)
		if err != nil {
			return err
		}
		d.taxN += m
		d.hasTaxN = d.hasTaxN || ok
	}
	return nil
}

// lineColumns reads the line item every row carries.
func (p *parser) lineColumns(row int, rec []string, d *draft) error {
	h := p.h
	q := h.get(rec, colQuantity)
	qty, err := strconv.ParseInt(q, 10, 64)
	if err != nil || qty < 0 || qty > 1_000_000 {
		return p.fail(row, colQuantity, fmt.Sprintf("%q is not a whole number like 2.", q))
	}
	if h.get(rec, colPrice) == "" {
		return p.fail(row, colPrice, "the line item has no price.")
	}
	price, _, err := p.money(row, rec, colPrice)
	if err != nil {
		return err
	}
	if price < 0 || price > maxAmount/domain.Money(max(qty, 1)) || d.gross+domain.Money(qty)*price > maxAmount {
		return p.fail(row, colPrice, fmt.Sprintf("%q is not a plausible price of one item.", h.get(rec, colPrice)))
	}
	d.gross += domain.Money(qty) * price
	disc, _, err := p.money(row, rec, colLineDiscount)
	if err != nil {
		return err
	}
	ships, err := p.boolean(row, rec, colRequiresShipping)
	if err != nil {
		return err
	}
	taxable := true
	if h.get(rec, colLineTaxable) != "" {
		if taxable, err = p.boolean(row, rec, colLineTaxable); err != nil {
			return err
		}
	}
	title, err := p.textField(row, rec, colLineName, domain.MaxTitleBytes)
	if err != nil {
		return err
	}
	sku, err := p.textField(row, rec, colSKU, domain.MaxProductKeyBytes)
	if err != nil {
		return err
	}
	gift := !ships && mentionsGiftCard(title)
	d.lines = append(d.lines, line{qty: qty, price: price, discount: disc, title: p.intern(title), sku: p.intern(sku),
		giftCard: gift, untaxable: !taxable})
	return nil
}

// timestamp reads "2025-12-06 10:37:33 -0500" keeping the file's offset,
// since an export's days are the shop's days as the file writes them. It
// also accepts RFC 3339, which spreadsheets sometimes write back.
func (p *parser) timestamp(s string) (time.Time, error) {
	if len(s) == 25 && s[4] == '-' && s[7] == '-' && s[10] == ' ' && s[13] == ':' && s[16] == ':' && s[19] == ' ' &&
		(s[20] == '+' || s[20] == '-') {
		day, err := domain.ParseDate(s[:10])
		hh, ok1 := num(s[11:13])
		mm, ok2 := num(s[14:16])
		ss, ok3 := num(s[17:19])
		oh, ok4 := num(s[21:23])
		om, ok5 := num(s[23:25])
		if err == nil && ok1 && ok2 && ok3 && ok4 && ok5 && hh < 24 && mm < 60 && ss < 60 && oh < 24 && om < 60 {
			off := (oh*60 + om) * 60
			if s[20] == '-' {
				off = -off
			}
			start, _ := day.In(time.UTC)
			y, mo, dd := start.Date()
			return time.Date(y, mo, dd, hh, mm, ss, 0, p.zone(off)), nil
		}
		return time.Time{}, errors.New("bad timestamp")
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return time.Time{}, err
	}
	_, off := t.Zone()
	return t.In(p.zone(off)), nil
}

// zone shares one fixed zone per offset, so equal files give equal times.
func (p *parser) zone(off int) *time.Location {
	if z, ok := p.zones[off]; ok {
		return z
	}
	z := time.FixedZone("", off)
	if off == 0 {
		z = time.UTC
	}
	p.zones[off] = z
	return z
}

func num(s string) (int, bool) {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, true
}

// file sums up the whole file once every row is read.
func (p *parser) file() *File {
	f := &File{Orders: len(p.drafts), Currency: p.currency, drafts: p.drafts}
	for i, d := range p.drafts {
		day := domain.DateOf(d.created)
		if i == 0 || day.Before(f.FirstDay) {
			f.FirstDay = day
		}
		if i == 0 || day.After(f.LastDay) {
			f.LastDay = day
		}
		if i == 0 || d.created.After(f.Newest) {
			f.Newest = d.created
		}
	}
	return f
}

// Each builds the file's orders with their sales, in file order, and gives
// them to fn up to n at a time; the batch is reused after fn returns. It
// returns sentences about what could only be approximated, or fn's error.
func (f *File) Each(n int, fn func([]domain.Order) error) ([]string, error) {
	batch := make([]domain.Order, 0, min(n, len(f.drafts)))
	undated := 0
	var sc scratch
	for _, d := range f.drafts {
		o, refundUndated := build(d, f.Currency, &sc)
		if refundUndated {
			undated++
		}
		batch = append(batch, o)
		if len(batch) == n {
			if err := fn(batch); err != nil {
				return nil, err
			}
			batch = batch[:0]
		}
	}
	if len(batch) > 0 {
		if err := fn(batch); err != nil {
			return nil, err
		}
	}
	var warnings []string
	if f.Currency == "" {
		warnings = append(warnings, "The file has no currency; amounts were read with two decimals.")
	}
	if undated > 0 {
		warnings = append(warnings, fmt.Sprintf(
			"%d %s a refunded amount the export does not date; it is counted as a return on the day the order was placed.",
			undated, map[bool]string{true: "order has", false: "orders have"}[undated == 1]))
	}
	return warnings, nil
}

// build turns a draft into an order with sales (research 6.2's fallback
// without agreements). The order-level Discount Amount beyond the lines' own
// discounts, and the order's tax, are shared over the lines pro rata with
// exact remainders, so the sales add up to the file's figures to the cent.
// When prices include tax (Total = Subtotal + Shipping while Taxes > 0) the
// tax stays inside each line's total and is reported as its tax, so gross
// sales exclude it as Shopify's sales report does and total sales equal the
// order's total. The file does not say how much tax is on shipping, so all
// of it goes to the products unless there are none; that moves nothing
// between days.
func build(d *draft, currency string, sc *scratch) (domain.Order, bool) {
	o := domain.Order{Source: domain.SourceImport, ID: d.id, Name: d.name, CreatedAt: d.created, CancelledAt: d.cancelled,
		Test: d.test, Currency: currency, CustomerKey: d.customer}
	if d.currency != "" {
		o.Currency = d.currency
	}
	tax := d.taxes
	if !d.hasTaxes && d.hasTaxN {
		tax = d.taxN
	}
	included := tax > 0 && d.hasTotal && d.hasSubtotal && near(d.total, d.subtotal+d.shipping+d.duties) &&
		!near(d.total, d.subtotal+d.shipping+d.duties+tax)

	products := sc.products[:0]
	gross := sc.money(&sc.gross, len(d.lines))
	var lineDisc, productValue domain.Money
	gift := 0
	for i, l := range d.lines {
		gross[i] = domain.Money(l.qty) * l.price
		if l.giftCard {
			gift++
			continue
		}
		products = append(products, i)
		lineDisc += l.discount
	}
	o.GiftCardOnly = gift > 0 && len(products) == 0

	sc.products = products
	disc := sc.money(&sc.disc, len(d.lines))
	weights := sc.money(&sc.weights, len(products))
	var productGross domain.Money
	for k, i := range products {
		disc[i] = max(0, min(d.lines[i].discount, gross[i]))
		weights[k] = gross[i] - disc[i]
		productGross += weights[k]
	}
	if extra := min(d.discount-lineDisc, productGross); extra > 0 {
		for k, share := range allocate(extra, weights, sc) {
			disc[products[k]] += share
		}
	}
	taxes := sc.money(&sc.taxes, len(d.lines))
	var taxShipping domain.Money
	taxW := sc.money(&sc.taxW, len(products))
	anyTaxable := false
	for k, i := range products {
		if !d.lines[i].untaxable {
			taxW[k] = gross[i] - disc[i]
			anyTaxable = anyTaxable || taxW[k] > 0
		}
	}
	if !anyTaxable {
		for k, i := range products {
			taxW[k] = gross[i] - disc[i]
		}
	}
	if len(products) > 0 && tax != 0 {
		for k, share := range allocate(tax, taxW, sc) {
			taxes[products[k]] = share
		}
	} else {
		taxShipping = tax
	}

	// The order's sales in one allocation: a line each, shipping, duties,
	// then each again as a return when cancelled, or a refund.
	n := len(d.lines)
	if d.shipping != 0 || taxShipping != 0 {
		n++
	}
	if d.duties != 0 {
		n++
	}
	if d.cancelled != nil {
		n *= 2
	} else if d.refunded > 0 {
		n++
	}
	o.Sales = sc.sales(n)
	for i, l := range d.lines {
		s := domain.Sale{HappenedAt: d.created, Action: domain.ActionOrder, Line: domain.LineProduct,
			ProductKey: l.sku, ProductTitle: l.title, Quantity: l.qty}
		if s.ProductKey == "" {
			s.ProductKey = l.title
		}
		if l.giftCard {
			s.Line = domain.LineGiftCard
			s.Total = gross[i]
		} else {
			s.Discount = disc[i]
			s.Tax = taxes[i]
			s.Total = gross[i] - disc[i]
			if !included {
				s.Total += taxes[i]
			}
			productValue += s.Total
		}
		o.Sales = append(o.Sales, s)
	}
	if d.shipping != 0 || taxShipping != 0 {
		total := d.shipping
		if !included {
			total += taxShipping
		}
		o.Sales = append(o.Sales, domain.Sale{HappenedAt: d.created, Action: domain.ActionOrder,
			Line: domain.LineShipping, Quantity: 1, Total: total, Tax: taxShipping})
	}
	if d.duties != 0 {
		o.Sales = append(o.Sales, domain.Sale{HappenedAt: d.created, Action: domain.ActionOrder,
			Line: domain.LineDuty, Quantity: 1, Total: d.duties})
	}
	if d.cancelled != nil {
		n := len(o.Sales)
		for _, s := range o.Sales[:n] {
			s.HappenedAt, s.Action = *d.cancelled, domain.ActionReturn
			s.Quantity, s.Total, s.Discount, s.Tax = -s.Quantity, -s.Total, -s.Discount, -s.Tax
			o.Sales = append(o.Sales, s)
		}
		return o, false
	}
	if d.refunded > 0 && productValue > 0 {
		o.Sales = append(o.Sales, domain.Sale{HappenedAt: d.created, Action: domain.ActionReturn,
			Line: domain.LineProduct, Total: -min(d.refunded, productValue)})
		return o, true
	}
	return o, false
}

// near allows the cent Shopify's own rounding leaves between totals.
func near(a, b domain.Money) bool { return a-b <= 1 && b-a <= 1 }

// isID reports whether the Id column holds Shopify's numeric id.
func isID(s string) bool {
	if s == "" || len(s) > 19 {
		return false
	}
	_, ok := num(s)
	return ok
}

// allocate splits total over weights pro rata, largest remainders first
// (ties to the earlier line), so the shares always sum to total exactly.
// With no positive weight the total is split evenly.
func allocate(total domain.Money, weights []domain.Money, sc *scratch) []domain.Money {
	out := sc.money(&sc.out, len(weights))
	if len(weights) == 0 {
		return out
	}
	neg := total < 0
	t := uint64(total)
	if neg {
		t = -t
	}
	var sum uint64
	for _, w := range weights {
		if w > 0 {
			sum += uint64(w)
		}
	}
	w := func(i int) uint64 {
		if sum == 0 {
			return 1
		}
		if weights[i] > 0 {
			return uint64(weights[i])
		}
		return 0
	}
	den := sum
	if den == 0 {
		den = uint64(len(weights))
	}
	if cap(sc.rems) < len(weights) {
		sc.rems, sc.order = make([]uint64, len(weights)), make([]int, len(weights))
	}
	rems := sc.rems[:len(weights)]
	var given uint64
	for i := range weights {
		hi, lo := bits.Mul64(t, w(i))
		q, r := bits.Div64(hi%den, lo, den)
		out[i] = domain.Money(q)
		rems[i] = r
		given += q
	}
	order := sc.order[:len(weights)]
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(rems[b], rems[a]) })
	for k := 0; given < t && k < len(order); k++ {
		out[order[k]]++
		given++
	}
	if neg {
		for i := range out {
			out[i] = -out[i]
		}
	}
	return out
}

// scratch is build's and allocate's working memory, reused from one order
// to the next: none of it outlives the order being built.
type scratch struct {
	products                               []int
	gross, disc, weights, taxes, taxW, out []domain.Money
	rems                                   []uint64
	order                                  []int
	saleSlab                               []domain.Sale
}

// saleSlab is how many sales are allocated at once, for many orders.
const saleSlab = 512

// sales returns room for an order's n sales, cut from a slab shared with
// the orders before it instead of an allocation each. The slab is never
// reused: the orders may be kept after their batch.
func (sc *scratch) sales(n int) []domain.Sale {
	if len(sc.saleSlab) < n {
		sc.saleSlab = make([]domain.Sale, max(n, saleSlab))
	}
	s := sc.saleSlab[:0:n]
	sc.saleSlab = sc.saleSlab[n:]
	return s
}

// money returns (*buf)[:n] zeroed, growing *buf when it is too short.
func (sc *scratch) money(buf *[]domain.Money, n int) []domain.Money {
	if cap(*buf) < n {
		*buf = make([]domain.Money, n)
	}
	b := (*buf)[:n]
	clear(b)
	return b
}
