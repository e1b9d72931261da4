package domain

import (
	"errors"
	"fmt"
	"math/big"
	"net/url"
	"strings"
	"time"

	"uplift.dev/platform/money"
)

// ErrNothingToReport means a daily report has no numbers worth an email
// (no store data, or a day and week of nothing): Uplift never sends an
// email of empty zeros.
var ErrNothingToReport = errors.New("the daily report has nothing to show")

// ReportMetric is one number of the daily report as the stores service
// computed it: decimal strings, nil when not available (never zero instead).
type ReportMetric struct {
	Key           string  `json:"key"`
	Label         string  `json:"label"`
	Value         *string `json:"value,omitempty"`
	Average       *string `json:"average,omitempty"`
	ChangePercent *string `json:"changePercent,omitempty"`
	Unusual       bool    `json:"unusual,omitempty"`
}

// DailyReport is the stores service's DailyReportReady: one store-local
// day against the seven days before it.
type DailyReport struct {
	CategoryID, OwnerUserID string
	StoreName               string
	// Date is the report's store-local day, YYYY-MM-DD.
	Date, Currency, Status string
	Metrics                []ReportMetric
	Headline               string
	Notes                  []string
	BestSeller             string
}

// ReportReady is the status of a report with store data behind it.
const ReportReady = "READY"

// maxReportNotes bounds the notes one email repeats.
const maxReportNotes = 5

// NewDailyReport is the daily business report email of r to the owner's
// address to, keyed by category and day: the same report delivered twice,
// or published again, queues nothing new. A report without data, or whose
// numbers are all zero or missing, is ErrNothingToReport.
func NewDailyReport(r DailyReport, to string) (Email, error) {
	if strings.TrimSpace(r.CategoryID) == "" || strings.TrimSpace(r.OwnerUserID) == "" {
		return Email{}, ErrMissingID
	}
	if _, err := time.Parse(time.DateOnly, r.Date); err != nil {
		return Email{}, fmt.Errorf("daily report date %q: %w", r.Date, ErrMissingID)
	}
	if r.Status != ReportReady || allZero(r.Metrics) {
		return Email{}, ErrNothingToReport
	}
	addr, err := ParseAddress(to)
	if err != nil {
		return Email{}, err
	}
	p := Params{CategoryID: r.CategoryID, StoreName: cleanName(r.StoreName), Date: r.Date,
		Currency: strings.ToUpper(strings.TrimSpace(r.Currency)), Headline: clip(r.Headline), BestSeller: clip(r.BestSeller)}
	for _, m := range r.Metrics {
		m.Label = clip(m.Label)
		p.Metrics = append(p.Metrics, m)
	}
	for _, n := range r.Notes {
		if t := clip(n); t != "" && len(p.Notes) < maxReportNotes {
			p.Notes = append(p.Notes, t)
		}
	}
	p.Summary = ReportSummary(p.Metrics, p.Currency)
	p.Action = SuggestAction(p.Metrics, p.BestSeller)
	return pending("daily-report:"+r.CategoryID+":"+r.Date, KindDailyReport, r.OwnerUserID, addr, p), nil
}

// allZero reports whether no metric has a non-zero value or average.
func allZero(ms []ReportMetric) bool {
	for _, m := range ms {
		for _, v := range []*string{m.Value, m.Average} {
			if v != nil {
				if r, ok := new(big.Rat).SetString(*v); ok && r.Sign() != 0 {
					return false
				}
			}
		}
	}
	return true
}

// metricOrder is the order in which an unusual change is named (the
// stores service's headline order).
var metricOrder = []string{"orders", "totalSales", "conversionRate", "sessions", "averageOrderValue", "returns"}

// change returns a metric's change in percent, and false when it has none.
func (m ReportMetric) change() (*big.Rat, bool) {
	if m.ChangePercent == nil {
		return nil, false
	}
	r, ok := new(big.Rat).SetString(*m.ChangePercent)
	return r, ok
}

// Movement says how an unusual metric moved, in words: "fell 75 %".
func (m ReportMetric) Movement() string {
	c, ok := m.change()
	if !ok {
		return ""
	}
	verb := "rose"
	if c.Sign() < 0 {
		verb = "fell"
	}
	abs := new(big.Rat).Abs(c)
	return fmt.Sprintf("%s %s %%", verb, abs.FloatString(0))
}

func byKey(ms []ReportMetric) map[string]ReportMetric {
	out := make(map[string]ReportMetric, len(ms))
	for _, m := range ms {
		out[m.Key] = m
	}
	return out
}

// ReportSummary is the subject's short summary of a report: the first
// unusual change ("orders fell 75 %"), else the day's sales on a usual day,
// else the day's sales and orders when there is nothing to compare with.
func ReportSummary(ms []ReportMetric, currency string) string {
	by := byKey(ms)
	for _, k := range metricOrder {
		if m, ok := by[k]; ok && m.Unusual && m.Movement() != "" {
			return strings.ToLower(m.Label[:1]) + m.Label[1:] + " " + m.Movement()
		}
	}
	sales := "no sales"
	if v := by["totalSales"].Value; v != nil {
		sales = money.Text(*v, currency) + " in sales"
	}
	for _, m := range ms {
		if m.ChangePercent != nil {
			return sales + ", a usual day"
		}
	}
	if o := by["orders"].Value; o != nil {
		return fmt.Sprintf("%s from %s %s", sales, *o, map[bool]string{true: "order", false: "orders"}[*o == "1"])
	}
	return sales
}

