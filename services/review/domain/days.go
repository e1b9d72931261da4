package domain

// How sentences name a day, as the web writes a store's days (its weekday,
// then "Nov 30"; "Nov 30, 2026" with the year), so a plan's "Send Tue Dec 1"
// reads like the table beside it that says "Tue Dec 1, 2026".
const (
	DayLayout     = "Mon Jan 2"
	DayYearLayout = "Mon Jan 2, 2006"
)
