package sim

import (
	"fmt"
	"net/http"
	"reflect"
	"testing"
	"time"
)

func dailyBody(start, end string, metrics ...string) map[string]any {
	var ms []map[string]string
	for _, m := range metrics {
		ms = append(ms, map[string]string{"name": m})
	}
	return map[string]any{"dateRanges": []map[string]string{{"startDate": start, "endDate": end}},
		"dimensions": []map[string]string{{"name": "date"}}, "metrics": ms,
		"orderBys": []map[string]any{{"dimension": map[string]string{"dimensionName": "date"}}}}
}

// seeded is an env with three days of data on testProperty and a token.
func seeded(t *testing.T, o ...Options) (*env, string) {
	e := newEnv(t, append(o, Options{})[0])
	e.must(e.s.SetDays(testProperty, []Day{
		{Date: "2026-03-16", Sessions: 1200, Purchases: 30, PurchaseSessions: 28, Revenue: 1500.5},
		{Date: "2026-03-17", Sessions: 1000, Purchases: 25, Refunds: 2, Revenue: 1000, RefundAmount: 80.25},
		{Date: "2026-03-18", Sessions: 0},
	}))
	return e, e.connect()["access_token"].(string)
}

func TestRunReportAnswersAsGA4(t *testing.T) {
	t.Parallel()
	e, at := seeded(t)
	body := dailyBody("2026-03-16", "2026-03-18", "sessions", "ecommercePurchases", "transactions", "purchaseRevenue", "grossPurchaseRevenue", "refundAmount", "sessionKeyEventRate:purchase")
	body["returnPropertyQuota"] = true
	st, out := e.report(at, testProperty, body)
	if st != 200 {
		t.Fatalf("%d %v", st, out)
	}
	want := [][]string{
		{"20260316", "1200", "30", "30", "1500.5", "1500.5", "0", fmt.Sprint(28.0 / 1200)},
		// refunds: transactions counts them, ecommercePurchases does not
		{"20260317", "1000", "25", "27", "919.75", "1000", "80.25", "0.025"},
	}
	if got := table(out); !reflect.DeepEqual(got, want) {
		t.Fatalf("rows %v", got)
	}
	if out["rowCount"] != float64(2) || out["kind"] != "analyticsData#runReport" ||
		dig(out, "metadata", "timeZone") != "America/New_York" || dig(out, "metadata", "currencyCode") != "EUR" ||
		dig(out, "dimensionHeaders", 0, "name") != "date" || dig(out, "metricHeaders", 3, "type") != "TYPE_CURRENCY" ||
		dig(out, "metricHeaders", 0, "type") != "TYPE_INTEGER" || dig(out, "metadata", "subjectToThresholding") != nil ||
		dig(out, "metadata", "samplingMetadatas") != nil {
		t.Fatalf("shape %v", out)
	}
	if dig(out, "propertyQuota", "tokensPerDay", "consumed").(float64) < 1 || dig(out, "propertyQuota", "tokensPerDay", "remaining") == nil {
		t.Fatalf("propertyQuota %v", out["propertyQuota"])
	}
	// keepEmptyRows brings back the day whose metrics are all zero; a day
	// with no data at all never appears.
	body = dailyBody("2026-03-15", "2026-03-18", "sessions")
	body["keepEmptyRows"] = true
	_, out = e.report(at, testProperty, body)
	if got := table(out); len(got) != 3 || got[2][0] != "20260318" || got[2][1] != "0" {
		t.Fatalf("keepEmptyRows: %v", got)
	}
}

func TestRunReportDatesAreThePropertysDaysAcrossDST(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	e.must(e.s.CreateProperty(PropertySpec{ID: "1002", Account: "500", DisplayName: "Auckland", TimeZone: "Pacific/Auckland"}))
	var days []Day
	for d := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC); d.Month() == 3; d = d.AddDate(0, 0, 1) {
		days = append(days, Day{Date: d.Format(time.DateOnly), Sessions: int64(d.Day())})
	}
	e.must(e.s.SetDays(testProperty, days))
	e.must(e.s.SetDays("1002", days))
	at := e.connect()["access_token"].(string)
	// New York moves to EDT on 8 March 2026; 03:30 UTC on the 9th is 23:30
	// on the 8th there, and already midday on the 9th in Auckland.
	e.clock.Set(time.Date(2026, 3, 9, 3, 30, 0, 0, time.UTC))
	_, out := e.report(at, testProperty, dailyBody("3daysAgo", "today", "sessions"))
	want := [][]string{{"20260305", "5"}, {"20260306", "6"}, {"20260307", "7"}, {"20260308", "8"}}
	if got := table(out); !reflect.DeepEqual(got, want) {
		t.Fatalf("New York: %v", got)
	}
	_, out = e.report(at, "1002", dailyBody("yesterday", "today", "sessions"))
	if got := table(out); !reflect.DeepEqual(got, [][]string{{"20260308", "8"}, {"20260309", "9"}}) {
		t.Fatalf("Auckland: %v", got)
	}
	// Just before the change: 04:30 UTC on the 8th is still the 7th in New York (EST).
	e.clock.Set(time.Date(2026, 3, 8, 4, 30, 0, 0, time.UTC))
	_, out = e.report(at, testProperty, dailyBody("today", "today", "sessions"))
	if got := table(out); !reflect.DeepEqual(got, [][]string{{"20260307", "7"}}) {
		t.Fatalf("before the change: %v", got)
	}
}

