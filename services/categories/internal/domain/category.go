// Package domain holds what the categories service knows about a store's
// business: its profile, website reviews, insights and campaign ideas, and
// the rules about them, with no I/O.
package domain

import (
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/google/uuid"

	"uplift.dev/platform/validation"
)

// Sentinel errors the transport maps to statuses.
var (
	ErrNotFound         = errors.New("category not found")
	ErrIdeaNotFound     = errors.New("idea not found")
	ErrPermissionDenied = errors.New("permission denied")
	// ErrNoProfile means the users service has no category for the caller yet.
	ErrNoProfile = errors.New("the caller has no profile yet")
	// ErrUnreadableSite is a website that cannot be read or is not a valid
	// address; people see UnreadableSiteMessage.
	ErrUnreadableSite = errors.New("website cannot be read")
	// ErrDigestTooSoon is a second AI digest request for a category within
	// DigestInterval; people see DigestTooSoonMessage.
	ErrDigestTooSoon = errors.New("an AI digest was requested less than a minute ago")
	// ErrWeeklyReviewOff: the business has no website or its weekly email is off.
	ErrWeeklyReviewOff = errors.New("no weekly review for this business")
	// ErrAlreadySent: the period's recurring email was already started.
	ErrAlreadySent = errors.New("this period's email was already started")
)

// DigestInterval is how long after an AI digest request another one for
// the same category sends nothing ("a second request within a minute
// sends nothing new and says so").
const DigestInterval = time.Minute

// DigestTooSoonMessage says why a second digest request was refused.
const DigestTooSoonMessage = "Your AI digest is already on its way. You can ask for another one in a minute."

// UnreadableSiteMessage is the spec's business-profile save failure (section 8),
// also used by the public website score.
const UnreadableSiteMessage = "Something went wrong. Please ensure the website url is properly formatted and try again."

// ValidationError is a client's mistake in one field: the platform's one
// type (validation.Error), so every service maps it to 400 the same way.
type ValidationError = validation.Error

// Bounds that keep stored text sane: the platform's, one per kind of field.
const (
	MaxLabelLength     = validation.MaxNameRunes
	maxShopifyIDLength = validation.MaxIDRunes
	maxSiteURLLength   = validation.MaxURLRunes
)

// Category is a store's business: the profile that personalises every
// review, insight and idea. Its id is the one the users service assigned.
type Category struct {
	ID                    string
	OwnerID               string
	Name                  string
	SiteURL               string // empty when no website is set
	AdditionalInfo        string // the summary read from the website
	DisableWeeklyEmail    bool
	DisableBusinessReport bool
	ShopifyCategoryID     string
	// TimeZone is the business's IANA time zone ("Europe/Paris"), empty
	// while unknown: from the browser at sign-up, changeable in the
	// business profile. The weekly website review follows it.
	TimeZone string
	// Competitors are up to MaxCompetitors competitor websites, reviewed
	// beside the store's own (an extension of the spec's profile).
	Competitors []string
	CreatedAt   time.Time
	// LastDigestRequestedAt is when the AI digest was last requested; zero
	// if never.
	LastDigestRequestedAt time.Time
}

// RequestDigest records an AI digest request at now, or refuses it with
// ErrDigestTooSoon within DigestInterval of the last one.
func (c *Category) RequestDigest(now time.Time) error {
	if !c.LastDigestRequestedAt.IsZero() && now.Sub(c.LastDigestRequestedAt) < DigestInterval {
		return ErrDigestTooSoon
	}
	c.LastDigestRequestedAt = now
	return nil
}

// AnnouncedChange reports whether a change from before to after is one
// other services hear of (CategoryUpdated): the name, the website or an
// email switch. The digest service keeps these for its emails.
func AnnouncedChange(before, after Category) bool {
	return before.Name != after.Name || before.SiteURL != after.SiteURL ||
		before.DisableWeeklyEmail != after.DisableWeeklyEmail || before.DisableBusinessReport != after.DisableBusinessReport ||
		before.TimeZone != after.TimeZone
}

// DigestRequest is what the AI digest email shows, read from the
// category's own data when it is requested.
type DigestRequest struct {
	// RequestedBy is the user who asked (the owner or an uplifter).
	RequestedBy string
	Insights    []Insight
	Ideas       []Idea
}

