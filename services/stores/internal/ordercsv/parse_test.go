package ordercsv

import (
	"bytes"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"uplift.dev/stores/internal/domain"
)

// file writes a CSV with the given header and rows given by column name.
func file(header []string, rows ...map[string]string) string {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	_ = w.Write(header)
	for _, r := range rows {
		rec := make([]string, len(header))
		for i, h := range header {
			rec[i] = r[h]
		}
		_ = w.Write(rec)
	}
	w.Flush()
	return b.String()
}

var basic = []string{"Name", "Email", "Currency", "Subtotal", "Shipping", "Taxes", "Total", "Discount Amount",
	"Created at", "Lineitem quantity", "Lineitem name", "Lineitem price", "Lineitem sku", "Lineitem requires shipping",
	"Cancelled at", "Refunded Amount", "Id", "Lineitem discount"}

// result is a whole file's orders, for tests to look at together.
type result struct {
	Orders            []domain.Order
	Currency          string
	FirstDay, LastDay domain.Date
	Warnings          []string
}

// parseAll reads a file and builds all its orders, in batches of 7 so
// that every test also crosses batch boundaries.
func parseAll(r io.Reader) (*result, error) {
	f, err := Read(r)
	if err != nil {
		return nil, err
	}
	res := &result{Currency: f.Currency, FirstDay: f.FirstDay, LastDay: f.LastDay}
	res.Warnings, err = f.Each(7, func(batch []domain.Order) error {
		res.Orders = append(res.Orders, batch...)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(res.Orders) != f.Orders {
		return nil, fmt.Errorf("built %d orders of %d", len(res.Orders), f.Orders)
	}
	return res, nil
}

func parse(t *testing.T, s string) *result {
	t.Helper()
	res, err := parseAll(strings.NewReader(s))
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func sum(o domain.Order) domain.Amounts {
	var a domain.Amounts
	for _, s := range o.Sales {
		a = a.Add(domain.Classify(s))
	}
	return a
}

func TestContinuationRowsAndAllocation(t *testing.T) {
	t.Parallel()
	res := parse(t, file(basic,
		map[string]string{"Name": "#1", "Email": "Ann@Example.com", "Currency": "USD", "Subtotal": "90.00", "Shipping": "5.00",
			"Taxes": "7.20", "Total": "102.20", "Discount Amount": "10.00", "Created at": "2025-12-06 23:37:33 -0500",
			"Lineitem quantity": "1", "Lineitem name": "Mug", "Lineitem price": "30.00", "Lineitem sku": "M1",
			"Lineitem requires shipping": "true", "Id": "6798481555755"},
		map[string]string{"Name": "#1", "Email": "Ann@Example.com", "Created at": "2025-12-06 23:37:33 -0500",
			"Lineitem quantity": "2", "Lineitem name": "Plate", "Lineitem price": "35.00", "Lineitem requires shipping": "true"},
		map[string]string{"Name": "#2", "Currency": "USD", "Subtotal": "10.00", "Total": "10.00",
			"Created at": "2025-12-07 00:01:00 -0500", "Lineitem quantity": "1", "Lineitem name": "Cup", "Lineitem price": "10.00"},
	))
	if len(res.Orders) != 2 || res.Currency != "USD" || res.FirstDay.String() != "2025-12-06" || res.LastDay.String() != "2025-12-07" {
		t.Fatalf("result = %+v", res)
	}
	o := res.Orders[0]
	if o.ID != "shopify:6798481555755" || res.Orders[1].ID != "import:#2" || o.Source != domain.SourceImport || o.Name != "#1" {
		t.Errorf("ids = %q %q", o.ID, res.Orders[1].ID)
	}
	if h := sha256.Sum256([]byte("ann@example.com")); o.CustomerKey != hex.EncodeToString(h[:]) {
		t.Errorf("customer key = %q", o.CustomerKey)
	}
	if strings.Contains(o.CustomerKey, "@") || res.Orders[1].CustomerKey != "" {
		t.Error("personal data must not be kept")
	}
	if _, off := o.CreatedAt.Zone(); off != -5*3600 || o.CreatedAt.Hour() != 23 {
		t.Errorf("created = %v, want the file's offset", o.CreatedAt)
	}
	// Mug 30.00 and Plates 70.00: the 10.00 discount splits 3.00 / 7.00; the 7.20 tax splits
	// over 27.00 / 63.00 as 2.16 / 5.04; shipping 5.00.
	want := []domain.Sale{
		{HappenedAt: o.CreatedAt, Action: domain.ActionOrder, Line: domain.LineProduct, ProductKey: "M1", ProductTitle: "Mug",
			Quantity: 1, Total: 2916, Discount: 300, Tax: 216},
		{HappenedAt: o.CreatedAt, Action: domain.ActionOrder, Line: domain.LineProduct, ProductKey: "Plate", ProductTitle: "Plate",
			Quantity: 2, Total: 6804, Discount: 700, Tax: 504},
		{HappenedAt: o.CreatedAt, Action: domain.ActionOrder, Line: domain.LineShipping, Quantity: 1, Total: 500},
	}
	if !reflect.DeepEqual(o.Sales, want) {
		t.Errorf("sales =\n%+v\nwant\n%+v", o.Sales, want)
	}
	a := sum(o)
	// gross 100.00, discounts 10.00, net 90.00, total 90.00 + 5.00 + 7.20 = the file's 102.20
	if a.Gross != 10000 || a.Discounts != 1000 || a.Net() != 9000 || a.TotalSales() != 10220 {
		t.Errorf("amounts = %+v", a)
	}
	if v := (domain.DayTotals{Amounts: a}).OrderValue(); v != 9000 {
		t.Errorf("order value = %d", v)
	}
}

func TestAllocateExact(t *testing.T) {
	t.Parallel()
	got := allocate(100, []domain.Money{1, 1, 1}, &scratch{})
	if !reflect.DeepEqual(got, []domain.Money{34, 33, 33}) {
		t.Errorf("allocate = %v", got)
	}
	got = allocate(-10, []domain.Money{0, 0}, &scratch{})
	if !reflect.DeepEqual(got, []domain.Money{-5, -5}) {
		t.Errorf("allocate = %v", got)
	}
	got = allocate(7, []domain.Money{1 << 62, 1 << 62, 1}, &scratch{})
	if got[0]+got[1]+got[2] != 7 {
		t.Errorf("allocate = %v", got)
	}
}

func TestShuffledMissingAndExtraColumns(t *testing.T) {
	t.Parallel()
	header := []string{"  lineitem PRICE ", "Favourite colour", "created at", "NAME", "Lineitem Quantity"}
	res := parse(t, "\ufeff"+file(header,
		map[string]string{"  lineitem PRICE ": "12.50", "Favourite colour": "blue", "created at": "2025-12-06 10:00:00 +0530",
			"NAME": "#7", "Lineitem Quantity": "2"},
	))
	o := res.Orders[0]
	if len(o.Sales) != 1 || o.Sales[0].Total != 2500 || o.ID != "import:#7" {
		t.Errorf("order = %+v", o)
	}
	if res.Currency != "" || len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "no currency") {
		t.Errorf("warnings = %q", res.Warnings)
	}
}

func TestErrors(t *testing.T) {
	t.Parallel()
	row := func(over map[string]string) map[string]string {
		r := map[string]string{"Name": "#1", "Currency": "USD", "Total": "10.00", "Created at": "2025-12-06 10:37:33 -0500",
			"Lineitem quantity": "1", "Lineitem price": "10.00"}
		for k, v := range over {
			r[k] = v
		}
		return r
	}
	cases := []struct {
		name, in, want string
	}{
		{"bad date", file(basic, row(nil), row(map[string]string{"Name": "#2", "Created at": "2025-13-06"})),
			`Row 3, column "Created at": "2025-13-06" is not a date like 2025-12-06 10:37:33 -0500.`},
		{"bad number", file(basic, row(map[string]string{"Lineitem price": "12,50"})),
			`Row 2, column "Lineitem price": "12,50" is not an amount like 19.99.`},
		{"bad total", file(basic, row(map[string]string{"Total": "ten"})),
			`Row 2, column "Total": "ten" is not an amount like 19.99.`},
		{"bad quantity", file(basic, row(map[string]string{"Lineitem quantity": "1.5"})),
			`Row 2, column "Lineitem quantity": "1.5" is not a whole number like 2.`},
		{"missing name", file(basic, row(nil), row(nil), row(map[string]string{"Name": ""})),
			`Row 4, column "Name": the order has no name; every row needs the order's name (like #1001).`},
		{"missing column", file([]string{"Name", "Created at", "Lineitem quantity"}, row(nil)),
			`Row 1, column "Lineitem price": the header has no such column; is this Shopify's order export (Orders → Export)?`},
		{"mixed currencies", file(basic, row(nil), row(map[string]string{"Name": "#2", "Currency": "EUR"})),
			`Row 3, column "Currency": "EUR" differs from "USD" on row 2; export one currency per file.`},
		{"empty", "", `Row 1: the file is empty; export your orders from Shopify (Orders → Export) and import that file.`},
		{"not csv", "\x89PNG\r\n\x1a\n\x00\x00binary", notCSV},
		{"broken quotes", file(basic, row(nil)) + "\"#2,\"oops\n", `Row 3: the row is not valid CSV: extraneous or missing " in quoted-field.`},
		{"header only", file(basic), `Row 2: the file holds no orders.`},
	}
	for _, c := range cases {
		res, err := parseAll(strings.NewReader(c.in))
		var perr *Error
		if !errors.As(err, &perr) || res != nil {
			t.Errorf("%s: got %v, %v; want an *Error and no result", c.name, res, err)
			continue
		}
		if err.Error() != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, err, c.want)
		}
	}
}

