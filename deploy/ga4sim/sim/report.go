package sim

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Row limits of runReport: the default page and the most one response holds.
const (
	reportLimitDefault = 10000
	reportLimitMax     = 100000
	maxDateRanges      = 4
)

const schemaHint = " For a list of valid dimensions and metrics, see https://developers.google.com/analytics/devguides/reporting/data/v1/api-schema"

// metricDef is one metric the sim serves: its header type and how it is
// derived from a sum of days (rates are ratios of sums, as GA4 computes them).
type metricDef struct {
	typ   string
	value func(d Day) float64
}

func ratio(a, b int64) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

var metrics = map[string]metricDef{
	"sessions":           {"TYPE_INTEGER", func(d Day) float64 { return float64(d.Sessions) }},
	"ecommercePurchases": {"TYPE_INTEGER", func(d Day) float64 { return float64(d.Purchases) }},
	// transactions counts refund events beside purchases.
	"transactions":                 {"TYPE_INTEGER", func(d Day) float64 { return float64(d.Purchases + d.Refunds) }},
	"purchaseRevenue":              {"TYPE_CURRENCY", func(d Day) float64 { return d.Revenue - d.RefundAmount }},
	"grossPurchaseRevenue":         {"TYPE_CURRENCY", func(d Day) float64 { return d.Revenue }},
	"refundAmount":                 {"TYPE_CURRENCY", func(d Day) float64 { return d.RefundAmount }},
	"totalRevenue":                 {"TYPE_CURRENCY", func(d Day) float64 { return d.Revenue - d.RefundAmount }},
	"keyEvents":                    {"TYPE_INTEGER", func(d Day) float64 { return float64(d.Purchases + d.KeyEvents) }},
	"keyEvents:purchase":           {"TYPE_INTEGER", func(d Day) float64 { return float64(d.Purchases) }},
	"sessionKeyEventRate":          {"TYPE_FLOAT", func(d Day) float64 { return ratio(d.keyEventSessions(), d.Sessions) }},
	"sessionKeyEventRate:purchase": {"TYPE_FLOAT", func(d Day) float64 { return ratio(d.purchaseSessions(), d.Sessions) }},
}

