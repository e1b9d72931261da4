package domain

import "time"

// ReportStatus is where a report is in its life.
type ReportStatus string

// Report statuses. NoWebsite is never stored: it is what the current report
// says when the category has no website to review.
const (
	StatusGenerating ReportStatus = "GENERATING"
	StatusReady      ReportStatus = "READY"
	StatusFailed     ReportStatus = "FAILED"
	StatusNoWebsite  ReportStatus = "NO_WEBSITE"
)

// EventName is the status as report_updated events carry it: the API's
// ReportStatus enum name, so a listener on the bus and a client of the API
// read one vocabulary (the gRPC port's test holds the two together).
func (s ReportStatus) EventName() string {
	switch s {
	case StatusGenerating, StatusReady, StatusFailed, StatusNoWebsite:
		return "REPORT_STATUS_" + string(s)
	}
	return "REPORT_STATUS_UNSPECIFIED"
}

// Report is one review run of a category's website and what it produced.
type Report struct {
	ID         string
	CategoryID string
	SiteURL    string
	Status     ReportStatus
	Progress   int    // 0–100 while generating
	Step       string // what a generating report is doing now
	Summary    string
	Review     *Review // set once READY
	Error      string  // why a FAILED report failed, for people
	Insights   []Insight
	Ideas      []Idea
	CreatedAt  time.Time
	// Week is the store-local Monday (YYYY-MM-DD) of a weekly re-review,
	// empty for a review a person started.
	Week string
}

// UnderWayFor reports whether r is a review of site that has not finished:
// asking for a review of that site again adopts it instead of starting a
// second one (a website save starts one, and the spec's client then asks
// for new ideas; the weekly schedule may find the owner's save under way).
func (r *Report) UnderWayFor(site string) bool {
	return r != nil && r.Status == StatusGenerating && site != "" && r.SiteURL == site
}

// ClampProgress keeps a reported percentage in 0–100, so a misbehaving
// analyser can never show a bar past its end.
func ClampProgress(pct int) int {
	return max(0, min(100, pct))
}

// TopIdeas is how many ideas the current report carries.
const TopIdeas = 3

// RecentIdeasLimit bounds the recent-ideas list.
const RecentIdeasLimit = 20

// WithPreviousContent fills a generating or failed report of the same website
// with the last ready report's review, so the Home page keeps showing it
// while a new one is made.
func (r Report) WithPreviousContent(prev *Report) Report {
	if prev == nil || r.Status == StatusReady || prev.Status != StatusReady || prev.SiteURL != r.SiteURL {
		return r
	}
	r.Review, r.Summary, r.Insights = prev.Review, prev.Summary, prev.Insights
	if len(r.Ideas) == 0 {
		r.Ideas = prev.Ideas
	}
	return r
}

// Shown is the report Home shows while r is the newest and not ready: a
// scheduled re-run (a weekly review, which nobody on the page asked for)
// keeps the last ready review of the same site on screen as it is, score
// and all, until it is done, so the page never goes back to "reviewing"
// on a Monday morning; a review the owner started shows its progress with
// the last review's content (WithPreviousContent).
func (r Report) Shown(lastReady *Report) Report {
	if r.Status == StatusGenerating && r.Week != "" && lastReady != nil && lastReady.Status == StatusReady &&
		lastReady.SiteURL == r.SiteURL {
		return *lastReady
	}
	return r.WithPreviousContent(lastReady)
}

// FailureMessage is what people read when a review could not be made; the
// technical cause goes to the log only.
const FailureMessage = "We could not read your website to review it. Please check that it is online and try again."

// SupersededMessage marks a review replaced by a newer one before it finished.
const SupersededMessage = "A newer review replaced this one."