// notCSV is what a photo or another binary file chosen by mistake gets,
// rather than a complaint about a NUL character the owner never typed.
const notCSV = "This is not a CSV file. In Shopify Admin, go to Orders → Export, choose CSV and import that file."

func TestABinaryFileIsNotACSVFile(t *testing.T) {
	t.Parallel()
	// The start of a JPEG, as uploaded and as a browser's readAsText gives
	// it (the bytes that are not UTF-8 become U+FFFD, the NULs stay).
	jpeg := "\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00H\x00H\x00\x00\xff\xdb\x00C\x00\x08\x06\x06"
	asText := strings.ToValidUTF8(jpeg, "\ufffd")
	for name, in := range map[string]string{
		"jpeg": jpeg, "jpeg read as text": asText,
	} {
		_, err := parseAll(strings.NewReader(in))
		if err == nil || err.Error() != notCSV {
			t.Errorf("%s: got %v, want %q", name, err, notCSV)
		}
	}
}

func TestTextFieldsAreBounded(t *testing.T) {
	t.Parallel()
	row := func(over map[string]string) map[string]string {
		r := map[string]string{"Name": "#1", "Currency": "USD", "Total": "10.00", "Created at": "2025-12-06 10:37:33 -0500",
			"Lineitem quantity": "1", "Lineitem name": "Mug", "Lineitem price": "10.00"}
		for k, v := range over {
			r[k] = v
		}
		return r
	}
	long := func(n int) string { return strings.Repeat("é", n/2) + strings.Repeat("x", n%2) }
	res := parse(t, file(basic, row(map[string]string{"Lineitem name": long(domain.MaxTitleBytes),
		"Lineitem sku": long(domain.MaxProductKeyBytes), "Name": long(domain.MaxOrderNameBytes),
		"Email": long(domain.MaxEmailBytes)})))
	if s := res.Orders[0].Sales[0]; len(s.ProductTitle) != domain.MaxTitleBytes || len(s.ProductKey) != domain.MaxProductKeyBytes {
		t.Errorf("a title and SKU at the bound must be kept whole: %d, %d bytes", len(s.ProductTitle), len(s.ProductKey))
	}
	cases := []struct {
		name string
		over map[string]string
		want string
	}{
		{"title", map[string]string{"Lineitem name": long(1 << 20)},
			`Row 3, column "Lineitem name": the text is too long (1048576 bytes, at most 2048).`},
		{"title by one byte", map[string]string{"Lineitem name": long(domain.MaxTitleBytes + 1)},
			`Row 3, column "Lineitem name": the text is too long (2049 bytes, at most 2048).`},
		{"sku", map[string]string{"Lineitem sku": long(domain.MaxProductKeyBytes + 1)},
			`Row 3, column "Lineitem sku": the text is too long (2049 bytes, at most 2048).`},
		{"order name", map[string]string{"Name": long(domain.MaxOrderNameBytes + 1)},
			`Row 3, column "Name": the text is too long (256 bytes, at most 255).`},
		{"email", map[string]string{"Name": "#2", "Email": long(domain.MaxEmailBytes + 1)},
			`Row 3, column "Email": the text is too long (321 bytes, at most 320).`},
		{"title not UTF-8", map[string]string{"Lineitem name": "Caf\xe9"},
			`Row 3, column "Lineitem name": the text is not UTF-8; save the file as CSV UTF-8 and import it again.`},
		{"NUL in a title past the first 64 KiB", map[string]string{"Lineitem name": "Mug\x00"},
			`Row 3, column "Lineitem name": the text is not UTF-8; save the file as CSV UTF-8 and import it again.`},
	}
	for _, c := range cases {
		// Notes the parser skips push row 3 past the first 64 KiB, which are
		// looked at as a whole.
		first := row(map[string]string{"Notes": strings.Repeat("x", 64<<10)})
		res, err := parseAll(strings.NewReader(file(append(basic[:len(basic):len(basic)], "Notes"), first, row(c.over))))
		var perr *Error
		if !errors.As(err, &perr) || res != nil || err.Error() != c.want {
			t.Errorf("%s:\n got %v\nwant %s", c.name, err, c.want)
		}
	}
}

