package domain

import (
	"errors"
	"fmt"
	"slices"
	"time"
)

// CampaignPlan is what a dated campaign idea promises, as facts rather
// than words: its days and the prices it quotes. The words of the idea
// are written from it, so a plan that holds (Check) reads as one that
// agrees with itself. Days are calendar days of the store's own zone,
// written as midnight UTC (see StoreDay), so they compare and count
// without any zone or daylight-saving change between them.
type CampaignPlan struct {
	Today    time.Time // the store's calendar day when the plan was made
	Occasion string
	Date     time.Time // the occasion's day
	// Send is the campaign email's day; zero for a plan of posts.
	Send time.Time
	// Reminder is the follow-up email's day; zero when there is none.
	Reminder time.Time
	// LastOrder is the last day an order still arrives for the occasion;
	// zero when delivery in time is not promised.
	LastOrder time.Time
	// Posts are the days of a series of posts, in order.
	Posts []time.Time
	// Band is the store's usual price band the copy names; nil when it
	// names none.
	Band *PriceBand
	// PicksInBand is the copy saying every pick sits in Band.
	PicksInBand bool
	// Picks are the products the campaign features, at the prices it
	// quotes (0 when it quotes none).
	Picks []Pick
}

// PriceBand is a range of prices in one currency.
type PriceBand struct {
	Low, High float64
	Currency  string
}

// Pick is a product as a plan quotes it, or as the catalogue sells it.
type Pick struct {
	Name     string
	Price    float64 // 0 when unpriced
	Currency string
}

// StoreDay is the calendar day of now in now's own zone (pass the
// instant in the store's zone), as midnight UTC: the "today" every plan
// of that store counts from.
func StoreDay(now time.Time) time.Time {
	return time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
}

// isDay is t written as StoreDay writes days.
func isDay(t time.Time) bool { return t.Location() == time.UTC && t.Equal(StoreDay(t)) }

// Check reports every way the plan contradicts itself or the catalogue
// (the products the store sells, at their prices), joined; nil when it
// holds:
//   - every day is a calendar day (StoreDay's form);
//   - the occasion is after today, and every step is on or after today
//     and before the occasion;
//   - a plan has a send day or posts; posts are in order, one a day;
//   - the reminder comes after the send, and on or before the last order
//     date; the last order date is not before the send;
//   - a band runs low to high; picks said to sit in it are all priced, in
//     its currency, within it;
//   - each pick is named once and sold by the store at the price quoted.
func (p CampaignPlan) Check(catalogue []Pick) error {
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	day := func(t time.Time) string { return t.Format(DayYearLayout) }
	for name, t := range map[string]time.Time{"today": p.Today, "the occasion": p.Date} {
		if t.IsZero() || !isDay(t) {
			bad("%s (%v) is not a calendar day", name, t)
		}
	}
	if !p.Date.After(p.Today) {
		bad("the occasion, %s on %s, is not after today (%s)", p.Occasion, day(p.Date), day(p.Today))
	}
	step := func(name string, t time.Time) {
		switch {
		case !isDay(t):
			bad("%s (%v) is not a calendar day", name, t)
		case t.Before(p.Today):
			bad("%s, %s, is before today (%s)", name, day(t), day(p.Today))
		case !t.Before(p.Date):
			bad("%s, %s, is not before %s (%s)", name, day(t), p.Occasion, day(p.Date))
		}
	}
	for name, t := range map[string]time.Time{"the send": p.Send, "the reminder": p.Reminder, "the last order date": p.LastOrder} {
		if !t.IsZero() {
			step(name, t)
		}
	}
	for i, t := range p.Posts {
		step(fmt.Sprintf("post %d", i+1), t)
		if i > 0 && !t.After(p.Posts[i-1]) {
			bad("post %d (%s) is not after post %d (%s)", i+1, day(t), i, day(p.Posts[i-1]))
		}
	}
	if p.Send.IsZero() && len(p.Posts) == 0 {
		bad("the plan has no send day and no posts")
	}
	if !p.Reminder.IsZero() {
		if p.Send.IsZero() || !p.Reminder.After(p.Send) {
			bad("the reminder (%s) is not after the send (%s)", day(p.Reminder), day(p.Send))
		}
		if !p.LastOrder.IsZero() && p.Reminder.After(p.LastOrder) {
			bad("the reminder (%s) is after the last order date (%s)", day(p.Reminder), day(p.LastOrder))
		}
	}
	if !p.LastOrder.IsZero() && (p.Send.IsZero() || p.LastOrder.Before(p.Send)) {
		bad("the last order date (%s) is before the send (%s)", day(p.LastOrder), day(p.Send))
	}
	if b := p.Band; b != nil && (b.Low <= 0 || b.Low > b.High) {
		bad("the price band %g–%g %s does not run from low to high", b.Low, b.High, b.Currency)
	}
	if p.PicksInBand {
		switch {
		case p.Band == nil:
			bad("the picks are said to sit in a band the plan does not name")
		case len(p.Picks) == 0:
			bad("the picks are said to sit in the band, but there are none")
		}
		for _, k := range p.Picks {
			if b := p.Band; b != nil && (k.Price <= 0 || k.Currency != b.Currency || k.Price < b.Low || k.Price > b.High) {
				bad("%s at %g %s is said to sit in the band %g–%g %s", k.Name, k.Price, k.Currency, b.Low, b.High, b.Currency)
			}
		}
	}
	for i, k := range p.Picks {
		if slices.ContainsFunc(p.Picks[:i], func(o Pick) bool { return o.Name == k.Name }) {
			bad("%s is picked twice", k.Name)
		}
		if !slices.ContainsFunc(catalogue, func(c Pick) bool {
			return c.Name == k.Name && (k.Price == 0 || (c.Price == k.Price && c.Currency == k.Currency))
		}) {
			bad("%s at %g %s is not in the store's catalogue", k.Name, k.Price, k.Currency)
		}
	}
	return errors.Join(errs...)
}
