// Package schedule is Uplift's one rule for recurring work in a store's own
// time zone (the daily business report, the weekly website review) and the
// loop that checks it. It decides only *whether* a period's work is due; a
// service makes it happen once by claiming the period in a table (primary
// key category and period) in the transaction that writes its outbox event,
// so two replicas, a restart or a clock that jumps across a daylight-saving
// change still do each period's work once.
package schedule

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// Date is a calendar day in some time zone, without a zone.
type Date struct {
	Year  int
	Month time.Month
	Day   int
}

// DateOf is t's calendar day in t's own location.
func DateOf(t time.Time) Date {
	y, m, d := t.Date()
	return Date{y, m, d}
}

// ParseDate reads YYYY-MM-DD.
func ParseDate(s string) (Date, error) {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return Date{}, err
	}
	return DateOf(t), nil
}

// String is YYYY-MM-DD.
func (d Date) String() string { return d.At(time.UTC, 0).Format(time.DateOnly) }

// IsZero reports whether d is the zero Date ("never").
func (d Date) IsZero() bool { return d == Date{} }

// AddDays is d moved by n calendar days.
func (d Date) AddDays(n int) Date {
	return DateOf(time.Date(d.Year, d.Month, d.Day+n, 12, 0, 0, 0, time.UTC))
}

// Before reports whether d is an earlier day than o.
func (d Date) Before(o Date) bool { return d.At(time.UTC, 0).Before(o.At(time.UTC, 0)) }

// At is the instant of hour:00 on d's wall clock in loc. In a zone where
// that hour is skipped by a daylight-saving change, it is the first instant
// after the gap (Go's time.Date normalises it so).
func (d Date) At(loc *time.Location, hour int) time.Time {
	return time.Date(d.Year, d.Month, d.Day, hour, 0, 0, 0, loc)
}

// Zone reads a store's time zone as the services keep it: an IANA name
// ("Europe/Paris"), or the fixed offset an imported order file carried
// ("-05:00", which knows no daylight saving). ok is false for an empty or
// unknown name. A name read once is remembered: time.LoadLocation reads
// the zone database from disk on every call (and an offset, which it does
// not know, only after looking for it there), and a metrics request asks
// for its store's zone each time.
func Zone(name string) (loc *time.Location, fixed, ok bool) {
	if name == "" || name == "Local" {
		return nil, false, false
	}
	if z, hit := zones.Load(name); hit {
		z := z.(knownZone)
		return z.loc, z.fixed, true
	}
	loc, fixed, ok = loadZone(name)
	if ok && zoneCount.Add(1) <= maxZones {
		zones.Store(name, knownZone{loc, fixed})
	}
	return loc, fixed, ok
}

// knownZone is a name Zone has read.
type knownZone struct {
	loc   *time.Location
	fixed bool
}

// zones holds the names Zone has read, at most maxZones of them (there are
// some 600 IANA names and a few dozen offsets in use; names that are not
// zones are never kept, so stored junk cannot grow it).
var (
	zones     sync.Map
	zoneCount atomic.Int64
)

const maxZones = 4096

func loadZone(name string) (*time.Location, bool, bool) {
	if l, err := time.LoadLocation(name); err == nil {
		return l, false, true
	}
	if t, err := time.Parse("-07:00", name); err == nil {
		_, off := t.Zone()
		return time.FixedZone(name, off), true, true
	}
	return nil, false, false
}

// Slot is one recurring moment on a store's wall clock: every day at Hour,
// or with Weekly every Weekday at Hour. Its work may run from that moment
// until the end of the slot's window (the rest of that day for a daily
// slot, the rest of that week for a weekly one); a slot missed entirely
// (the service was down all through its window) is skipped, never sent
// stale after a newer one.
type Slot struct {
	Hour    int
	Weekly  bool
	Weekday time.Weekday
}

// Daily is every day at hour.
func Daily(hour int) Slot { return Slot{Hour: hour} }

// Weekly is every weekday at hour.
func Weekly(weekday time.Weekday, hour int) Slot {
	return Slot{Hour: hour, Weekly: true, Weekday: weekday}
}

// Due says whether a slot's work is due at now in loc and for which
// occurrence: the local date of the newest slot at or before now whose
// window still holds. last is the newest occurrence already done (the zero
// Date when none was); an occurrence at or before it is not due again.
//
// The rule reads the wall clock in loc, so the 23- and 25-hour days of a
// daylight-saving change still have exactly one slot.
func (s Slot) Due(now time.Time, loc *time.Location, last Date) (Date, bool) {
	if loc == nil {
		loc = time.UTC
	}
	local := now.In(loc)
	occ := s.Period(now, loc)
	// Before today's slot (daily: yesterday's window closed at midnight;
	// weekly: on the slot's own day last week's window ends at the slot).
	if local.Before(occ.At(loc, s.Hour)) {
		return Date{}, false
	}
	if !last.IsZero() && !last.Before(occ) {
		return Date{}, false
	}
	return occ, true
}

// Period is the occurrence whose period holds now in loc, whether or not
// its hour has come: today for a daily slot, the week's slot day (the most
// recent Weekday, today included) for a weekly one. An operator who sends
// a period's work ahead of its hour claims this occurrence, so the slot
// itself then finds it done and nothing goes out twice.
func (s Slot) Period(now time.Time, loc *time.Location) Date {
	if loc == nil {
		loc = time.UTC
	}
	local := now.In(loc)
	today := DateOf(local)
	if !s.Weekly {
		return today
	}
	return today.AddDays(-((int(local.Weekday()) - int(s.Weekday) + 7) % 7))
}

// Every runs round at once and then every interval until ctx ends; a
// failed round is reported to failed and retried at the next tick.
func Every(ctx context.Context, interval time.Duration, round func(context.Context) error, failed func(error)) error {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		if err := round(ctx); err != nil && ctx.Err() == nil {
			failed(err)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
	}
}
