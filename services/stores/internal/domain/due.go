package domain

import "time"

// ReportHour is the store-local hour from which yesterday's daily report
// goes out.
const ReportHour = 7

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
	if loc == nil {
		loc = time.UTC
	}
	local := now.In(loc)
	today := DateOf(local)
	y, m, d := local.Date()
	if local.Before(time.Date(y, m, d, ReportHour, 0, 0, 0, loc)) {
		return Date{}, false
	}
	day := today.AddDays(-1)
	if lastSent != (Date{}) && !lastSent.Before(day) {
		return Date{}, false
	}
	return day, true
}
