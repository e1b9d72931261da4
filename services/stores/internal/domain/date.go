package domain

import (
	"errors"
	"time"
)

// Date is a calendar day with no time zone. The numbers are counted per
// store-local day, and a day means different instants in different shops,
// so the day itself must not carry an instant. Date is comparable and can
// key a map; the zero Date is not a valid day.
type Date struct {
	y int32
	m uint8
	d uint8
}

// errBadDate is returned for anything that is not a real YYYY-MM-DD day.
var errBadDate = errors.New("not a date like 2026-11-23")

// ParseDate reads "YYYY-MM-DD" strictly (no time, no zone, no short forms),
// because dates arrive from URLs and files and a lenient reading would turn
// typos into silently different days.
func ParseDate(s string) (Date, error) {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return Date{}, errBadDate
	}
	y, ok1 := digits(s[0:4])
	m, ok2 := digits(s[5:7])
	d, ok3 := digits(s[8:10])
	if !ok1 || !ok2 || !ok3 || y < 1 || m < 1 || m > 12 || d < 1 || d > daysIn(y, m) {
		return Date{}, errBadDate
	}
	return Date{y: int32(y), m: uint8(m), d: uint8(d)}, nil
}

// digits reads an unsigned decimal made only of ASCII digits.
func digits(s string) (int, bool) {
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, len(s) > 0
}

func daysIn(y, m int) int {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// DateOf is the day t falls on in t's own location, so callers choose the
// store's zone (t.In(loc)) or keep an imported file's offset explicitly.
func DateOf(t time.Time) Date {
	y, m, d := t.Date()
	return Date{y: int32(y), m: uint8(m), d: uint8(d)}
}

// String is the ISO form used by the API, the database and people.
func (d Date) String() string {
	y := int(d.y)
	if y < 0 || y > 9999 {
		y = 0
	}
	b := [10]byte{
		byte('0' + y/1000), byte('0' + y/100%10), byte('0' + y/10%10), byte('0' + y%10), '-',
		byte('0' + d.m/10), byte('0' + d.m%10), '-', byte('0' + d.d/10), byte('0' + d.d%10),
	}
	return string(b[:])
}

// days counts days since 1970-01-01 (proleptic Gregorian), so day arithmetic
// is integer arithmetic and never meets a clock change.
func (d Date) days() int64 {
	y, m := int64(d.y), int64(d.m)
	if m <= 2 {
		y--
	}
	era := y / 400
	if y < 0 && y%400 != 0 {
		era--
	}
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + int64(d.d) - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

// fromDays is the inverse of days.
func fromDays(z int64) Date {
	z += 719468
	era := z / 146097
	if z < 0 && z%146097 != 0 {
		era--
	}
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	y := yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d := doy - (153*mp+2)/5 + 1
	m := mp + 3
	if m > 12 {
		m -= 12
	}
	if m <= 2 {
		y++
	}
	return Date{y: int32(y), m: uint8(m), d: uint8(d)}
}

// AddDays moves by whole calendar days; a day is never confused with 24
// hours, which DST would break.
func (d Date) AddDays(n int) Date { return fromDays(d.days() + int64(n)) }

// Before reports whether d is an earlier day than o.
func (d Date) Before(o Date) bool { return d.days() < o.days() }

// After reports whether d is a later day than o.
func (d Date) After(o Date) bool { return d.days() > o.days() }

// Equal reports whether d and o are the same day.
func (d Date) Equal(o Date) bool { return d == o }

// DaysBetween is b − a in days (negative when b is before a), so ranges can
// be sized and indexed without time arithmetic.
func DaysBetween(a, b Date) int { return int(b.days() - a.days()) }

// In gives the day's half-open interval [start, end) in loc. It follows the
// zone's rules, so a day can last 23 or 25 hours; when midnight itself does
// not exist in loc, the day starts at the first instant after it.
func (d Date) In(loc *time.Location) (start, end time.Time) {
	if loc == nil {
		loc = time.UTC
	}
	start = time.Date(int(d.y), time.Month(d.m), int(d.d), 0, 0, 0, 0, loc)
	n := d.AddDays(1)
	end = time.Date(int(n.y), time.Month(n.m), int(n.d), 0, 0, 0, 0, loc)
	return start, end
}