func (m metricDef) format(v float64) string {
	switch m.typ {
	case "TYPE_INTEGER":
		return strconv.FormatInt(int64(v), 10)
	case "TYPE_CURRENCY":
		return strconv.FormatFloat(math.Round(v*100)/100, 'f', -1, 64)
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

func add(a, b Day) Day {
	// Sessions with a purchase or key event default to the purchases; summing
	// the resolved figures keeps a sum's rate right when days mix the two.
	return Day{Sessions: a.Sessions + b.Sessions, Purchases: a.Purchases + b.Purchases,
		PurchaseSessions: a.purchaseSessions() + b.purchaseSessions(), Refunds: a.Refunds + b.Refunds,
		KeyEvents: a.KeyEvents + b.KeyEvents, KeyEventSessions: a.keyEventSessions() + b.keyEventSessions(),
		Revenue: a.Revenue + b.Revenue, RefundAmount: a.RefundAmount + b.RefundAmount}
}

// flexInt is a proto int64 in JSON, which clients send as a number or a string.
type flexInt int64

func (f *flexInt) UnmarshalJSON(b []byte) error {
	s := string(bytes.Trim(b, `"`))
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return fmt.Errorf("%s is not an integer", b)
	}
	*f = flexInt(n)
	return nil
}

type reportRequest struct {
	Property   string `json:"property"`
	DateRanges []struct {
		StartDate string `json:"startDate"`
		EndDate   string `json:"endDate"`
		Name      string `json:"name"`
	} `json:"dateRanges"`
	Dimensions []struct {
		Name string `json:"name"`
	} `json:"dimensions"`
	Metrics []struct {
		Name       string `json:"name"`
		Expression string `json:"expression"`
		Invisible  bool   `json:"invisible"`
	} `json:"metrics"`
	DimensionFilter     json.RawMessage `json:"dimensionFilter"`
	MetricFilter        json.RawMessage `json:"metricFilter"`
	Offset              flexInt         `json:"offset"`
	Limit               flexInt         `json:"limit"`
	MetricAggregations  []string        `json:"metricAggregations"`
	OrderBys            []orderBy       `json:"orderBys"`
	CurrencyCode        string          `json:"currencyCode"`
	KeepEmptyRows       bool            `json:"keepEmptyRows"`
	ReturnPropertyQuota bool            `json:"returnPropertyQuota"`
}

type orderBy struct {
	Desc      bool `json:"desc"`
	Dimension *struct {
		DimensionName string `json:"dimensionName"`
		OrderType     string `json:"orderType"`
	} `json:"dimension"`
	Metric *struct {
		MetricName string `json:"metricName"`
	} `json:"metric"`
}

type dateRange struct {
	name       string
	start, end time.Time // property-local calendar days, at midnight UTC for plain day arithmetic
}

var daysAgoRE = regexp.MustCompile(`^([0-9]{1,4})daysAgo$`)

// resolveDate reads a runReport date in the property's calendar: YYYY-MM-DD,
// today, yesterday or NdaysAgo, where today is the property-local date now.
func resolveDate(s string, today time.Time) (time.Time, bool) {
	switch s {
	case "today":
		return today, true
	case "yesterday":
		return today.AddDate(0, 0, -1), true
	}
	if m := daysAgoRE.FindStringSubmatch(s); m != nil {
		n, _ := strconv.Atoi(m[1])
		return today.AddDate(0, 0, -n), true
	}
	t, err := time.Parse(time.DateOnly, s)
	return t, err == nil && t.Year() >= 2015
}

var propertyPathRE = regexp.MustCompile(`^properties/([0-9]+):runReport$`)

func badRequest(w http.ResponseWriter, msg string) {
	apiError(w, http.StatusBadRequest, "INVALID_ARGUMENT", msg)
}

// row is one grouped row before formatting: its dimension values and summed day.
type row struct {
	dims []string
	sum  Day
}

func (s *Server) handleRunReport(w http.ResponseWriter, r *http.Request, user string) {
	m := propertyPathRE.FindStringSubmatch(r.PathValue("property"))
	if m == nil {
		apiError(w, http.StatusNotFound, "NOT_FOUND", "Method not found: "+r.URL.Path)
		return
	}
	pid := m[1]
	raw, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 1<<20))
	if err != nil {
		badRequest(w, "The request body is too large or could not be read.")
		return
	}
	var req reportRequest
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		badRequest(w, "Invalid JSON payload received. "+err.Error())
		return
	}
	if req.Property != "" && req.Property != "properties/"+pid {
		badRequest(w, "The property in the body does not match the one in the path.")
		return
	}
	if !s.canReadLocked(user, pid) {
		apiError(w, http.StatusForbidden, "PERMISSION_DENIED", "User does not have sufficient permissions for this property. To learn more about Property ID, see https://developers.google.com/analytics/devguides/reporting/data/v1/property-id.")
		return
	}
	p := s.props[pid]
	p.quota.roll(s.now())
	if msg := p.quota.spent(); msg != "" {
		apiError(w, http.StatusTooManyRequests, "RESOURCE_EXHAUSTED", msg+" To learn more, see https://developers.google.com/analytics/devguides/reporting/data/v1/quotas")
		return
	}
	rep, cols, msg := s.buildReport(p, &req)
	if msg != "" {
		badRequest(w, msg)
		return
	}
	thresholded := p.quality.ThresholdSessions > 0
	cost := reportCost(cols.days, len(req.Dimensions)+len(req.Metrics), cols.rows)
	p.quota.dayUsed += cost
	p.quota.hourUsed += cost
	if thresholded {
		p.quota.thresholdedThisHour++
	}
	if req.ReturnPropertyQuota {
		rep["propertyQuota"] = p.quota.report(cost, thresholded)
	}
	writeJSON(w, http.StatusOK, rep)
}

type reportSize struct{ days, rows int }

