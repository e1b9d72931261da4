package domain

import (
	"time"

	"uplift.dev/platform/schedule"
)

// ReportHour is the store-local hour from which yesterday's daily report
// goes out.
const ReportHour = 7

// reportSlot is the daily report's moment on the store's wall clock; the
// categories service's weekly website review uses the same rule
// (platform/schedule), so both recurring emails are scheduled one way.
var reportSlot = schedule.Daily(ReportHour)

// ReportDue says whether a store's daily report is due at now and for which
// day. The report of a store-local day D is due from 07:00 on D+1 in loc
// until the end of D+1, unless a report for D (or a later day) was already
// sent; lastSent is the newest day sent, the zero Date when none was.
//
// Only yesterday is ever due: after an outage the service sends the report
// it missed today if the day is not over, but never a stale one for the days
// before. The rule reads the wall clock in loc, so a daylight-saving day (23
// or 25 hours) still has exactly one 07:00; in a zone where 07:00 itself
// were skipped, the first instant after the gap counts.
func ReportDue(now time.Time, loc *time.Location, lastSent Date) (Date, bool) {
	var last schedule.Date
	if lastSent != (Date{}) {
		// The morning after a reported day is the slot that sent it.
		last = schedule.Date{Year: int(lastSent.y), Month: time.Month(lastSent.m), Day: int(lastSent.d)}.AddDays(1)
	}
	morning, due := reportSlot.Due(now, loc, last)
	if !due {
		return Date{}, false
	}
	return DateOf(morning.At(time.UTC, 12)).AddDays(-1), true
}