func TestCancelledOrder(t *testing.T) {
	t.Parallel()
	res := parse(t, file(basic, map[string]string{"Name": "#9", "Currency": "USD", "Subtotal": "20.00", "Shipping": "4.00",
		"Taxes": "1.60", "Total": "25.60", "Created at": "2025-12-06 10:00:00 -0500", "Cancelled at": "2025-12-08 09:00:00 -0500",
		"Lineitem quantity": "2", "Lineitem name": "Tea", "Lineitem price": "10.00", "Refunded Amount": "25.60"}))
	o := res.Orders[0]
	if o.CancelledAt == nil || !domain.Counts(o) {
		t.Fatal("a cancelled order is still an order")
	}
	var sale, ret domain.Amounts
	for _, s := range o.Sales {
		switch domain.DateOf(s.HappenedAt).String() {
		case "2025-12-06":
			sale = sale.Add(domain.Classify(s))
		case "2025-12-08":
			if s.Action != domain.ActionReturn {
				t.Errorf("cancel sale %+v is not a return", s)
			}
			ret = ret.Add(domain.Classify(s))
		default:
			t.Errorf("sale on %v", s.HappenedAt)
		}
	}
	// placed: total 20.00 + 4.00 + 1.60; cancelled: −25.60, returns 20.00 (the refund is not counted again)
	if sale.TotalSales() != 2560 || ret.TotalSales() != -2560 || ret.Returns != 2000 || len(res.Warnings) != 0 {
		t.Errorf("sale = %+v, return = %+v, warnings %q", sale, ret, res.Warnings)
	}
}