// buildReport answers a runReport request from a property's days; msg is the
// INVALID_ARGUMENT message when the request is wrong.
func (s *Server) buildReport(p *property, req *reportRequest) (rep map[string]any, size reportSize, msg string) {
	if req.DimensionFilter != nil || req.MetricFilter != nil {
		return nil, size, "The simulator does not implement dimensionFilter or metricFilter."
	}
	if req.CurrencyCode != "" && req.CurrencyCode != p.spec.CurrencyCode {
		return nil, size, "The simulator does not convert currencies: currencyCode must be the property's " + p.spec.CurrencyCode + "."
	}
	if len(req.DateRanges) == 0 {
		return nil, size, "dateRanges is required: give at least one date range."
	}
	if len(req.DateRanges) > maxDateRanges {
		return nil, size, fmt.Sprintf("Requests are limited to %d dateRanges.", maxDateRanges)
	}
	ln := s.now().In(p.loc)
	today := time.Date(ln.Year(), ln.Month(), ln.Day(), 0, 0, 0, 0, time.UTC)
	var ranges []dateRange
	for i, dr := range req.DateRanges {
		start, ok1 := resolveDate(dr.StartDate, today)
		end, ok2 := resolveDate(dr.EndDate, today)
		if !ok1 || !ok2 {
			return nil, size, fmt.Sprintf("Invalid date range %q to %q: dates are YYYY-MM-DD, NdaysAgo, yesterday or today.", dr.StartDate, dr.EndDate)
		}
		if start.After(end) {
			return nil, size, fmt.Sprintf("Invalid date range: startDate %s is after endDate %s.", dr.StartDate, dr.EndDate)
		}
		name := dr.Name
		if name == "" {
			name = "date_range_" + strconv.Itoa(i)
		}
		if strings.HasPrefix(dr.Name, "date_range_") || strings.HasPrefix(dr.Name, "RESERVED_") {
			return nil, size, "A dateRange name cannot begin with date_range_ or RESERVED_."
		}
		ranges = append(ranges, dateRange{name: name, start: start, end: end})
		size.days += int(end.Sub(start)/(24*time.Hour)) + 1
	}
	var dims []string
	for _, d := range req.Dimensions {
		if d.Name != "date" && d.Name != "dateRange" {
			return nil, size, "Field " + d.Name + " is not a valid dimension." + schemaHint
		}
		if slices.Contains(dims, d.Name) {
			return nil, size, "Duplicate dimension: " + d.Name
		}
		dims = append(dims, d.Name)
	}
	if len(ranges) > 1 && !slices.Contains(dims, "dateRange") {
		dims = append(dims, "dateRange") // GA4 tells the ranges apart in the rows
	}
	if len(req.Metrics) == 0 {
		return nil, size, "At least one metric is required."
	}
	if len(dims) > 9 || len(req.Metrics) > 10 {
		return nil, size, "Requests are limited to 9 dimensions and 10 metrics."
	}
	var mets []string
	for _, mt := range req.Metrics {
		if mt.Expression != "" || mt.Invisible {
			return nil, size, "The simulator does not implement metric expressions."
		}
		if _, ok := metrics[mt.Name]; !ok {
			return nil, size, "Field " + mt.Name + " is not a valid metric." + schemaHint
		}
		if slices.Contains(mets, mt.Name) {
			return nil, size, "Duplicate metric: " + mt.Name
		}
		mets = append(mets, mt.Name)
	}
	if req.Offset < 0 || req.Limit < 0 {
		return nil, size, "offset and limit must be non-negative."
	}
	limit := int64(req.Limit)
	if limit == 0 {
		limit = reportLimitDefault
	}
	limit = min(limit, reportLimitMax)

	// Group the days into rows: one per (dimension values).
	q := p.quality
	index := map[string]int{}
	var rows []row
	var sampleSpace []int64
	for _, dr := range ranges {
		var space int64
		for d := dr.start; !d.After(dr.end); d = d.AddDate(0, 0, 1) {
			day, ok := p.days[d.Format(time.DateOnly)]
			if !ok {
				continue // GA4 has no row for a day with no data at all, even with keepEmptyRows
			}
			space += day.Sessions
			if q.ThresholdSessions > 0 && day.Sessions < q.ThresholdSessions {
				continue // withheld under the data thresholds
			}
			var vals []string
			for _, dn := range dims {
				if dn == "date" {
					vals = append(vals, d.Format("20060102"))
				} else {
					vals = append(vals, dr.name)
				}
			}
			key := strings.Join(vals, "\x00")
			i, ok := index[key]
			if !ok {
				i = len(rows)
				index[key] = i
				rows = append(rows, row{dims: vals})
			}
			rows[i].sum = add(rows[i].sum, day)
		}
		sampleSpace = append(sampleSpace, space)
	}
	if !req.KeepEmptyRows {
		rows = slices.DeleteFunc(rows, func(r row) bool {
			for _, mn := range mets {
				if metrics[mn].value(r.sum) != 0 {
					return false
				}
			}
			return true
		})
	}
	if msg := sortRows(rows, dims, mets, req.OrderBys); msg != "" {
		return nil, size, msg
	}
	size.rows = len(rows)

	format := func(r row, dimVals []string) map[string]any {
		out := map[string]any{}
		if len(dimVals) > 0 {
			var dv []map[string]string
			for _, v := range dimVals {
				dv = append(dv, map[string]string{"value": v})
			}
			out["dimensionValues"] = dv
		}
		var mv []map[string]string
		for _, mn := range mets {
			mv = append(mv, map[string]string{"value": metrics[mn].format(metrics[mn].value(r.sum))})
		}
		out["metricValues"] = mv
		return out
	}
	rep = map[string]any{"kind": "analyticsData#runReport"}
	if len(dims) > 0 {
		var dh []map[string]string
		for _, d := range dims {
			dh = append(dh, map[string]string{"name": d})
		}
		rep["dimensionHeaders"] = dh
	}
	var mh []map[string]string
	for _, mn := range mets {
		mh = append(mh, map[string]string{"name": mn, "type": metrics[mn].typ})
	}
	rep["metricHeaders"] = mh
	if off := int64(req.Offset); off < int64(len(rows)) {
		var page []map[string]any
		for _, r := range rows[off:min(off+limit, int64(len(rows)))] {
			page = append(page, format(r, r.dims))
		}
		rep["rows"] = page
	}
	if len(rows) > 0 { // proto3 JSON leaves a zero rowCount out
		rep["rowCount"] = len(rows)
	}
	for _, agg := range req.MetricAggregations {
		key, reserved, pick := "", "", func(a, b float64) bool { return false }
		switch agg {
		case "TOTAL":
			key, reserved = "totals", "RESERVED_TOTAL"
		case "MAXIMUM":
			key, reserved, pick = "maximums", "RESERVED_MAX", func(a, b float64) bool { return a > b }
		case "MINIMUM":
			key, reserved, pick = "minimums", "RESERVED_MIN", func(a, b float64) bool { return a < b }
		default:
			return nil, size, "metricAggregations: the simulator implements TOTAL, MAXIMUM and MINIMUM."
		}
		rep[key] = []map[string]any{aggregate(rows, dims, mets, reserved, agg == "TOTAL", pick, format)}
	}
	meta := map[string]any{"currencyCode": p.spec.CurrencyCode, "timeZone": p.spec.TimeZone}
	if q.ThresholdSessions > 0 {
		meta["subjectToThresholding"] = true
	}
	if q.OtherRow {
		meta["dataLossFromOtherRow"] = true
	}
	if q.SampleRate > 0 {
		var sm []map[string]string
		for _, space := range sampleSpace {
			sm = append(sm, map[string]string{"samplesReadCount": itoa(int64(math.Round(float64(space) * q.SampleRate))), "samplingSpaceSize": itoa(space)})
		}
		meta["samplingMetadatas"] = sm
	}
	rep["metadata"] = meta
	return rep, size, ""
}

