package domain

import "time"

// Today is the store's calendar day at now: the day its own clock shows,
// whatever the clock of the person looking at the numbers.
func Today(now time.Time, loc *time.Location) Date {
	if loc == nil {
		loc = time.UTC
	}
	return DateOf(now.In(loc))
}

// LastWholeDays is the range a "last n days" preset means at now: the n
// whole store-local days that end yesterday. Today is left out because it
// is not over: a part-day would make the chart fall at its end and set a
// part-day against whole days in the comparison.
func LastWholeDays(now time.Time, loc *time.Location, n int) (from, to Date) {
	to = Today(now, loc).AddDays(-1)
	return to.AddDays(-(n - 1)), to
}
