package domain

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"uplift.dev/platform/schedule"
)

// WeeklyReviewSlot is when a store's website is reviewed afresh each week:
// Monday from 08:00 on the store's wall clock (an hour after the daily
// report), by the same rule that schedules the daily report.
var WeeklyReviewSlot = schedule.Weekly(time.Monday, 8)

// WeeklyReviewCandidate is a category the weekly review may be due for.
type WeeklyReviewCandidate struct {
	CategoryID string
	// TimeZone is the business's, StoreTimeZone the store's (see
	// ScheduleLocation for which counts).
	TimeZone, StoreTimeZone string
	// LastWeek is the newest week already started, zero when none.
	LastWeek schedule.Date
	// FirstReviewAt is when the business's first review was asked for
	// (its website save), zero when there was none yet.
	FirstReviewAt time.Time
}

// Due says whether the weekly review of c is due at now, and for which
// week (its store-local Monday). A first review is not a weekly review:
// the week the first review was made in counts as reviewed, so the first
// weekly email comes the Monday after it and compares with it ("since
// last week" then means the week before), never minutes after sign-up.
func (c WeeklyReviewCandidate) Due(now time.Time) (schedule.Date, bool) {
	loc := ScheduleLocation(c.TimeZone, c.StoreTimeZone)
	last := c.LastWeek
	// A first review after now does not exist yet as of now (a clock set
	// back, a stack run as of another day).
	if !c.FirstReviewAt.IsZero() && !c.FirstReviewAt.After(now) {
		if first := WeeklyReviewSlot.Period(c.FirstReviewAt, loc); last.IsZero() || last.Before(first) {
			last = first
		}
	}
	return WeeklyReviewSlot.Due(now, loc, last)
}

// TopFixes is how many fixes the weekly email lists.
const TopFixes = 3

// WeeklyReview is what the weekly website review email shows: this week's
// review against the last one.
type WeeklyReview struct {
	CategoryID, OwnerID, StoreName, SiteURL, ReportID string
	Week                                              string
	Score                                             int
	Band                                              Band
	// PreviousScore is the last review's score, nil when there was none.
	PreviousScore          *int
	New, Fixed, Open, Tops []Finding
	// Idea is the campaign idea for the coming week; the repository sets
	// its id when it stores the ideas.
	Idea *Idea
	// Failure, when set, says why the website could not be read this week
	// (in words for its owner): the email then says so, what to do, and
	// the last known score (PreviousScore) instead of a new one.
	Failure string
	// First marks the business's first review: its email is "Your first
	// website review is ready", not a weekly one (see FirstReview).
	First bool
}

// FirstReview is the email of a business's first review, w made from the
// review that became its first ready one: nothing to compare with (a
// first review has no "last week"), dated by the week it was made in
// (at, on the store's calendar) so the email can name its day.
func FirstReview(w WeeklyReview, at time.Time, loc *time.Location) WeeklyReview {
	w.First, w.PreviousScore, w.Fixed = true, nil, nil
	// Against nothing, every finding is simply open, not "new this week".
	w.Open, w.New = append(append([]Finding(nil), w.New...), w.Open...), nil
	w.Week = WeeklyReviewSlot.Period(at, loc).String()
	return w
}

// UnreadableError is a website the engine could not read, with why in
// words for its owner ("it did not answer within 60 seconds").
type UnreadableError struct {
	Reason string
	// Problem is which kind of failure it was, for the sentence the
	// business profile shows under the website (SiteRefusedMessage).
	Problem SiteProblem
	Err     error
}

func (e *UnreadableError) Error() string { return "website cannot be read: " + e.Err.Error() }
func (e *UnreadableError) Unwrap() error { return e.Err }

// UnknownReason is why a site could not be read when the engine did not say.
const UnknownReason = "it could not be read"

// NewWeeklyFailure is the weekly email of a week whose fresh review could
// not read cat's website: why (reason, UnknownReason when empty) and the
// last review of the same site (previous, nil when none), so the owner is
// not left wondering where this week's email went.
func NewWeeklyFailure(cat Category, reportID, week, reason string, previous *Review) WeeklyReview {
	if strings.TrimSpace(reason) == "" {
		reason = UnknownReason
	}
	w := WeeklyReview{CategoryID: cat.ID, OwnerID: cat.OwnerID, StoreName: cat.Name, SiteURL: cat.SiteURL,
		ReportID: reportID, Week: week, Failure: reason}
	if previous != nil {
		s := previous.Score
		w.PreviousScore = &s
		w.Band = BandOf(s)
	}
	return w
}

// NewWeeklyReview compares a fresh review of cat's website with the
// previous one (nil when none) for the email of week: findings by state
// (the engine marks each new, open or fixed against previous), and the
// open ones worth the most points first, each with its exact fix.
func NewWeeklyReview(cat Category, reportID, week string, a Analysis, previous *Review) WeeklyReview {
	w := WeeklyReview{CategoryID: cat.ID, OwnerID: cat.OwnerID, StoreName: cat.Name, SiteURL: cat.SiteURL,
		ReportID: reportID, Week: week, Score: a.Review.Score, Band: BandOf(a.Review.Score)}
	if previous != nil {
		s := previous.Score
		w.PreviousScore = &s
	}
	for _, f := range a.Review.Findings {
		switch f.State {
		case StateFixed:
			w.Fixed = append(w.Fixed, f)
		case StateNew:
			w.New = append(w.New, f)
			w.Tops = append(w.Tops, f)
		default:
			w.Open = append(w.Open, f)
			w.Tops = append(w.Tops, f)
		}
	}
	// Worth the most points first; equal ones in the engine's order.
	slices.SortStableFunc(w.Tops, func(x, y Finding) int { return cmp.Compare(y.PointsLost, x.PointsLost) })
	w.Tops = w.Tops[:min(len(w.Tops), TopFixes)]
	for _, i := range a.Ideas {
		if strings.TrimSpace(i.Title) != "" {
			idea := i
			w.Idea = &idea
			break
		}
	}
	return w
}

