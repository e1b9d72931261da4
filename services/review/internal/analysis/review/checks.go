// Package review runs the website review's one check table over a site
// and explains every lost point with the exact fix.
package review

import (
	"uplift.dev/review/domain"
	"uplift.dev/review/internal/analysis/page"
	"uplift.dev/review/internal/analysis/site"
)

// Check ids of the website review.
const (
	CheckTitle          = "title"
	CheckTitleLength    = "title-length"
	CheckMetaDesc       = "meta-description"
	CheckMetaDescLength = "meta-description-length"
	CheckHeadings       = "headings"
	CheckCanonical      = "canonical"
	CheckImageAlt       = "image-alt"
	CheckStructuredData = "structured-data"
	CheckSitemapRobots  = "sitemap-robots"
	CheckOpenGraph      = "open-graph"
	CheckLinkText       = "link-text"
	CheckCrawlable      = "crawlable-anchors"
	CheckIndexable      = "is-crawlable"
	CheckHreflang       = "hreflang"
	CheckHTTPStatus     = "http-status-code"
	CheckPageWeight     = "page-weight"
	CheckImageWeight    = "image-weight"
	CheckRenderBlocking = "render-blocking"
	CheckCompression    = "compression"
	CheckCaching        = "caching"
	CheckViewport       = "viewport"
	CheckHTTPS          = "https"
	CheckContact        = "contact-page"
	CheckReturns        = "returns-page"
	CheckShipping       = "shipping-page"
	CheckPrivacy        = "privacy-page"
	CheckAddToCart      = "add-to-cart"
	CheckReviews        = "reviews"
	CheckEmailCapture   = "email-capture"
)

// CheckName is a check's name for people (domain.CheckName, which
// categories shows too); an id the table does not know is given back as it is.
func CheckName(id string) string { return domain.CheckName(id) }

// Check is one row of the review's only check table: what it is called,
// which group it counts in, the points it is worth, how it runs, and, for
// a check that matches one of Lighthouse's SEO audits, that audit's id and
// its criterion applied to one page.
type Check struct {
	ID     string
	Group  string
	Points int
	Audit  string // Lighthouse SEO audit id, "" when Lighthouse has none
	run    func(r *reviewer) []draft
	audit  func(p *page.Page, s *site.Site) bool
}

// passes applies the check's Lighthouse criterion to p.
func (c Check) passes(p *page.Page, s *site.Site) bool {
	if c.audit == nil {
		return true
	}
	return c.audit(p, s)
}

// Checks is the published scoring table: a review's score is the sum of the
// points earned on each check, and the points sum to 100, so a store owner
// can see exactly where every lost point went. Changing a weight changes
// every store's score; do it deliberately and update the tests.
//
// The checks that match a Lighthouse SEO audit lose their points on
// Lighthouse's criterion. Where the review is stricter than Lighthouse (a
// title that is long, a description that is short, a page without any
// canonical link), that is a separate, smaller check or a note, never the
// same penalty as a missing tag.
var Checks = []Check{
	{CheckTitle, domain.GroupSearch, 5, "document-title", (*reviewer).title, auditTitle},
	{CheckTitleLength, domain.GroupSearch, 2, "", (*reviewer).titleLength, nil},
	{CheckMetaDesc, domain.GroupSearch, 4, "meta-description", (*reviewer).metaDesc, auditMetaDesc},
	{CheckMetaDescLength, domain.GroupSearch, 1, "", (*reviewer).metaDescLength, nil},
	{CheckHeadings, domain.GroupSearch, 3, "", (*reviewer).headings, nil},
	{CheckCanonical, domain.GroupSearch, 2, "canonical", (*reviewer).canonical, auditCanonical},
	{CheckImageAlt, domain.GroupSearch, 3, "image-alt", (*reviewer).imageAlt, auditImageAlt},
	{CheckStructuredData, domain.GroupSearch, 4, "", (*reviewer).structuredData, nil},
	{CheckSitemapRobots, domain.GroupSearch, 2, "", (*reviewer).sitemapRobots, nil},
	{CheckOpenGraph, domain.GroupSearch, 2, "", (*reviewer).openGraph, nil},
	{CheckLinkText, domain.GroupSearch, 2, "link-text", (*reviewer).linkText, auditLinkText},
	{CheckCrawlable, domain.GroupSearch, 2, "crawlable-anchors", (*reviewer).crawlableAnchors, auditCrawlableAnchors},
	{CheckIndexable, domain.GroupSearch, 4, "is-crawlable", (*reviewer).indexable, auditIndexable},
	{CheckHreflang, domain.GroupSearch, 1, "hreflang", (*reviewer).hreflang, auditHreflang},
	{CheckHTTPStatus, domain.GroupSearch, 2, "http-status-code", (*reviewer).httpStatus, auditHTTPStatus},
	{CheckPageWeight, domain.GroupSpeed, 4, "", (*reviewer).pageWeight, nil},
	{CheckImageWeight, domain.GroupSpeed, 4, "", (*reviewer).imageWeight, nil},
	{CheckRenderBlocking, domain.GroupSpeed, 5, "", (*reviewer).renderBlocking, nil},
	{CheckCompression, domain.GroupSpeed, 3, "", (*reviewer).compression, nil},
	{CheckCaching, domain.GroupSpeed, 3, "", (*reviewer).caching, nil},
	{CheckViewport, domain.GroupMobile, 7, "", (*reviewer).viewport, nil},
	{CheckHTTPS, domain.GroupTrust, 8, "", (*reviewer).https, nil},
	{CheckContact, domain.GroupTrust, 3, "", func(r *reviewer) []draft { return r.trustPage(page.KindContact) }, nil},
	{CheckReturns, domain.GroupTrust, 3, "", func(r *reviewer) []draft { return r.trustPage(page.KindReturns) }, nil},
	{CheckShipping, domain.GroupTrust, 3, "", func(r *reviewer) []draft { return r.trustPage(page.KindShipping) }, nil},
	{CheckPrivacy, domain.GroupTrust, 3, "", func(r *reviewer) []draft { return r.trustPage(page.KindPrivacy) }, nil},
	{CheckAddToCart, domain.GroupConversion, 6, "", (*reviewer).addToCart, nil},
	{CheckReviews, domain.GroupConversion, 4, "", (*reviewer).reviews, nil},
	{CheckEmailCapture, domain.GroupConversion, 5, "", (*reviewer).emailCapture, nil},
}
