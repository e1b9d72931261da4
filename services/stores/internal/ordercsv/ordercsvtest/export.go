// Package ordercsvtest makes order exports shaped like Shopify's, for
// benchmarks and tests that need many orders.
package ordercsvtest

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"strings"
	"time"
)

// Export writes n orders shaped like Shopify's export (79 columns), every
// third with a continuation row, all in December 2025.
func Export(n int) []byte {
	return export(n, decemberAt)
}

// ExportYear writes part (0-based) of parts files that together hold n
// orders like Export's, spread evenly over every day of a 365-day year (in
// one fixed offset, so each lands on the day it names). An export is at most
// 20 MB, so a big shop's year comes in several files.
func ExportYear(n, year, part, parts int) []byte {
	start := time.Date(year, 1, 1, 0, 0, 0, 0, time.FixedZone("", -5*3600))
	step := 365 * 24 * time.Hour / time.Duration(n)
	return exportRange(part*n/parts, (part+1)*n/parts, func(i int) string {
		return start.Add(time.Duration(i) * step).Format("2006-01-02 15:04:05 -0700")
	})
}

// ExportReader streams Export(n) as it is read, so a test can send a big
// file without holding it: what a test measures is then the reader's side.
func ExportReader(n int) io.Reader {
	pr, pw := io.Pipe()
	go func() {
		pw.CloseWithError(writeRange(pw, 0, n, decemberAt))
	}()
	return pr
}

func decemberAt(i int) string {
	return fmt.Sprintf("2025-12-%02d 10:%02d:%02d -0500", 1+i%28, i/60%60, i%60)
}

func export(n int, at func(i int) string) []byte { return exportRange(0, n, at) }

func exportRange(first, end int, at func(i int) string) []byte {
	var b bytes.Buffer
	_ = writeRange(&b, first, end, at)
	return b.Bytes()
}

func writeRange(out io.Writer, first, end int, at func(i int) string) error {
	header := strings.Split(Header, ",")
	w := csv.NewWriter(out)
	_ = w.Write(header)
	for i := first; i < end; i++ {
		when := at(i)
		first := map[string]string{"Name": fmt.Sprintf("#%d", i), "Email": fmt.Sprintf("customer%d@example.com", i%1000),
			"Financial Status": "paid", "Currency": "INR", "Subtotal": "3798.00", "Shipping": "50.00", "Taxes": "10.00",
			"Total": "3858.00", "Discount Amount": "0.00", "Created at": when, "Lineitem quantity": "1",
			"Lineitem name": "Organic Coffee", "Lineitem price": "1299.00", "Lineitem sku": fmt.Sprintf("CB-%d", i%50),
			"Lineitem requires shipping": "true", "Lineitem taxable": "true", "Refunded Amount": "0.00",
			"Id": fmt.Sprint(6798481555755 + i), "Lineitem discount": "0.00", "Source": "web"}
		rows := []map[string]string{first}
		if i%3 == 0 {
			rows = append(rows, map[string]string{"Name": first["Name"], "Email": first["Email"], "Created at": when,
				"Lineitem quantity": "1", "Lineitem name": "Mat", "Lineitem price": "2499.00", "Lineitem sku": "YM-1",
				"Lineitem requires shipping": "true", "Lineitem taxable": "true", "Lineitem discount": "0.00"})
		}
		for _, r := range rows {
			rec := make([]string, len(header))
			for j, h := range header {
				rec[j] = r[h]
			}
			if err := w.Write(rec); err != nil {
				return err
			}
		}
	}
	w.Flush()
	return w.Error()
}

// Header is the 79-column header of research section 4.
const Header = "Name,Email,Financial Status,Paid at,Fulfillment Status,Fulfilled at,Accepts Marketing,Currency,Subtotal," +
	"Shipping,Taxes,Total,Discount Code,Discount Amount,Shipping Method,Created at,Lineitem quantity,Lineitem name," +
	"Lineitem price,Lineitem compare at price,Lineitem sku,Lineitem requires shipping,Lineitem taxable," +
	"Lineitem fulfillment status,Billing Name,Billing Street,Billing Address1,Billing Address2,Billing Company," +
	"Billing City,Billing Zip,Billing Province,Billing Country,Billing Phone,Shipping Name,Shipping Street," +
	"Shipping Address1,Shipping Address2,Shipping Company,Shipping City,Shipping Zip,Shipping Province," +
	"Shipping Country,Shipping Phone,Notes,Note Attributes,Cancelled at,Payment Method,Payment Reference," +
	"Refunded Amount,Vendor,Outstanding Balance,Employee,Location,Device ID,Id,Tags,Risk Level,Source," +
	"Lineitem discount,Tax 1 Name,Tax 1 Value,Tax 2 Name,Tax 2 Value,Tax 3 Name,Tax 3 Value,Tax 4 Name," +
	"Tax 4 Value,Tax 5 Name,Tax 5 Value,Phone,Receipt Number,Duties,Billing Province Name," +
	"Shipping Province Name,Payment ID,Payment Terms Name,Next Payment Due At,Payment References"

// Order is one single-line order for Orders.
type Order struct {
	Name      string
	CreatedAt time.Time
	Title     string
	SKU       string
	Quantity  int
	// Price is the unit price as the export writes it ("15.00").
	Price string
}

// Orders writes an export of single-line orders in currency, each at its
// own time and offset, for tests that need orders on chosen days.
func Orders(currency string, orders []Order) []byte {
	header := strings.Split(Header, ",")
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	_ = w.Write(header)
	for i, o := range orders {
		var units, cents int
		_, _ = fmt.Sscanf(o.Price, "%d.%d", &units, &cents)
		sub := (units*100 + cents) * o.Quantity
		amount := fmt.Sprintf("%d.%02d", sub/100, sub%100)
		r := map[string]string{"Name": o.Name, "Email": fmt.Sprintf("buyer%d@example.com", i),
			"Financial Status": "paid", "Currency": currency, "Subtotal": amount, "Shipping": "0.00", "Taxes": "0.00",
			"Total": amount, "Discount Amount": "0.00", "Created at": o.CreatedAt.Format("2006-01-02 15:04:05 -0700"),
			"Lineitem quantity": fmt.Sprint(o.Quantity), "Lineitem name": o.Title, "Lineitem price": o.Price,
			"Lineitem sku": o.SKU, "Lineitem requires shipping": "true", "Lineitem taxable": "true",
			"Refunded Amount": "0.00", "Id": fmt.Sprint(7100000000000 + i), "Lineitem discount": "0.00", "Source": "web"}
		rec := make([]string, len(header))
		for j, h := range header {
			rec[j] = r[h]
		}
		_ = w.Write(rec)
	}
	w.Flush()
	return b.Bytes()
}