func TestTaxesIncludedAndGiftCards(t *testing.T) {
	t.Parallel()
	header := append([]string{"Tax 1 Name", "Tax 1 Value", "Lineitem taxable"}, basic...)
	res := parse(t, file(header,
		// GST inside: 2 × 22.00 + shipping 11.00 = 55.00 total, of which 5.00 GST
		map[string]string{"Name": "#1", "Currency": "AUD", "Subtotal": "44.00", "Shipping": "11.00", "Taxes": "5.00",
			"Total": "55.00", "Tax 1 Name": "GST 10%", "Tax 1 Value": "5.00", "Created at": "2025-12-06 10:00:00 +1100",
			"Lineitem quantity": "2", "Lineitem name": "Tea", "Lineitem price": "22.00", "Lineitem requires shipping": "true"},
		map[string]string{"Name": "#1", "Created at": "2025-12-06 10:00:00 +1100", "Lineitem quantity": "1",
			"Lineitem name": "Gift Card $50", "Lineitem price": "50.00", "Lineitem requires shipping": "false", "Lineitem taxable": "false"},
		map[string]string{"Name": "#2", "Currency": "AUD", "Subtotal": "25.00", "Total": "25.00",
			"Created at": "2025-12-06 11:00:00 +1100", "Lineitem quantity": "1", "Lineitem name": "Gift Card",
			"Lineitem price": "25.00", "Lineitem requires shipping": "false"},
	))
	o := res.Orders[0]
	a := sum(o)
	// 44.00 with 5.00 GST inside: gross 39.00, taxes 5.00, shipping 11.00, total 55.00; gift card 50.00 apart
	if a.Gross != 3900 || a.Taxes != 500 || a.Shipping != 1100 || a.TotalSales() != 5500 || a.GiftCards != 5000 {
		t.Errorf("amounts = %+v", a)
	}
	if !domain.Counts(o) || domain.Counts(res.Orders[1]) || !res.Orders[1].GiftCardOnly {
		t.Error("gift-card-only orders are not counted; mixed ones are")
	}
}

