package domain

import (
	"fmt"
	"time"
)

// FreeTier is the tier everyone has until billing says otherwise.
const FreeTier = "free"

// FreeDownloadsPerMonth is how many results the free plan downloads in a
// calendar month (UTC).
const FreeDownloadsPerMonth = 3

// FreeJobsPerMonth is how many tools (background removals, studio images,
// preset sets, touch-ups) the free plan runs in a calendar month (UTC):
// enough to try every tool on a few photos, not to run a catalogue
// through the model for free.
const FreeJobsPerMonth = 30

// MaxOpenJobs is how many of one store's jobs may wait or run at once, on
// any plan: the queue is shared, and one store must not fill it.
const MaxOpenJobs = 10

// Plan is what the studio knows of a category owner's billing, fed by the
// billing service's BillingChanged events.
type Plan struct {
	Tier          string
	IsManuallySet bool
}

// Entitlement is what a plan may do in the studio. It is decided here, in
// one place, from the tier alone.
type Entitlement struct {
	Tier string
	// Paid plans download without limit, at full resolution, with no
	// watermark.
	Paid bool
	// DownloadsPerMonth is the monthly download allowance; -1 is unlimited.
	DownloadsPerMonth int
	// JobsPerMonth is the monthly allowance of tool runs; -1 is unlimited.
	JobsPerMonth int
	// Beta lists the beta features this plan has early access to.
	Beta []string
}

// Beta features, each on for the tiers BetaTiers names. Paid plans get them
// first: this is what "Early access to new AI features" on the Pro plan's
// list gives.
const (
	// BetaHoleRecovery clears the backdrop showing through a product's
	// holes (a mug's handle, a ring) that the model filled in
	// (pipeline.RecoverHoles).
	BetaHoleRecovery = "hole-recovery"
)

// BetaTiers is the feature flag per tier: a beta feature is on for a tier
// listed here. Any tier other than free counts as paid and is listed via
// the "*paid" entry. A feature joins the table when it is built (the ad
// creator and competitor comparison are not), so a plan never lists
// something it does not have.
var BetaTiers = map[string][]string{
	BetaHoleRecovery: {"*paid"},
}

// EntitlementFor returns what tier may do. Unknown tiers other than free
// are paid tiers (billing owns the list; a new paid tier must not lose
// what Pro has).
func EntitlementFor(tier string) Entitlement {
	if tier == "" {
		tier = FreeTier
	}
	e := Entitlement{Tier: tier, Paid: tier != FreeTier, DownloadsPerMonth: -1, JobsPerMonth: -1}
	if !e.Paid {
		e.DownloadsPerMonth = FreeDownloadsPerMonth
		e.JobsPerMonth = FreeJobsPerMonth
	}
	for feature, tiers := range BetaTiers {
		for _, t := range tiers {
			if t == tier || (t == "*paid" && e.Paid) {
				e.Beta = append(e.Beta, feature)
			}
		}
	}
	return e
}

// HasBeta reports whether the plan has early access to feature.
func (e Entitlement) HasBeta(feature string) bool {
	for _, f := range e.Beta {
		if f == feature {
			return true
		}
	}
	return false
}

// MonthOf is the calendar month (UTC) a download counts in, as "2006-01".
func MonthOf(t time.Time) string { return t.UTC().Format("2006-01") }

// CheckDownload decides whether a download may happen given how many
// results were downloaded this month already (used) and whether this very
// result was downloaded before (a repeat never counts twice).
func (e Entitlement) CheckDownload(used int, repeat bool) error {
	if e.DownloadsPerMonth < 0 || repeat || used < e.DownloadsPerMonth {
		return nil
	}
	return &LimitError{Message: fmt.Sprintf(
		"The free plan includes %d downloads a month, and you have used them. Upgrade to Pro for unlimited downloads at full resolution.",
		e.DownloadsPerMonth)}
}

// DownloadsLeft is what the plan has left this month; -1 is unlimited.
func (e Entitlement) DownloadsLeft(used int) int {
	if e.DownloadsPerMonth < 0 {
		return -1
	}
	return max(0, e.DownloadsPerMonth-used)
}

// CheckJob decides whether a tool may be queued given this month's tool
// runs (used) and the store's jobs waiting or running (open).
func (e Entitlement) CheckJob(used, open int) error {
	if open >= MaxOpenJobs {
		return &LimitError{Message: fmt.Sprintf(
			"You have %d images being made already. Wait for one to finish, then try again.", open)}
	}
	if e.JobsPerMonth >= 0 && used >= e.JobsPerMonth {
		return &LimitError{Message: fmt.Sprintf(
			"The free plan includes %d tool runs a month, and you have used them. Upgrade to Pro to make images without limit.",
			e.JobsPerMonth)}
	}
	return nil
}

// JobsLeft is what the plan has left of its tool runs this month; -1 is
// unlimited.
func (e Entitlement) JobsLeft(used int) int {
	if e.JobsPerMonth < 0 {
		return -1
	}
	return max(0, e.JobsPerMonth-used)
}