func TestRunReportOrderLimitOffsetAndAggregates(t *testing.T) {
	t.Parallel()
	e, at := seeded(t)
	body := dailyBody("2026-03-16", "2026-03-18", "sessions")
	delete(body, "orderBys")
	_, out := e.report(at, testProperty, body)
	if got := table(out); got[0][0] != "20260316" || got[1][0] != "20260317" {
		t.Fatalf("default order (first metric, largest first): %v", got)
	}
	body["orderBys"] = []map[string]any{{"dimension": map[string]string{"dimensionName": "date"}, "desc": true}}
	body["limit"] = "1" // proto int64s may come as strings
	body["offset"] = 1
	body["metricAggregations"] = []string{"TOTAL", "MAXIMUM"}
	_, out = e.report(at, testProperty, body)
	if got := table(out); !reflect.DeepEqual(got, [][]string{{"20260316", "1200"}}) || out["rowCount"] != float64(2) {
		t.Fatalf("page %v of %v", got, out["rowCount"])
	}
	if dig(out, "totals", 0, "dimensionValues", 0, "value") != "RESERVED_TOTAL" || dig(out, "totals", 0, "metricValues", 0, "value") != "2200" ||
		dig(out, "maximums", 0, "metricValues", 0, "value") != "1200" {
		t.Fatalf("aggregates %v %v", out["totals"], out["maximums"])
	}
	// Without the date dimension a range is one row; two ranges are told apart by dateRange.
	_, out = e.report(at, testProperty, map[string]any{
		"dateRanges": []map[string]string{{"startDate": "2026-03-16", "endDate": "2026-03-16"}, {"startDate": "2026-03-17", "endDate": "2026-03-18", "name": "later"}},
		"metrics":    []map[string]string{{"name": "ecommercePurchases"}},
	})
	if got := table(out); !reflect.DeepEqual(got, [][]string{{"date_range_0", "30"}, {"later", "25"}}) || dig(out, "dimensionHeaders", 0, "name") != "dateRange" {
		t.Fatalf("two ranges: %v", got)
	}
}

func TestRunReportRefusesBadRequests(t *testing.T) {
	t.Parallel()
	e, at := seeded(t)
	for name, body := range map[string]any{
		"renamed metric": dailyBody("7daysAgo", "today", "conversions"),
		"unknown dim":    map[string]any{"dateRanges": []map[string]string{{"startDate": "today", "endDate": "today"}}, "dimensions": []map[string]string{{"name": "country"}}, "metrics": []map[string]string{{"name": "sessions"}}},
		"unknown field":  map[string]any{"dateRange": []map[string]string{{"startDate": "today", "endDate": "today"}}, "metrics": []map[string]string{{"name": "sessions"}}},
		"reversed range": dailyBody("today", "7daysAgo", "sessions"),
		"bad date":       dailyBody("2026-02-30", "today", "sessions"),
		"no ranges":      map[string]any{"metrics": []map[string]string{{"name": "sessions"}}},
		"negative limit": map[string]any{"dateRanges": []map[string]string{{"startDate": "today", "endDate": "today"}}, "metrics": []map[string]string{{"name": "sessions"}}, "limit": -1},
	} {
		if st, out := e.report(at, testProperty, body); st != 400 || apiStatus(out) != "INVALID_ARGUMENT" || dig(out, "error", "code") != float64(400) {
			t.Errorf("%s: %d %v", name, st, out)
		}
	}
	e.must(e.s.CreateUser("bo@example.com"))
	e.must(e.s.CreateAccount(AccountSpec{ID: "900", DisplayName: "Bo's", Users: []string{"bo@example.com"}}))
	e.must(e.s.CreateProperty(PropertySpec{ID: "9001", Account: "900", DisplayName: "Bo's GA4"}))
	for _, pid := range []string{"9001", "777"} {
		if st, out := e.report(at, pid, dailyBody("today", "today", "sessions")); st != 403 || apiStatus(out) != "PERMISSION_DENIED" {
			t.Errorf("property %s: %d %v", pid, st, out)
		}
	}
	if st, out := e.report("", testProperty, dailyBody("today", "today", "sessions")); st != 401 || apiStatus(out) != "UNAUTHENTICATED" {
		t.Errorf("no token: %d %v", st, out)
	}
}