// aggregate is one totals/maximums/minimums row: a total sums the days (so
// its rates are ratios of sums); a maximum or minimum picks per metric.
func aggregate(rows []row, dims, mets []string, reserved string, total bool, pick func(a, b float64) bool,
	format func(row, []string) map[string]any) map[string]any {
	vals := make([]string, len(dims))
	for i := range vals {
		vals[i] = reserved
	}
	var sum Day
	for _, r := range rows {
		sum = add(sum, r.sum)
	}
	if total || len(rows) == 0 {
		return format(row{sum: sum}, vals)
	}
	out := format(row{}, vals)
	mv := out["metricValues"].([]map[string]string)
	for i, mn := range mets {
		best := metrics[mn].value(rows[0].sum)
		for _, r := range rows[1:] {
			if v := metrics[mn].value(r.sum); pick(v, best) {
				best = v
			}
		}
		mv[i]["value"] = metrics[mn].format(best)
	}
	return out
}

// sortRows applies orderBys. Without them GA4 promises no order; the sim
// puts the first metric's largest value first, as GA4's reports tend to, so
// a client that needs date order has to ask for it.
func sortRows(rows []row, dims, mets []string, obs []orderBy) string {
	type key struct {
		dim  int // index into dims, or -1
		met  int // index into mets, or -1
		desc bool
	}
	var keys []key
	for _, ob := range obs {
		switch {
		case ob.Dimension != nil && ob.Metric == nil:
			i := slices.Index(dims, ob.Dimension.DimensionName)
			if i < 0 {
				return "orderBys: dimension " + ob.Dimension.DimensionName + " is not in the request's dimensions."
			}
			keys = append(keys, key{dim: i, met: -1, desc: ob.Desc})
		case ob.Metric != nil && ob.Dimension == nil:
			i := slices.Index(mets, ob.Metric.MetricName)
			if i < 0 {
				return "orderBys: metric " + ob.Metric.MetricName + " is not in the request's metrics."
			}
			keys = append(keys, key{dim: -1, met: i, desc: ob.Desc})
		default:
			return "orderBys: each entry orders by one dimension or one metric."
		}
	}
	if len(keys) == 0 {
		keys = []key{{dim: -1, met: 0, desc: true}}
	}
	for i := range dims { // ties break on the dimensions, ascending, so the order is stable
		keys = append(keys, key{dim: i, met: -1})
	}
	slices.SortStableFunc(rows, func(a, b row) int {
		for _, k := range keys {
			c := 0
			if k.dim >= 0 {
				c = strings.Compare(a.dims[k.dim], b.dims[k.dim])
			} else {
				va, vb := metrics[mets[k.met]].value(a.sum), metrics[mets[k.met]].value(b.sum)
				c = cmpFloat(va, vb)
			}
			if k.desc {
				c = -c
			}
			if c != 0 {
				return c
			}
		}
		return 0
	})
	return ""
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
