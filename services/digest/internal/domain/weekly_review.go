package domain

import (
	"fmt"
	"net/url"
	"strings"
	"time"
)

// Finding is one finding of a website review as an email shows it.
type Finding struct {
	Title  string `json:"title"`
	Fix    string `json:"fix,omitempty"`
	Points int    `json:"points,omitempty"`
	URL    string `json:"url,omitempty"`
	// Pages is how many pages share this finding in a list (0 or 1: one).
	Pages int `json:"pages,omitempty"`
}

// Covered is how many findings a bounded list stands for (a finding on
// four pages is listed once), so "and N more" counts right.
func Covered(fs []Finding) int {
	n := 0
	for _, f := range fs {
		n += max(1, f.Pages)
	}
	return n
}

// WeeklyReview is the categories service's WeeklyReviewReady: this week's
// fresh review of a store's website against the last one.
type WeeklyReview struct {
	CategoryID, OwnerUserID string
	StoreName, SiteURL      string
	// Week is the store-local Monday of the review's week, YYYY-MM-DD.
	Week  string
	Score int
	Band  string
	// PreviousScore is nil when there was no review before.
	PreviousScore          *int
	New, Fixed, Open, Tops []Finding
	Idea                   *Idea
	// Failure, when set, is why the website could not be read this week
	// (the event's status FAILED): the email says so, what to do, and the
	// last known score (PreviousScore, PreviousBand) instead of a new one.
	Failure, PreviousBand string
	// First marks the business's first review (WeeklyReviewReady's
	// first_review): its email is "Your first website review is ready",
	// sent once per business, with nothing to compare with.
	First bool
}

// Bounds on what one weekly email lists, so a site with a hundred findings
// still makes a short email (the rest are on Home).
const (
	maxWeeklyListed = 5
	maxWeeklyTops   = 3
)

// NewWeeklyReview is the weekly website review email of w to the owner's
// address to, keyed by category and week: a redelivered or republished
// review queues nothing new.
func NewWeeklyReview(w WeeklyReview, to string) (Email, error) {
	if strings.TrimSpace(w.CategoryID) == "" || strings.TrimSpace(w.OwnerUserID) == "" {
		return Email{}, ErrMissingID
	}
	if _, err := time.Parse(time.DateOnly, w.Week); err != nil {
		return Email{}, fmt.Errorf("weekly review week %q: %w", w.Week, ErrMissingID)
	}
	addr, err := ParseAddress(to)
	if err != nil {
		return Email{}, err
	}
	p := Params{CategoryID: w.CategoryID, StoreName: cleanName(w.StoreName), SiteURL: safeLink(w.SiteURL),
		Week: w.Week, Score: max(0, min(100, w.Score)), Band: clip(w.Band), PreviousScore: w.PreviousScore,
		NewFindings: grouped(w.New, maxWeeklyListed), FixedFindings: grouped(w.Fixed, maxWeeklyListed),
		OpenFindings: grouped(w.Open, maxWeeklyListed), TopFixes: findings(w.Tops, maxWeeklyTops),
		NewCount: len(w.New), FixedCount: len(w.Fixed), OpenCount: len(w.Open)}
	if i := w.Idea; i != nil && i.ID != "" && url.PathEscape(i.ID) == i.ID && strings.TrimSpace(i.Title) != "" {
		p.Ideas = []Idea{{ID: i.ID, Title: clip(i.Title), Channel: clip(i.Channel), WhyNow: clip(i.WhyNow)}}
	}
	if f := clip(w.Failure); f != "" {
		// A week whose review could not be done has nothing of its own to
		// show: only why, and the last known score.
		p = Params{CategoryID: p.CategoryID, StoreName: p.StoreName, SiteURL: p.SiteURL, Week: p.Week,
			PreviousScore: p.PreviousScore, Band: clip(w.PreviousBand), Failure: f}
	}
	if w.First && p.Failure == "" {
		// Once per business, whichever week it came in.
		p.First, p.PreviousScore, p.FixedFindings, p.FixedCount = true, nil, nil, 0
		return pending("first-review:"+w.CategoryID, KindWeeklyReview, w.OwnerUserID, addr, p), nil
	}
	return pending("weekly-review:"+w.CategoryID+":"+w.Week, KindWeeklyReview, w.OwnerUserID, addr, p), nil
}

func findings(fs []Finding, limit int) []Finding {
	var out []Finding
	for _, f := range fs {
		if len(out) == limit {
			break
		}
		if t := clip(f.Title); t != "" {
			out = append(out, Finding{Title: t, Fix: clip(f.Fix), Points: max(0, f.Points), URL: safeLink(f.URL)})
		}
	}
	return out
}

// ScoreChange says how the score moved since the last review, in words:
// "up 9 points since last week", "down 3 points …", "the same as last
// week", or "" when there was no review before.
func ScoreChange(score int, previous *int) string {
	if previous == nil {
		return ""
	}
	switch d := score - *previous; {
	case d > 0:
		return fmt.Sprintf("up %d %s since last week", d, plural(d, "point"))
	case d < 0:
		return fmt.Sprintf("down %d %s since last week", -d, plural(-d, "point"))
	}
	return "the same as last week"
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// grouped lists findings once per title, in order of first appearance,
// with how many pages share it: the review finds "Page has no meta
// description" on each page, and a list of the same line four times reads
// as a fault on a phone.
func grouped(fs []Finding, limit int) []Finding {
	var out []Finding
	at := map[string]int{}
	for _, f := range findings(fs, len(fs)) {
		if i, ok := at[f.Title]; ok {
			out[i].Pages++
			continue
		}
		if len(out) == limit {
			continue
		}
		f.Pages = 1
		at[f.Title] = len(out)
		out = append(out, f)
	}
	return out
}
