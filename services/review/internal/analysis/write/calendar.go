package write

import (
	"slices"
	"strings"
	"time"
)

// Occasion is a seasonal date shoppers buy for.
type Occasion struct {
	Name string
	Date time.Time
	Gift bool // people buy presents for it
}

// upcomingWindow is how far ahead campaign ideas look for occasions.
const upcomingWindow = 8 * 7 * 24 * time.Hour

// easter returns Easter Sunday (Western) of year y (anonymous Gregorian algorithm).
func easter(y int) time.Time {
	a, b, c := y%19, y/100, y%100
	d, e := b/4, b%4
	f := (b + 8) / 25
	g := (b - f + 1) / 3
	h := (19*a + b - d - g + 15) % 30
	i, k := c/4, c%4
	l := (32 + 2*e + 2*i - h - k) % 7
	m := (a + 11*h + 22*l) / 451
	month := (h + l - 7*m + 114) / 31
	day := (h+l-7*m+114)%31 + 1
	return date(y, time.Month(month), day)
}

func date(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

// nthWeekday returns the n-th weekday wd of a month (n = -1 for the last).
func nthWeekday(y int, m time.Month, wd time.Weekday, n int) time.Time {
	if n < 0 {
		last := date(y, m+1, 0)
		return last.AddDate(0, 0, -((int(last.Weekday()) - int(wd) + 7) % 7))
	}
	first := date(y, m, 1)
	return first.AddDate(0, 0, (int(wd)-int(first.Weekday())+7)%7+7*(n-1))
}

// occasions returns the shopping calendar of year y for a market (an ISO
// country code; "" means the US calendar).
func occasions(y int, market string) []Occasion {
	e := easter(y)
	thanksgiving := nthWeekday(y, time.November, time.Thursday, 4)
	out := []Occasion{
		{"New Year", date(y, time.January, 1), false},
		{"Valentine's Day", date(y, time.February, 14), true},
		{"Easter", e, true},
		{"Halloween", date(y, time.October, 31), false},
		{"Black Friday", thanksgiving.AddDate(0, 0, 1), true},
		{"Cyber Monday", thanksgiving.AddDate(0, 0, 4), true},
		{"Christmas", date(y, time.December, 25), true},
	}
	switch market {
	case "GB", "IE":
		out = append(out,
			Occasion{"Mother's Day", e.AddDate(0, 0, -21), true},
			Occasion{"Father's Day", nthWeekday(y, time.June, time.Sunday, 3), true},
			Occasion{"Back to school", date(y, time.August, 25), false},
			Occasion{"Boxing Day", date(y, time.December, 26), false})
	case "AU", "NZ":
		out = append(out,
			Occasion{"Mother's Day", nthWeekday(y, time.May, time.Sunday, 2), true},
			Occasion{"Father's Day", nthWeekday(y, time.September, time.Sunday, 1), true},
			Occasion{"Back to school", date(y, time.January, 27), false},
			Occasion{"Boxing Day", date(y, time.December, 26), false})
	case "FR":
		out = append(out,
			Occasion{"Mother's Day", nthWeekday(y, time.May, time.Sunday, -1), true},
			Occasion{"Father's Day", nthWeekday(y, time.June, time.Sunday, 3), true},
			Occasion{"Back to school", date(y, time.September, 1), false})
	case "DE", "AT", "CH":
		out = append(out,
			Occasion{"Mother's Day", nthWeekday(y, time.May, time.Sunday, 2), true},
			Occasion{"Father's Day", e.AddDate(0, 0, 39), true},
			Occasion{"Back to school", date(y, time.September, 1), false})
	default: // US, CA and markets that follow them
		out = append(out,
			Occasion{"Mother's Day", nthWeekday(y, time.May, time.Sunday, 2), true},
			Occasion{"Father's Day", nthWeekday(y, time.June, time.Sunday, 3), true},
			Occasion{"Back to school", date(y, time.August, 15), false})
		if market == "CA" {
			out = append(out, Occasion{"Boxing Day", date(y, time.December, 26), false})
		}
	}
	slices.SortStableFunc(out, func(a, b Occasion) int { return a.Date.Compare(b.Date) })
	return out
}

// upcoming returns the occasions after today up to eight weeks ahead, or,
// when none falls in that window, the next one after it. Today is the
// calendar day of now in now's own time zone: an occasion on that day has
// already begun and is never planned for.
func upcoming(now time.Time, market string) []Occasion {
	today := date(now.Year(), now.Month(), now.Day())
	all := append(occasions(now.Year(), market), occasions(now.Year()+1, market)...)
	var out []Occasion
	for _, o := range all {
		if o.Date.After(today) && o.Date.Sub(today) <= upcomingWindow {
			out = append(out, o)
		}
	}
	if len(out) == 0 {
		for _, o := range all {
			if o.Date.After(today) {
				return []Occasion{o}
			}
		}
	}
	return out
}

// marketOf guesses the store's market from its currency, domain and language.
func marketOf(currency, siteURL, lang string) string {
	switch currency {
	case "GBP":
		return "GB"
	case "AUD":
		return "AU"
	case "NZD":
		return "NZ"
	case "CAD":
		return "CA"
	case "USD":
		return "US"
	}
	host := strings.ToLower(siteURL)
	if i := strings.Index(host, "://"); i >= 0 {
		host = host[i+3:]
	}
	if i := strings.IndexAny(host, "/:"); i >= 0 {
		host = host[:i]
	}
	for suffix, m := range map[string]string{".co.uk": "GB", ".uk": "GB", ".ie": "IE", ".com.au": "AU", ".au": "AU", ".nz": "NZ", ".ca": "CA", ".fr": "FR", ".de": "DE", ".at": "AT", ".ch": "CH"} {
		if strings.HasSuffix(host, suffix) {
			return m
		}
	}
	switch l := strings.ToLower(lang); {
	case strings.HasPrefix(l, "en-gb"):
		return "GB"
	case strings.HasPrefix(l, "fr"):
		return "FR"
	case strings.HasPrefix(l, "de"):
		return "DE"
	}
	return "US"
}

// Upcoming is the seasonal dates ahead of now for a store at siteURL (its
// market guessed from the address alone). The daily email of a store with
// no data yet names the soonest.
func Upcoming(now time.Time, siteURL string) []Occasion {
	return upcoming(now, marketOf("", siteURL, ""))
}
