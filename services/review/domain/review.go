// Package domain is the website review's vocabulary: a review's score,
// checks, findings and speed, the insights and campaign ideas written from
// it, and the rules about them, with no I/O. It is public (not internal)
// because the categories service still links the engine in-process and
// stores these types in its reports; once the engine is reached only over
// the review service's events and RPCs, this becomes internal.
package domain

import "time"

// Score thresholds from the spec (section 9). A score at or above a
// threshold reaches that band.
const (
	ScoreLow  = 5
	ScoreMed  = 30
	ScoreHigh = 70
)

// Band names a score's range for people.
type Band string

// The bands, lowest first.
const (
	BandPoor   Band = "poor"   // below ScoreLow
	BandLow    Band = "low"    // ScoreLow up to ScoreMed
	BandMedium Band = "medium" // ScoreMed up to ScoreHigh
	BandHigh   Band = "high"   // ScoreHigh and above
)

// BandOf returns the band a 0–100 score falls in.
func BandOf(score int) Band {
	switch {
	case score >= ScoreHigh:
		return BandHigh
	case score >= ScoreMed:
		return BandMedium
	case score >= ScoreLow:
		return BandLow
	}
	return BandPoor
}

// Check groups of the website review.
const (
	GroupSearch     = "search"
	GroupSpeed      = "speed"
	GroupMobile     = "mobile"
	GroupTrust      = "trust"
	GroupConversion = "conversion"
)

// Finding states compared with the previous review.
const (
	StateNew   = "new"
	StateOpen  = "open"
	StateFixed = "fixed"
)

// Finding is one failed (or newly fixed) check of a review.
type Finding struct {
	ID         string // stable per check and element, so reviews can be compared
	Group      string
	Check      string // the check's id, e.g. "meta-description"
	Title      string
	URL        string // the page the finding is about
	Element    string // the element or resource, e.g. `<img src="/hero.jpg">`
	Why        string // why it matters
	Fix        string // the exact fix
	PointsLost int    // this finding's share of the lost score
	State      string
	// Places are every page or resource the same issue was found on, the
	// first being URL and Element, when there is more than one: a review
	// shows one finding per issue, not one per page. Each place has its
	// own fix when it needs one (a meta description written for that
	// page); Fix then says what to do on all of them.
	Places []Place `json:",omitempty"`
}

// Place is one page or resource a finding is about.
type Place struct {
	URL     string
	Element string
	Fix     string // "" when the finding's Fix is the whole fix
}

// CheckResult is one check's outcome, so a reader sees where every point went.
type CheckResult struct {
	Check  string
	Group  string
	Weight int // points the check is worth; all weights sum to 100
	Earned int // points earned, 0..Weight
	// Lighthouse is the Lighthouse SEO audit this check reaches a verdict
	// on, with that verdict, on Lighthouse's own criterion; nil for checks
	// Lighthouse has no audit for.
	Lighthouse *AuditVerdict `json:",omitempty"`
}

// AuditVerdict is a Lighthouse audit's pass or fail on the reviewed page.
type AuditVerdict struct {
	Audit string
	Pass  bool
}

// Review is one website review.
type Review struct {
	SiteURL  string
	Score    int
	Checks   []CheckResult
	Findings []Finding // each loses points
	// Notes are true of the site but cost nothing (the check's points are
	// already spent), kept apart so findings stay a list of what to fix.
	Notes []Finding `json:",omitempty"`
	// Speed is the home page measured in a real browser; nil when the
	// review was made without one (the public score, or a service that
	// reviews without the worker).
	Speed *Speed `json:",omitempty"`
	// Competitors are the business's competitor websites reviewed the
	// same way when this review ran, each with where it does better.
	Competitors []CompetitorReview `json:",omitempty"`
}

// Insight is a short, specific observation with the evidence behind it.
type Insight struct {
	ID       string
	Text     string
	Evidence string
}

// Idea is a campaign idea grounded in the store: in its website (the
// review's ideas) or in its own numbers (the store's ideas, see StoreIdeas).
type Idea struct {
	ID string
	// Topic is what a store idea is about ("best-seller:Trail Mug"); empty
	// for the website review's ideas. It is not shown: the API's ideas
	// look alike whichever source wrote them.
	Topic       string
	Title       string
	WhyNow      string
	Channel     string
	SubjectLine string
	Body        string
	Products    []string
	Timing      string
	CreatedAt   time.Time
}

// Analysis is everything one read of a store's website produces.
type Analysis struct {
	Summary  string
	Review   Review
	Insights []Insight
	Ideas    []Idea
}