// NormalizeTimeZone checks an IANA time zone name as a browser reports it
// ("Europe/Paris", "UTC") and gives its current name: browsers and Shopify
// still hand out renamed zones ("Asia/Calcutta", "Europe/Kiev"), which are
// accepted and stored as their current names. Go's own names that are not
// zones ("Local"), an empty string and anything the zone database does not
// know are refused.
func NormalizeTimeZone(name string) (string, error) {
	bad := &ValidationError{Field: "timeZone", Message: "timeZone must be an IANA time zone such as Europe/Paris."}
	if name == "" || name == "Local" || len(name) > 64 || strings.ContainsAny(name, " \\") || strings.HasPrefix(name, "/") {
		return "", bad
	}
	if _, err := time.LoadLocation(name); err != nil {
		return "", bad
	}
	return CanonicalTimeZone(name), nil
}

// renamedZones are the IANA zones renamed since ICU took its ids, old name
// to current. The web keeps the same table
// (frontends/packages/platform/src/format/time-zones.ts).
var renamedZones = map[string]string{
	"America/Buenos_Aires": "America/Argentina/Buenos_Aires",
	"America/Catamarca":    "America/Argentina/Catamarca",
	"America/Cordoba":      "America/Argentina/Cordoba",
	"America/Jujuy":        "America/Argentina/Jujuy",
	"America/Mendoza":      "America/Argentina/Mendoza",
	"America/Godthab":      "America/Nuuk",
	"America/Indianapolis": "America/Indiana/Indianapolis",
	"America/Louisville":   "America/Kentucky/Louisville",
	"Asia/Calcutta":        "Asia/Kolkata",
	"Asia/Dacca":           "Asia/Dhaka",
	"Asia/Katmandu":        "Asia/Kathmandu",
	"Asia/Rangoon":         "Asia/Yangon",
	"Asia/Saigon":          "Asia/Ho_Chi_Minh",
	"Asia/Thimbu":          "Asia/Thimphu",
	"Asia/Ujung_Pandang":   "Asia/Makassar",
	"Asia/Ulan_Bator":      "Asia/Ulaanbaatar",
	"Atlantic/Faeroe":      "Atlantic/Faroe",
	"Europe/Kiev":          "Europe/Kyiv",
	"Europe/Uzhgorod":      "Europe/Kyiv",
	"Europe/Zaporozhye":    "Europe/Kyiv",
	"Pacific/Enderbury":    "Pacific/Kanton",
	"Pacific/Ponape":       "Pacific/Pohnpei",
	"Pacific/Truk":         "Pacific/Chuuk",
}

// CanonicalTimeZone is a zone's current IANA name; other names as given.
func CanonicalTimeZone(name string) string {
	if current, ok := renamedZones[name]; ok {
		return current
	}
	return name
}

// Location is the category's time zone, UTC while none is known.
func (c Category) Location() *time.Location {
	if c.TimeZone != "" {
		if loc, err := time.LoadLocation(c.TimeZone); err == nil {
			return loc
		}
	}
	return time.UTC
}

// ScheduleLocation is the zone a store's recurring emails are timed in:
// the connected shop's own IANA zone first (it is where the owner's
// business day is, as the issue says: "each morning in the store's time
// zone"), else the business's zone (from the browser at sign-up, or set in
// the Business profile), else the fixed offset of an imported order file
// (it knows no daylight saving, so a named zone is preferred to it), else
// UTC.
func ScheduleLocation(businessTZ, storeTZ string) *time.Location {
	store, fixed, ok := schedule.Zone(storeTZ)
	if ok && !fixed {
		return store
	}
	if loc, _, bok := schedule.Zone(businessTZ); bok {
		return loc
	}
	if ok {
		return store
	}
	return time.UTC
}

// NoDataReportSlot is when the daily report of a store without data goes
// out: 07:00 on the store's wall clock, like the stores service's report
// of a store with data (the two are keyed alike, so never both).
var NoDataReportSlot = schedule.Daily(7)

// NoDataCandidate is a category the daily report without data may be due
// for: it has no store data and the daily report is on.
type NoDataCandidate struct {
	CategoryID, TimeZone string
	// LastDay is the newest report day already published, zero if none.
	LastDay schedule.Date
	// CreatedAt is when the business was created: there is no report of
	// a day before it (the first one comes the morning after sign-up).
	CreatedAt time.Time
}

// NoDataReport is what the daily report of a store without data carries
// instead of numbers: the website's status, the next seasonal date and an
// idea.
type NoDataReport struct {
	Category Category
	// Day is the report's store-local day (yesterday).
	Day string
	// Website is the newest report (nil when none); Ready the last ready one.
	WebsiteStatus ReportStatus
	Ready         *Review
	OccasionName  string
	OccasionDate  string
	Idea          *Idea
}

// OpenFindings counts the findings of r still to fix.
func OpenFindings(r *Review) int {
	n := 0
	if r != nil {
		for _, f := range r.Findings {
			if f.State != StateFixed {
				n++
			}
		}
	}
	return n
}
