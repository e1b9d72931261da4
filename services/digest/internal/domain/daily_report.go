package domain

import (
	"errors"
	"fmt"
	"math/big"
	"net/url"
	"strings"
	"time"
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
	// Summary (the subject's few words) and Action (the one suggested
	// action) are the stores service's, which writes every sentence of the
	// report from its numbers: the email shows them as Home does.
	Summary, Action string
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
	p.Summary, p.Action = clip(r.Summary), clip(r.Action)
	if p.Summary == "" {
		p.Summary = reportSummaryFallback
	}
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

// reportSummaryFallback is the subject's summary of a report published
// before reports carried their own.
const reportSummaryFallback = "your daily business report"

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
