package sim

import (
	"fmt"
	"math"
	"regexp"
	"strings"
	"time"
)

// qlRE is the one ShopifyQL shape the simulator answers: a daily table over a
// closed date range. Anything else gets a parse error.
var qlRE = regexp.MustCompile(`(?i)^\s*FROM\s+(\w+)\s+SHOW\s+(.+?)\s+SINCE\s+(\d{4}-\d{2}-\d{2})\s+UNTIL\s+(\d{4}-\d{2}-\d{2})\s+GROUP\s+BY\s+day\s*$`)

type qlColumn struct{ dataType, display string }

var qlColumns = map[string]map[string]qlColumn{
	"sessions": {
		"sessions":                         {"INTEGER", "Sessions"},
		"sessions_that_completed_checkout": {"INTEGER", "Sessions that completed checkout"},
		"conversion_rate":                  {"PERCENT", "Conversion rate"},
	},
	"sales": {
		"orders":      {"INTEGER", "Orders"},
		"gross_sales": {"MONEY", "Gross sales"},
		"discounts":   {"MONEY", "Discounts"},
		"returns":     {"MONEY", "Returns"},
		"net_sales":   {"MONEY", "Net sales"},
		"shipping":    {"MONEY", "Shipping charges"},
		"taxes":       {"MONEY", "Taxes"},
		"total_sales": {"MONEY", "Total sales"},
	},
}

// maxQLDays bounds a query so a typo in a year cannot build a huge table.
const maxQLDays = 3660

func qlParseError(msg string) map[string]any {
	return map[string]any{"tableData": nil, "parseErrors": []string{msg}}
}

// shopifyQL answers `FROM sessions|sales SHOW … SINCE d UNTIL d GROUP BY day`
// with one row per shop-local day, zero-filled. Money is a decimal string,
// counts integers, conversion_rate a ratio rounded to 4 places.
func shopifyQL(sh *shop, q string) map[string]any {
	m := qlRE.FindStringSubmatch(q)
	if m == nil {
		return qlParseError("Syntax not supported by the simulator: expected FROM <sessions|sales> SHOW <columns> SINCE YYYY-MM-DD UNTIL YYYY-MM-DD GROUP BY day")
	}
	table := strings.ToLower(m[1])
	cols, ok := qlColumns[table]
	if !ok {
		return qlParseError(fmt.Sprintf("Table %q does not exist.", m[1]))
	}
	var show []string
	for c := range strings.SplitSeq(m[2], ",") {
		c = strings.ToLower(strings.TrimSpace(c))
		if c == "day" {
			continue
		}
		if _, ok := cols[c]; !ok {
			return qlParseError(fmt.Sprintf("Column %q does not exist in table %q.", c, table))
		}
		show = append(show, c)
	}
	since, err1 := time.Parse("2006-01-02", m[3])
	until, err2 := time.Parse("2006-01-02", m[4])
	if err1 != nil || err2 != nil || until.Before(since) || until.Sub(since) > maxQLDays*24*time.Hour {
		return qlParseError("Invalid date range in SINCE/UNTIL.")
	}
	columns := []any{map[string]any{"name": "day", "dataType": "DAY_TIMESTAMP", "displayName": "Day"}}
	for _, c := range show {
		columns = append(columns, map[string]any{"name": c, "dataType": cols[c].dataType, "displayName": cols[c].display})
	}
	var sales map[string]*daySales
	if table == "sales" {
		sales = salesByDay(sh)
	}
	rows := []any{}
	for d := since; !d.After(until); d = d.AddDate(0, 0, 1) {
		day := d.Format("2006-01-02")
		row := map[string]any{"day": day}
		if table == "sessions" {
			v := sh.sessions[day]
			rate := 0.0
			if v[0] > 0 {
				rate = math.Round(float64(v[1])/float64(v[0])*10000) / 10000
			}
			all := map[string]any{"sessions": v[0], "sessions_that_completed_checkout": v[1], "conversion_rate": rate}
			for _, c := range show {
				row[c] = all[c]
			}
		} else {
			ds := sales[day]
			if ds == nil {
				ds = &daySales{}
			}
			cur := sh.spec.Currency
			net := ds.gross - ds.discounts - ds.returns
			all := map[string]any{
				"orders": ds.orders, "gross_sales": decimal(ds.gross, cur), "discounts": decimal(ds.discounts, cur),
				"returns": decimal(ds.returns, cur), "net_sales": decimal(net, cur), "shipping": decimal(ds.shipping, cur),
				"taxes": decimal(ds.taxes, cur), "total_sales": decimal(net+ds.shipping+ds.duties+ds.fees+ds.taxes, cur),
			}
			for _, c := range show {
				row[c] = all[c]
			}
		}
		rows = append(rows, row)
	}
	return map[string]any{"tableData": map[string]any{"columns": columns, "rows": rows}, "parseErrors": []string{}}
}

// daySales are one day's report figures in minor units. Discounts and returns
// are positive amounts that reduce net sales.
type daySales struct {
	orders                                                   int64
	gross, discounts, returns, shipping, duties, fees, taxes int64
}

// salesByDay computes Shopify's sales report from the agreements, per the
// research rules: each sale lands on the shop-local day of its agreement; test
// and deleted orders are left out; gift cards and tips are not sales.
func salesByDay(sh *shop) map[string]*daySales {
	out := map[string]*daySales{}
	get := func(t time.Time) *daySales {
		d := t.In(sh.loc).Format("2006-01-02")
		if out[d] == nil {
			out[d] = &daySales{}
		}
		return out[d]
	}
	for _, o := range sh.orders {
		if o.test {
			continue
		}
		giftOnly := true
		for _, li := range o.lines {
			giftOnly = giftOnly && li.spec.GiftCard
		}
		if !giftOnly {
			get(o.createdAt).orders++
		}
		for _, a := range o.agreements {
			ds := get(a.happenedAt)
			for _, sa := range a.sales {
				pre := sa.total - sa.tax + sa.discount
				switch sa.lineType {
				case "PRODUCT":
					if sa.actionType == "RETURN" {
						ds.returns -= pre
					} else {
						ds.gross += pre
					}
					ds.discounts += sa.discount
				case "SHIPPING":
					ds.shipping += sa.total - sa.tax
				case "DUTY":
					ds.duties += sa.total - sa.tax
				case "ADDITIONAL_FEE", "FEE":
					ds.fees += sa.total - sa.tax
				}
				ds.taxes += sa.tax
			}
		}
	}
	return out
}
