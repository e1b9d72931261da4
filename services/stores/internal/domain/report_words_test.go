package domain

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// What the report's sentences may say about a metric: a movement of an
// unusual one ("Orders fell 45 % against your 7-day average") or total
// sales on a day the rule flagged nothing ("Sales were 23 % below your
// 7-day average", "Sales were in line with your 7-day average").
var (
	movementRe = regexp.MustCompile(`(Total sales|Orders|Average order value|Returns|Sessions|Conversion rate) (rose|fell) (\d+) % against your 7-day average`)
	salesRe    = regexp.MustCompile(`^Sales were (\d+) % (above|below) your 7-day average`)
	inLineRe   = regexp.MustCompile(`^Sales were in line with your 7-day average`)
)

// shownWhole is a one-decimal change as a person rounds it to a whole
// percent (half away from zero), with its sign.
func shownWhole(t *testing.T, change *string) (int64, int) {
	t.Helper()
	r, ok := new(big.Rat).SetString(str(change))
	if !ok {
		t.Fatalf("change %q is not a number", str(change))
	}
	return roundRat(new(big.Rat).Abs(r), 0), r.Sign()
}

// checkWords asserts that every figure and direction in the report's
// sentences is the one beside it, and that only judged changes get an
// adjective.
func checkWords(t *testing.T, name string, r DailyReport, salesJudged bool) {
	t.Helper()
	labels := map[string]Comparison{}
	for _, m := range r.Metrics {
		labels[m.Label] = m
	}
	sentences := append([]string{r.Headline}, r.Notes...)
	told := 0
	for _, s := range sentences {
		for _, g := range movementRe.FindAllStringSubmatch(s, -1) {
			told++
			m := labels[g[1]]
			if !m.Unusual {
				t.Errorf("%s: %q tells of %s, which the rule did not flag", name, s, g[1])
			}
			whole, sign := shownWhole(t, m.ChangePercent)
			if want := map[bool]string{true: "fell", false: "rose"}[sign < 0]; g[2] != want || g[3] != strconv.FormatInt(whole, 10) {
				t.Errorf("%s: %q beside %s %s %%: want %q %d %%", name, s, g[1], str(m.ChangePercent), want, whole)
			}
		}
	}
	ts := labels["Total sales"]
	switch {
	case told > 0:
		if strings.Contains(r.Headline, "usual") {
			t.Errorf("%s: headline %q calls a flagged day usual", name, r.Headline)
		}
	case ts.ChangePercent == nil:
		if strings.Contains(r.Headline, "%") || strings.Contains(r.Headline, "usual") {
			t.Errorf("%s: headline %q judges a change that has no figure", name, r.Headline)
		}
	default:
		whole, sign := shownWhole(t, ts.ChangePercent)
		if g := salesRe.FindStringSubmatch(r.Headline); g != nil {
			if want := map[bool]string{true: "below", false: "above"}[sign < 0]; g[2] != want || g[1] != strconv.FormatInt(whole, 10) {
				t.Errorf("%s: %q beside total sales %s %%: want %d %% %s", name, r.Headline, str(ts.ChangePercent), whole, want)
			}
		} else if !inLineRe.MatchString(r.Headline) || whole != 0 {
			t.Errorf("%s: headline %q does not say what total sales did (%s %%)", name, r.Headline, str(ts.ChangePercent))
		}
		if got := strings.Contains(r.Headline, "within your usual range"); got != salesJudged {
			t.Errorf("%s: headline %q: judged by the rule = %v", name, r.Headline, salesJudged)
		}
	}
	if !strings.Contains(r.Summary, "%") && told > 0 {
		t.Errorf("%s: summary %q leaves out the flagged change", name, r.Summary)
	}
}

// TestDailyReportWordsAgreeWithNumbers generates many reports (busy and
// tiny shops, returns, sessions or none, steady and wild weeks) and checks
// that the headline and notes say what the numbers beside them say.
func TestDailyReportWordsAgreeWithNumbers(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(21, 3))
	for i := range 3000 {
		scale := []int64{1, 3, 8, 30}[rng.IntN(4)]
		withSessions := rng.IntN(3) > 0
		day := func(d Date) DayTotals {
			orders := rng.Int64N(scale*2 + 1)
			aov := 2000 + rng.Int64N(20000)
			discounts := rng.Int64N(300)
			v := DayTotals{Date: d, Orders: orders,
				Amounts: Amounts{Gross: Money(orders*aov + discounts), Discounts: Money(discounts),
					Shipping: Money(orders * 499), Taxes: Money(orders * aov / 10)}}
			if rng.IntN(3) == 0 {
				v.Returns = Money(rng.Int64N(aov * 2))
			}
			if withSessions {
				s := orders*30 + rng.Int64N(200)
				c := min(s, orders)
				v.Sessions, v.CompletedSessions = &s, &c
			}
			return v
		}
		var prior []DayTotals
		for k := range 7 {
			prior = append(prior, day(Date{2026, 11, 16}.AddDays(k)))
		}
		d := day(Date{2026, 11, 23})
		if rng.IntN(4) == 0 { // a day far off the week: something to flag
			d.Orders, d.Gross = d.Orders*3+5, d.Gross*3+50000
		}
		r := CompareDay(d, prior, "USD")
		if len(active(prior)) == 0 && sessionsOf(prior) == 0 {
			continue
		}
		checkWords(t, fmt.Sprintf("report %d", i), r, SumTotals(prior).Orders >= minOrdersPerDay*7)
	}
}