// Caller is who is asking, as the auth interceptor verified it.
type Caller struct {
	UID      string
	Uplifter bool
	// Admin may run operator actions (a recurring email ahead of its hour).
	Admin bool
}

// CanAccess reports whether the caller may read and change c: its owner, or
// an uplifter acting on the owner's behalf.
func (c Caller) CanAccess(cat Category) bool {
	return c.Uplifter || (c.UID != "" && c.UID == cat.OwnerID)
}

// ValidateCategoryID checks an id from a path: the users service assigns
// UUIDs, so anything else can never name a category.
func ValidateCategoryID(id string) error {
	if uuid.Validate(id) != nil {
		return &ValidationError{Field: "categoryId", Message: "categoryId is not a valid id."}
	}
	return nil
}

// ValidateIdeaID checks an idea id from a path.
func ValidateIdeaID(id string) error {
	if uuid.Validate(id) != nil {
		return &ValidationError{Field: "ideaId", Message: "ideaId is not a valid id."}
	}
	return nil
}

// NormalizeLabel trims a business name and checks it is 1–100 printable
// characters, so it fits every screen and email it appears in.
func NormalizeLabel(name string) (string, error) {
	name = strings.TrimSpace(name)
	n := utf8.RuneCountInString(name)
	switch {
	case n == 0:
		return "", &ValidationError{Field: "name", Message: "Please enter a business name."}
	case n > MaxLabelLength:
		return "", &ValidationError{Field: "name", Message: fmt.Sprintf("The business name must be at most %d characters.", MaxLabelLength)}
	case !utf8.ValidString(name) || strings.ContainsFunc(name, unicode.IsControl):
		return "", &ValidationError{Field: "name", Message: "The business name contains characters that are not allowed."}
	}
	return name, nil
}

// NormalizeShopifyID checks a Shopify category id remembered by the web.
func NormalizeShopifyID(id string) (string, error) {
	id = strings.TrimSpace(id)
	if len(id) > maxShopifyIDLength || strings.ContainsFunc(id, unicode.IsControl) {
		return "", &ValidationError{Field: "shopifyCategoryId", Message: "shopifyCategoryId is not a valid id."}
	}
	return id, nil
}

// CheckSiteURLInput refuses absurd input before any parsing or network work.
func CheckSiteURLInput(raw string) error {
	if len(raw) > maxSiteURLLength {
		return ErrUnreadableSite
	}
	return nil
}

// Effects are what a change to a category sets off; the repository applies
// them in the change's transaction, so a saved website always has its review
// requested and nothing is requested for a change that was rolled back.
type Effects struct {
	// NewReport starts a review: the report is stored GENERATING and
	// ReviewRequested is published.
	NewReport *Report
	// InvalidateIdeas marks every current campaign idea of the category as
	// stale (each still opens by id). New ones follow from each source: the
	// website review's from the review NewReport starts, and the store's
	// current ideas are issued again at once under new ids, since the
	// numbers they come from have not changed.
	InvalidateIdeas bool
	// Digest, when set, publishes DigestRequested with what the email shows.
	Digest *DigestRequest
	// Announce publishes CategoryUpdated with the category as saved: it was
	// created, or its name, website or an email switch changed.
	Announce bool
	// OnBehalf, when set, writes an audit row: the change was made by
	// someone other than the owner (an uplifter acting on their behalf).
	OnBehalf *AuditEntry
}

// AuditEntry is one change made on a store owner's behalf: who did it, as
// whom, and what. The repository stamps the time.
type AuditEntry struct {
	ActorID string
	OwnerID string
	Action  string
}

// Audit returns the entry for action on cat by caller, or nil when the caller
// is the owner: only acting on behalf is logged, so an owner can see
// what an uplifter did in their name without wading through their own acts.
func (c Caller) Audit(cat Category, action string) *AuditEntry {
	if c.UID == cat.OwnerID {
		return nil
	}
	return &AuditEntry{ActorID: c.UID, OwnerID: cat.OwnerID, Action: action}
}

// SetSite applies a (normalized) website to c: an empty one clears the site
// and its summary. It reports whether the site changed, in which case the
// old ideas no longer fit the store.
func (c *Category) SetSite(site string) bool {
	if site == c.SiteURL {
		return false
	}
	c.SiteURL = site
	if site == "" {
		c.AdditionalInfo = ""
	}
	return true
}
