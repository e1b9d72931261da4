package ordercsv

import (
	"bytes"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"uplift.dev/stores/internal/domain"
	"uplift.dev/stores/internal/ordercsv/ordercsvtest"
)

// The parser is tuned for speed (BenchmarkParse); these digests pin what it
// builds, field by field, to what the parser built before that tuning, so a
// faster parser cannot quietly count differently. The digests were taken
// with the parser at main 25bb353. A change that is meant to change the
// numbers must update them and say why.
const (
	goldenCorpus = "80c0174e09f072cf3ab77176061d06eefb5a9b62efc124d6fff6ef59d5d34aaf"
	goldenExport = "59eaf36907ae6aa809856b87291c9b6cb8c9db40a784cb200e6e1a8de319b55f"
	goldenVaried = "c0ef78626ec3673b474fe33f46ae952684afa6823b0f414e9a0435a685da1237"
)

// digest reads a whole file and hashes every order and sale it builds, and
// what the file says as a whole, in file order.
func digest(t *testing.T, r io.Reader) string {
	t.Helper()
	f, err := Read(r)
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.New()
	fmt.Fprintf(h, "file %d %q %s %s %s\n", f.Orders, f.Currency, f.FirstDay, f.LastDay, f.Newest.Format("2006-01-02T15:04:05.999999999Z07:00"))
	at := func(tm interface{ Format(string) string }) string {
		return tm.Format("2006-01-02T15:04:05.999999999Z07:00")
	}
	warnings, err := f.Each(7, func(batch []domain.Order) error {
		for _, o := range batch {
			cancelled := "-"
			if o.CancelledAt != nil {
				cancelled = at(o.CancelledAt) + " " + o.CancelledAt.Location().String()
			}
			fmt.Fprintf(h, "order %q %q %q %s %s %s %s %t %t %q %q %d\n", o.ID, o.Source, o.Name, at(o.CreatedAt),
				o.CreatedAt.Location().String(), at(o.UpdatedAt), cancelled, o.Test, o.GiftCardOnly, o.Currency,
				o.CustomerKey, len(o.Sales))
			for _, s := range o.Sales {
				fmt.Fprintf(h, "sale %s %s %s %q %q %d %d %d %d\n", at(s.HappenedAt), s.Action, s.Line, s.ProductKey,
					s.ProductTitle, s.Quantity, s.Total, s.Discount, s.Tax)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(h, "warnings %q\n", warnings)
	return hex.EncodeToString(h.Sum(nil))
}

// varied is an export in the 79 columns whose rows take every path the
// parser has: cancelled, refunded, test and gift-card orders, line and
// order discounts, untaxable lines, Tax N columns, duties, RFC 3339 times,
// mixed-case emails and currencies, titles that are not ASCII, and an
// order's rows far apart in the file.
func varied() []byte {
	rng := rand.New(rand.NewPCG(25, 3))
	header := strings.Split(ordercsvtest.Header, ",")
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	_ = w.Write(header)
	titles := []string{"Organic Coffee", "GIFT CARD", "Gift Card — 50", "Thé vert Sencha", "Yoga Mat", "Gİft Card", "Teekanne (groß)", "KAFFEE"}
	money := func(max int) string { c := rng.IntN(max); return fmt.Sprintf("%d.%02d", c/100, c%100) }
	var pending []map[string]string
	for i := range 3000 {
		when := fmt.Sprintf("2025-%02d-%02d %02d:%02d:%02d %s", 1+i%12, 1+i%28, rng.IntN(24), rng.IntN(60), rng.IntN(60),
			[]string{"-0500", "+0530", "+0000", "-0330", "+1300"}[rng.IntN(5)])
		if rng.IntN(10) == 0 {
			when = fmt.Sprintf("2025-%02d-%02dT%02d:%02d:00+01:00", 1+i%12, 1+i%28, rng.IntN(24), rng.IntN(60))
		}
		r := map[string]string{"Name": fmt.Sprintf("#%d", 1000+i), "Email": fmt.Sprintf("Buyer%d@Example.COM", rng.IntN(200)),
			"Currency": []string{"INR", "inr"}[rng.IntN(2)], "Subtotal": money(500000), "Shipping": money(2000),
			"Taxes": money(3000), "Total": money(600000), "Discount Amount": money(5000), "Created at": when,
			"Lineitem quantity": fmt.Sprint(rng.IntN(5)), "Lineitem name": titles[rng.IntN(len(titles))],
			"Lineitem price": money(300000), "Lineitem sku": fmt.Sprintf("SKU-%d", rng.IntN(30)),
			"Lineitem requires shipping": []string{"true", "false", "TRUE", ""}[rng.IntN(4)],
			"Lineitem taxable":           []string{"true", "false", "", "yes"}[rng.IntN(4)],
			"Refunded Amount":            []string{"0.00", "", money(100000)}[rng.IntN(3)], "Lineitem discount": money(1000),
			"Tax 1 Value": money(500), "Tax 2 Value": []string{"", money(300)}[rng.IntN(2)], "Duties": []string{"", "0.00", money(900)}[rng.IntN(3)],
			"Test": []string{"false", "false", "false", "true"}[rng.IntN(4)]}
		if rng.IntN(3) == 0 {
			r["Id"] = fmt.Sprint(6798481555755 + i)
		}
		if rng.IntN(8) == 0 {
			r["Cancelled at"] = fmt.Sprintf("2025-%02d-%02d 12:00:00 -0500", 1+(i+1)%12, 1+i%28)
		}
		if rng.IntN(7) == 0 {
			r["Taxes"] = ""
		}
		if rng.IntN(5) == 0 {
			r["Total"] = "" // prices with tax included or not: both paths
		}
		rows := []map[string]string{r}
		for range rng.IntN(4) {
			rows = append(rows, map[string]string{"Name": r["Name"], "Created at": when, "Currency": r["Currency"],
				"Lineitem quantity": fmt.Sprint(1 + rng.IntN(3)), "Lineitem name": titles[rng.IntN(len(titles))],
				"Lineitem price": money(200000), "Lineitem sku": []string{"", "YM-1"}[rng.IntN(2)],
				"Lineitem requires shipping": "true", "Lineitem discount": money(500)})
		}
		for _, r := range rows {
			if rng.IntN(20) == 0 {
				pending = append(pending, r) // this row comes at the end of the file
				continue
			}
			writeRow(w, header, r)
		}
	}
	for _, r := range pending {
		writeRow(w, header, r)
	}
	w.Flush()
	return b.Bytes()
}

func writeRow(w *csv.Writer, header []string, r map[string]string) {
	rec := make([]string, len(header))
	for j, h := range header {
		rec[j] = r[h]
	}
	_ = w.Write(rec)
}

func TestParserOutputUnchanged(t *testing.T) {
	t.Parallel()
	corpus, err := os.ReadFile(corpusPath(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, want string
		data       []byte
	}{
		{"the real export", goldenCorpus, corpus},
		{"ordercsvtest.Export(3000)", goldenExport, ordercsvtest.Export(3000)},
		{"varied", goldenVaried, varied()},
	} {
		if got := digest(t, bytes.NewReader(c.data)); got != c.want {
			t.Errorf("%s: the orders built differ from the parser's before tuning: digest %s, want %s", c.name, got, c.want)
		}
	}
}
