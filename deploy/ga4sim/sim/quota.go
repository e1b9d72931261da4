package sim

import (
	"fmt"
	"time"
)

// A standard (not 360) property's core quotas.
const (
	tokensPerDay            = 200000
	tokensPerHour           = 40000
	tokensPerProjectPerHour = 14000
	concurrentRequests      = 10
	serverErrorsPerHour     = 10
	thresholdedPerHour      = 120
)

// pacific is where GA4's daily quotas reset at midnight.
var pacific = mustZone("America/Los_Angeles")

func mustZone(name string) *time.Location {
	l, err := time.LoadLocation(name)
	if err != nil {
		panic(err)
	}
	return l
}

// quota is one property's token use in the current day and hour. The sim has
// one client project, so the per-project hourly quota counts the same
// tokens against its lower limit.
type quota struct {
	day, hour           string
	dayUsed, hourUsed   int64
	thresholdedThisHour int64
	exhausted           string // set by the control API: the quota to report as spent until its window rolls over
}

// roll starts a new window when the day (Pacific) or the hour has changed.
func (q *quota) roll(now time.Time) {
	d, h := now.In(pacific).Format(time.DateOnly), now.UTC().Format("2006-01-02T15")
	if q.day != d {
		q.day, q.dayUsed = d, 0
		if q.exhausted == "tokensPerDay" {
			q.exhausted = ""
		}
	}
	if q.hour != h {
		q.hour, q.hourUsed, q.thresholdedThisHour = h, 0, 0
		if q.exhausted != "" && q.exhausted != "tokensPerDay" {
			q.exhausted = ""
		}
	}
}

// Quota names the control API can exhaust, as propertyQuota names them.
var quotaNames = []string{"tokensPerDay", "tokensPerHour", "tokensPerProjectPerHour", "potentiallyThresholdedRequestsPerHour"}

// spent returns the message of the first exhausted quota, "" when none is.
func (q *quota) spent() string {
	switch {
	case q.exhausted == "tokensPerDay" || q.dayUsed >= tokensPerDay:
		return "Exhausted property tokens per day quota. These quota tokens will return in under 24 hours."
	case q.exhausted == "tokensPerHour" || q.hourUsed >= tokensPerHour:
		return "Exhausted property tokens per hour quota. These quota tokens will return in under an hour."
	case q.exhausted == "tokensPerProjectPerHour" || q.hourUsed >= tokensPerProjectPerHour:
		return "Exhausted property tokens for a project per hour. These quota tokens will return in under an hour."
	case q.exhausted == "potentiallyThresholdedRequestsPerHour" || q.thresholdedThisHour >= thresholdedPerHour:
		return "Exhausted potentially thresholded requests per hour quota. These requests will return in under an hour."
	}
	return ""
}

func (q *quota) exhaust(name string) error {
	for _, n := range quotaNames {
		if n == name {
			q.exhausted = name
			switch name {
			case "tokensPerDay":
				q.dayUsed = tokensPerDay
			case "tokensPerHour":
				q.hourUsed = tokensPerHour
			case "tokensPerProjectPerHour":
				q.hourUsed = max(q.hourUsed, tokensPerProjectPerHour)
			default:
				q.thresholdedThisHour = thresholdedPerHour
			}
			return nil
		}
	}
	return fmt.Errorf("%w: quota must be one of %v", ErrInvalid, quotaNames)
}

// cost is the sim's token price of a report: most reports cost under 10,
// growing with the days spanned, the columns and the rows, as Google's does.
func reportCost(days, columns, rows int) int64 {
	return int64(1 + days/31 + columns/4 + rows/500)
}

// status is one QuotaStatus: what this request consumed and what is left after it.
func status(consumed, used, limit int64) map[string]int64 {
	return map[string]int64{"consumed": consumed, "remaining": max(limit-used, 0)}
}

// report is the response's propertyQuota after a request that cost tokens
// and, when thresholded, counted against the thresholded-requests quota.
func (q *quota) report(tokens int64, thresholded bool) map[string]any {
	var th int64
	if thresholded {
		th = 1
	}
	return map[string]any{
		"tokensPerDay":                          status(tokens, q.dayUsed, tokensPerDay),
		"tokensPerHour":                         status(tokens, q.hourUsed, tokensPerHour),
		"tokensPerProjectPerHour":               status(tokens, q.hourUsed, tokensPerProjectPerHour),
		"concurrentRequests":                    status(0, 0, concurrentRequests),
		"serverErrorsPerProjectPerHour":         status(0, 0, serverErrorsPerHour),
		"potentiallyThresholdedRequestsPerHour": status(th, q.thresholdedThisHour, thresholdedPerHour),
	}
}