// sessionsOf adds the days' sessions.
func sessionsOf(days []DayTotals) int64 {
	var n int64
	for _, d := range days {
		if d.Sessions != nil {
			n += *d.Sessions
		}
	}
	return n
}

// active is the days that had any activity (a week of nothing has
// its own headline, "nothing to compare with yet").
func active(days []DayTotals) []DayTotals {
	var out []DayTotals
	for _, d := range days {
		if d.Orders > 0 || d.Amounts != (Amounts{}) {
			out = append(out, d)
		}
	}
	return out
}

// TestDailyReportNamesAnUnflaggedDrop is a day an owner was once told
// was "a usual day … nothing moved enough to flag": sales 23.1 %
// down, AOV 26.6 % down and returns 213.3 % up, none of them flagged.
func TestDailyReportNamesAnUnflaggedDrop(t *testing.T) {
	t.Parallel()
	// A busy week that swings (4 to 16 orders a day at 100.00); yesterday
	// 10 orders at 76.92 and 30.00 back against 9.57 a day: the returns'
	// base (one order's value a day) is not met, so they are not judged.
	prior := week([]int64{4, 16, 6, 14, 10, 12, 8}, 0, 0)
	for i := range prior {
		prior[i].Returns = Money([]int64{0, 0, 2000, 0, 4700, 0, 0}[i])
	}
	d := dayOf(10, 0, 0)
	d.Gross, d.Returns = 76920, 3000
	r := CompareDay(d, prior, "USD")
	for _, m := range r.Metrics {
		if m.Unusual {
			t.Fatalf("%s is unusual (%s %%): the example needs a day with nothing flagged", m.Label, str(m.ChangePercent))
		}
	}
	ts := metricOf(t, r, "totalSales")
	whole, _ := shownWhole(t, ts.ChangePercent)
	want := fmt.Sprintf("Sales were %d %% below your 7-day average, within your usual range.", whole)
	if r.Headline != want {
		t.Errorf("headline = %q\nwant %q", r.Headline, want)
	}
	if strings.Contains(r.Headline, "nothing moved") {
		t.Errorf("headline %q says nothing moved beside %s %%", r.Headline, str(ts.ChangePercent))
	}
	if got := r.SuggestedAction(""); got != ActionLook {
		t.Errorf("action = %q, want %q", got, ActionLook)
	}
	if got := r.SuggestedAction("Sencha"); got != fmt.Sprintf(ActionFeature, "Sencha") {
		t.Errorf("action = %q", got)
	}
	if !strings.HasSuffix(r.Summary, fmt.Sprintf("in sales, %d %% below your 7-day average", whole)) {
		t.Errorf("summary = %q", r.Summary)
	}
}

// TestDailyReportTinyShopIsNotJudged: on fewer than 3 orders a day a change
// is shown but not called usual or unusual.
func TestDailyReportTinyShopIsNotJudged(t *testing.T) {
	t.Parallel()
	r := CompareDay(dayOf(1, 0, 0), week([]int64{2, 1, 2, 1, 2, 1, 2}, 0, 0), "USD")
	want := "Sales were 36 % below your 7-day average; with fewer than 3 orders a day before it, no change is called unusual yet."
	if r.Headline != want {
		t.Errorf("headline = %q\nwant %q", r.Headline, want)
	}
}

// TestDailyReportActionFollowsTheHeadline: the action points where the
// headline does.
func TestDailyReportActionFollowsTheHeadline(t *testing.T) {
	t.Parallel()
	checkout := CompareDay(dayOf(11, 1000, 11), week([]int64{20, 20, 20, 20, 20, 20, 20}, 1000, 20), "USD")
	if got := checkout.SuggestedAction("Sencha"); got != ActionCheckout {
		t.Errorf("orders fell, sessions steady: action = %q", got)
	}
	traffic := CompareDay(dayOf(10, 500, 10), week([]int64{10, 10, 10, 10, 10, 10, 10}, 1000, 10), "USD")
	if got := traffic.SuggestedAction(""); got != ActionTraffic {
		t.Errorf("sessions fell: action = %q (headline %q)", got, traffic.Headline)
	}
	prior := week([]int64{10, 10, 10, 10, 10, 10, 10}, 0, 0)
	for i := range prior {
		prior[i].Returns = 10000
	}
	d := dayOf(10, 0, 0)
	d.Returns = 30000
	if got := CompareDay(d, prior, "USD").SuggestedAction("Sencha"); got != ActionReturns {
		t.Errorf("returns rose: action = %q", got)
	}
	// Sessions on a tiny base are not "steady": no checkout advice from them.
	small := CompareDay(dayOf(11, 20, 11), week([]int64{20, 20, 20, 20, 20, 20, 20}, 20, 20), "USD")
	if strings.Contains(small.Headline, "steady") || small.SuggestedAction("") == ActionCheckout {
		t.Errorf("sessions of 20 a day judged steady: %q / %q", small.Headline, small.SuggestedAction(""))
	}
}