func TestRunReportSaysSampledAndThresholded(t *testing.T) {
	t.Parallel()
	e, at := seeded(t)
	e.must(e.s.SetQuality(testProperty, Quality{SampleRate: 0.25, ThresholdSessions: 1100, OtherRow: true}))
	body := dailyBody("2026-03-16", "2026-03-18", "sessions")
	body["returnPropertyQuota"] = true
	_, out := e.report(at, testProperty, body)
	if q := dig(out, "propertyQuota", "potentiallyThresholdedRequestsPerHour"); dig(q, "consumed") != float64(1) || dig(q, "remaining") != float64(119) {
		t.Fatalf("a thresholded report does not count as one: %v", q)
	}
	if got := table(out); !reflect.DeepEqual(got, [][]string{{"20260316", "1200"}}) {
		t.Fatalf("the 1000-session day is not withheld: %v", got)
	}
	meta := out["metadata"]
	if dig(meta, "subjectToThresholding") != true || dig(meta, "dataLossFromOtherRow") != true ||
		dig(meta, "samplingMetadatas", 0, "samplesReadCount") != "550" || dig(meta, "samplingMetadatas", 0, "samplingSpaceSize") != "2200" {
		t.Fatalf("metadata %v", meta)
	}
}

func TestQuotaExhaustionAnswers429UntilTheWindowRolls(t *testing.T) {
	t.Parallel()
	e, at := seeded(t, Options{TokenTTL: 48 * time.Hour})
	body := dailyBody("2026-03-16", "2026-03-18", "sessions")
	st, _ := e.call(http.MethodPost, "/_control/properties/"+testProperty+"/exhaust-quota", "", map[string]string{"quota": "tokensPerDay"})
	if st != 200 {
		t.Fatalf("exhaust: %d", st)
	}
	st, out := e.report(at, testProperty, body)
	if st != 429 || apiStatus(out) != "RESOURCE_EXHAUSTED" || dig(out, "error", "code") != float64(429) {
		t.Fatalf("exhausted: %d %v", st, out)
	}
	// Daily quotas come back at midnight Pacific: 16:00 UTC is 09:00 there.
	e.clock.Add(14 * time.Hour)
	if st, out := e.report(at, testProperty, body); st != 429 {
		t.Fatalf("before midnight Pacific: %d %v", st, out)
	}
	e.clock.Add(2 * time.Hour)
	if st, out := e.report(at, testProperty, body); st != 200 {
		t.Fatalf("after midnight Pacific: %d %v", st, out)
	}
	// Spending the tokens by use: each report costs some, and the hourly
	// project quota is the first to run out.
	e.s.mu.Lock()
	e.s.props[testProperty].quota.hourUsed = tokensPerProjectPerHour - 1
	e.s.mu.Unlock()
	if st, _ := e.report(at, testProperty, body); st != 200 {
		t.Fatal("the last token was refused")
	}
	if st, out := e.report(at, testProperty, body); st != 429 || apiStatus(out) != "RESOURCE_EXHAUSTED" {
		t.Fatalf("after the last token: %d %v", st, out)
	}
}

func TestFailNextFailsThatManyCalls(t *testing.T) {
	t.Parallel()
	e, at := seeded(t)
	if st, _ := e.call(http.MethodPost, "/_control/fail", "", map[string]int{"code": 503, "count": 2}); st != 200 {
		t.Fatal("fail")
	}
	body := dailyBody("2026-03-16", "2026-03-18", "sessions")
	for i := range 2 {
		if st, out := e.report(at, testProperty, body); st != 503 || apiStatus(out) != "UNAVAILABLE" {
			t.Fatalf("call %d: %d %v", i, st, out)
		}
	}
	if st, _ := e.report(at, testProperty, body); st != 200 {
		t.Fatalf("third call: %d", st)
	}
	if st, _ := e.call(http.MethodPost, "/_control/fail", "", map[string]int{"code": 418, "count": 1}); st != 400 {
		t.Fatalf("code 418 accepted: %d", st)
	}
}
