package domain

import review "uplift.dev/review/domain"

// A report holds the review service's review as the engine wrote it: these
// are the review's own types, named here so the rest of categories reads
// one domain. They become categories' own types when reviews arrive as
// events rather than from the linked engine.
type (
	Band             = review.Band
	Finding          = review.Finding
	Place            = review.Place
	CheckResult      = review.CheckResult
	Review           = review.Review
	Insight          = review.Insight
	Idea             = review.Idea
	Analysis         = review.Analysis
	Speed            = review.Speed
	SiteProblem      = review.SiteProblem
	CompetitorReview = review.CompetitorReview
)

// The review's bands, groups, finding states and site problems.
const (
	BandMedium = review.BandMedium

	GroupSearch     = review.GroupSearch
	GroupSpeed      = review.GroupSpeed
	GroupMobile     = review.GroupMobile
	GroupTrust      = review.GroupTrust
	GroupConversion = review.GroupConversion

	StateNew   = review.StateNew
	StateOpen  = review.StateOpen
	StateFixed = review.StateFixed

	SiteUnreadable = review.SiteUnreadable
	SiteNotFound   = review.SiteNotFound
	SitePrivate    = review.SitePrivate

	SpeedNoBrowser = review.SpeedNoBrowser
)

// BandOf returns the band a 0–100 score falls in (review.BandOf).
func BandOf(score int) Band { return review.BandOf(score) }

// NormalizeSiteURL is the one canonical form of a website address, the
// review's (review.NormalizeSiteURL), so a profile stores a site under the
// address the engine reads.
func NormalizeSiteURL(raw string) (string, error) { return review.NormalizeSiteURL(raw) }

// CompareCompetitor is the competitor's review set beside the store's own
// (review.CompareCompetitor).
func CompareCompetitor(siteURL string, own, theirs Review) CompetitorReview {
	return review.CompareCompetitor(siteURL, own, theirs)
}