// Suggested actions, each picked from what moved.
const (
	ActionCheckout = "Orders fell while visits held steady, so fewer visitors bought: check your checkout. Place a test order and look at payment, shipping and discount codes."
	ActionTraffic  = "Fewer people visited: check your traffic sources (ads, email, social, search) for one that slowed down or stopped."
	ActionReturns  = "More goods came back than usual: check which products were returned and why, before they sell again."
	ActionFeature  = "Feature %s, yesterday's best seller, on your home page or in your next email or post."
	ActionLook     = "Open your analytics to see how the week is going."
)

// steadyPercent is the largest move that still counts as steady: below
// the smallest change the unusual rule would flag.
var steadyPercent = big.NewRat(15, 1)

// SuggestAction picks the one action a report suggests: orders (or the
// conversion rate) fell unusually with sessions steady → check checkout;
// sessions fell unusually → check traffic sources; returns rose unusually →
// check which products came back; otherwise feature the best seller.
func SuggestAction(ms []ReportMetric, bestSeller string) string {
	by := byKey(ms)
	fell := func(k string) bool {
		c, ok := by[k].change()
		return by[k].Unusual && ok && c.Sign() < 0
	}
	rose := func(k string) bool {
		c, ok := by[k].change()
		return by[k].Unusual && ok && c.Sign() > 0
	}
	steady := func(k string) bool {
		c, ok := by[k].change()
		return ok && new(big.Rat).Abs(c).Cmp(steadyPercent) < 0
	}
	switch {
	case (fell("orders") || fell("conversionRate")) && steady("sessions"):
		return ActionCheckout
	case fell("sessions"):
		return ActionTraffic
	case rose("returns"):
		return ActionReturns
	case bestSeller != "":
		return fmt.Sprintf(ActionFeature, bestSeller)
	}
	return ActionLook
}

// NoData is what the daily report of a store without store data says
// instead of numbers.
type NoData struct {
	// WebsiteStatus is "READY", "GENERATING", "FAILED" or "NO_WEBSITE".
	WebsiteStatus string `json:"websiteStatus"`
	// WebsiteScore and WebsiteBand are the last ready review's; nil/empty
	// when there was none.
	WebsiteScore *int   `json:"websiteScore,omitempty"`
	WebsiteBand  string `json:"websiteBand,omitempty"`
	OpenFindings int    `json:"openFindings,omitempty"`
	// OccasionName and OccasionDate (YYYY-MM-DD) are the next seasonal date.
	OccasionName string `json:"occasionName,omitempty"`
	OccasionDate string `json:"occasionDate,omitempty"`
}

// DailyReportWithoutData is the categories service's DailyReportReady for
// a store that has no store data yet.
type DailyReportWithoutData struct {
	CategoryID, OwnerUserID string
	StoreName, SiteURL      string
	Date                    string
	NoData                  NoData
	Idea                    *Idea
}

// NoDataSummary and NoDataHeadline are the subject's summary and the
// preheader of the daily report without data.
const (
	NoDataSummary  = "no sales data yet"
	NoDataHeadline = "Connect your store to see yesterday's sales, orders and visitors here each morning."
)

// NewDailyReportWithoutData is the daily report email of a store without
// data: one line saying so, leading to Connections, with the website's
// status, the next seasonal date and an idea. It is keyed like the report
// with data (category and day), so a store never gets both for one day.
func NewDailyReportWithoutData(r DailyReportWithoutData, to string) (Email, error) {
	if strings.TrimSpace(r.CategoryID) == "" || strings.TrimSpace(r.OwnerUserID) == "" {
		return Email{}, ErrMissingID
	}
	if _, err := time.Parse(time.DateOnly, r.Date); err != nil {
		return Email{}, fmt.Errorf("daily report date %q: %w", r.Date, ErrMissingID)
	}
	addr, err := ParseAddress(to)
	if err != nil {
		return Email{}, err
	}
	nd := r.NoData
	nd.WebsiteBand, nd.OccasionName = clip(nd.WebsiteBand), clip(nd.OccasionName)
	if _, err := time.Parse(time.DateOnly, nd.OccasionDate); err != nil {
		nd.OccasionName, nd.OccasionDate = "", ""
	}
	p := Params{CategoryID: r.CategoryID, StoreName: cleanName(r.StoreName), SiteURL: safeLink(r.SiteURL), Date: r.Date,
		Headline: NoDataHeadline, Summary: NoDataSummary, NoData: &nd}
	if i := r.Idea; i != nil && i.ID != "" && url.PathEscape(i.ID) == i.ID && strings.TrimSpace(i.Title) != "" {
		p.Ideas = []Idea{{ID: i.ID, Title: clip(i.Title), Channel: clip(i.Channel), WhyNow: clip(i.WhyNow)}}
	}
	return pending("daily-report:"+r.CategoryID+":"+r.Date, KindDailyReport, r.OwnerUserID, addr, p), nil
}