func TestUndatedRefund(t *testing.T) {
	t.Parallel()
	row := func(name, refund string) map[string]string {
		return map[string]string{"Name": name, "Currency": "INR", "Subtotal": "100.00", "Total": "100.00",
			"Created at": "2025-12-06 10:00:00 +0530", "Lineitem quantity": "1", "Lineitem price": "100.00", "Refunded Amount": refund}
	}
	res := parse(t, file(basic, row("#1", "30.00"), row("#2", "500.00"), row("#3", "0.00")))
	if r := sum(res.Orders[0]).Returns; r != 3000 {
		t.Errorf("returns = %d", r)
	}
	if r := sum(res.Orders[1]).Returns; r != 10000 { // capped at the order's 100.00
		t.Errorf("returns = %d", r)
	}
	if len(res.Warnings) != 1 || !strings.HasPrefix(res.Warnings[0], "2 orders have a refunded amount") {
		t.Errorf("warnings = %q", res.Warnings)
	}
}

func TestIdempotent(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(corpusPath(t))
	if err != nil {
		t.Fatalf("the real export is missing: %v", err)
	}
	a, err := parseAll(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	b, err := parseAll(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Error("two imports of one file differ")
	}
	for _, o := range a.Orders {
		if !strings.HasPrefix(o.ID, "shopify:") || o.CreatedAt.Location() == time.Local {
			t.Errorf("order %s: id %q", o.Name, o.ID)
		}
	}
}

func FuzzParse(f *testing.F) {
	if data, err := os.ReadFile(corpusPath(f)); err == nil {
		f.Add(string(data[:min(len(data), 4000)]))
	}
	f.Add(file(basic, map[string]string{"Name": "#1", "Currency": "USD", "Total": "1.00", "Discount Amount": "5.00",
		"Created at": "2025-12-06 10:37:33 -0500", "Lineitem quantity": "0", "Lineitem price": "0.00",
		"Cancelled at": "2025-12-06T10:37:33Z", "Refunded Amount": "1.00"}))
	f.Add("Name,Created at,Lineitem quantity,Lineitem price\n#1,2025-12-06 10:37:33 -0500,3,1.00\n#1,,2,\n")
	f.Add("")
	f.Add("\"")
	f.Fuzz(func(t *testing.T, s string) {
		res, err := parseAll(strings.NewReader(s))
		if (res == nil) == (err == nil) {
			t.Fatalf("result %v with error %v", res, err)
		}
	})
}
