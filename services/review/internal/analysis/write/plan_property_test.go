package write

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"uplift.dev/review/domain"
	"uplift.dev/review/internal/analysis/page"
	"uplift.dev/review/internal/analysis/review"
	"uplift.dev/review/internal/analysis/site"
)

// planZones are the store zones the plans are tested in: both ends of the
// world, half- and quarter-hour offsets, and both hemispheres' daylight
// saving time.
var planZones = []string{
	"UTC", "America/Los_Angeles", "America/New_York", "America/St_Johns", "America/Sao_Paulo",
	"Europe/London", "Europe/Berlin", "Asia/Kolkata", "Asia/Kathmandu", "Asia/Tokyo",
	"Australia/Sydney", "Australia/Adelaide", "Pacific/Auckland", "Pacific/Chatham",
	"Pacific/Kiritimati", "Pacific/Pago_Pago",
}

func loadZones(t *testing.T) []*time.Location {
	t.Helper()
	var out []*time.Location
	for _, name := range planZones {
		loc, err := time.LoadLocation(name)
		if err != nil {
			t.Fatalf("time zone %s: %v", name, err)
		}
		out = append(out, loc)
	}
	return out
}

// planMoment is one store read at one instant in its own zone.
type planMoment struct {
	now   time.Time // in the store's zone
	seed  uint64
	label string
}

// planMoments are every day of 2026 and 2027 at three random times, each
// in a random zone; the minutes either side of every daylight-saving
// change of every zone in those years; and the real clock in each zone.
func planMoments(t *testing.T) []planMoment {
	t.Helper()
	zones := loadZones(t)
	rng := rand.New(rand.NewPCG(2026, 2027))
	var out []planMoment
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	end := time.Date(2028, 1, 1, 0, 0, 0, 0, time.UTC)
	for d := start; d.Before(end); d = d.AddDate(0, 0, 1) {
		for range 3 {
			loc := zones[rng.IntN(len(zones))]
			at := time.Date(d.Year(), d.Month(), d.Day(), rng.IntN(24), rng.IntN(60), 0, 0, loc)
			out = append(out, planMoment{now: at, seed: rng.Uint64(), label: "day"})
		}
	}
	for _, loc := range zones {
		for _, change := range offsetChanges(loc, start, end) {
			for _, delta := range []time.Duration{-time.Minute, 0, time.Minute, 23 * time.Hour} {
				out = append(out, planMoment{now: change.Add(delta).In(loc), seed: rng.Uint64(), label: "DST change"})
			}
		}
		out = append(out, planMoment{now: time.Now().In(loc), seed: rng.Uint64(), label: "real clock"})
	}
	return out
}

// offsetChanges finds the instants in [from, to) at which loc's UTC
// offset changes, to the minute.
func offsetChanges(loc *time.Location, from, to time.Time) []time.Time {
	var out []time.Time
	offset := func(t time.Time) int { _, o := t.In(loc).Zone(); return o }
	for t := from; t.Before(to); t = t.Add(time.Hour) {
		if offset(t) == offset(t.Add(time.Hour)) {
			continue
		}
		lo, hi := t, t.Add(time.Hour)
		for hi.Sub(lo) > time.Minute {
			mid := lo.Add(hi.Sub(lo) / 2)
			if offset(mid) == offset(lo) {
				lo = mid
			} else {
				hi = mid
			}
		}
		out = append(out, hi)
	}
	return out
}

var (
	nameWords  = []string{"Morning", "Assam", "Linen", "Cedar", "Wool", "Copper", "Trail", "Harbour", "Amber", "Sencha", "Oak", "Velvet", "Salt", "Fern"}
	nameThings = []string{"Tea", "Mug", "Apron", "Candle", "Scarf", "Teapot", "Blanket", "Soap", "Notebook", "Bottle", "Tin", "Bowl"}
	storeTLDs  = []string{".com", ".co.uk", ".de", ".fr", ".com.au", ".ca", ".nz", ".ie", ".shop"}
	currencies = []string{"USD", "GBP", "EUR", "AUD", "CAD", "NZD", "SEK", "JPY", ""}
	typeWords  = []string{"Tea", "Homeware", "Accessories", "Gifts", ""}
)

// randomStore is a store as a review reads it: a catalogue of 0 to 60
// products whose prices cluster around a price of their own (with cents or
// without, some unpriced, some sold out, now and then one in another
// currency or sharing another's name), and a review with random failed
// checks.
func randomStore(rng *rand.Rand) (*site.Site, domain.Review) {
	host := strings.ToLower(nameWords[rng.IntN(len(nameWords))]+"-"+nameThings[rng.IntN(len(nameThings))]) + storeTLDs[rng.IntN(len(storeTLDs))]
	cur := currencies[rng.IntN(len(currencies))]
	base := []float64{4, 9.5, 14.5, 18, 22, 35, 49, 120, 1299}[rng.IntN(9)]
	n := rng.IntN(61)
	var products []page.Product
	for i := range n {
		name := nameWords[rng.IntN(len(nameWords))] + " " + nameThings[rng.IntN(len(nameThings))]
		if rng.IntN(3) == 0 {
			name += fmt.Sprintf(" No. %d", i+1)
		}
		price := base * (0.4 + 2*rng.Float64())
		if rng.IntN(2) == 0 {
			price = math.Round(price)
		} else {
			price = math.Round(price*100) / 100
		}
		if rng.IntN(10) == 0 {
			price = 0
		}
		pc := cur
		if rng.IntN(25) == 0 {
			pc = currencies[rng.IntN(len(currencies))]
		}
		products = append(products, page.Product{Name: name, Price: price, Currency: pc, Available: rng.IntN(5) != 0,
			Type: typeWords[rng.IntN(len(typeWords))], URL: "https://" + host + "/products/" + strconv.Itoa(i)})
	}
	s := &site.Site{URL: "https://" + host + "/", Origin: "https://" + host,
		Home:      &page.Page{URL: "https://" + host + "/", Title: "Home | " + strings.Split(host, ".")[0], H1: []string{"Made slowly, by hand"}},
		Catalogue: site.Catalogue{Products: products, Currency: cur, Source: "products.json"}}
	rv := domain.Review{SiteURL: s.URL, Score: rng.IntN(101)}
	for _, c := range []string{review.CheckEmailCapture, review.CheckReviews, review.CheckShipping, review.CheckReturns} {
		if rng.IntN(3) == 0 {
			rv.Findings = append(rv.Findings, domain.Finding{Check: c, Title: c, PointsLost: 1 + rng.IntN(5), State: domain.StateOpen})
		}
	}
	return s, rv
}

// TestEveryPlanHoldsTogether writes the ideas of a random store at every
// planMoment and reads them as its owner would: what each says must agree
// with itself, with the calendar of the store's own zone and with the
// store's catalogue. A fixed example missed "reminder Tue Dec 22; last order date
// Sun Dec 20" and "these picks sit in that band ($18–$22)" above a $14.50
// pick.
func TestEveryPlanHoldsTogether(t *testing.T) {
	dated := 0
	seen := map[string]int{} // what the plans covered, so none of it is vacuous
	for _, m := range planMoments(t) {
		s, rv := randomStore(rand.New(rand.NewPCG(m.seed, 0)))
		b := BuildBrief(s, rv, m.now)
		text, err := Deterministic{}.Generate(context.Background(), b)
		if err != nil {
			t.Fatal(err)
		}
		where := fmt.Sprintf("%s %s (%s), %s with %d products", m.label, m.now.Format("2006-01-02 15:04 MST"), m.now.Location(), s.URL, len(s.Catalogue.Products))
		today := time.Date(m.now.Year(), m.now.Month(), m.now.Day(), 0, 0, 0, 0, time.UTC)
		if b.Today != today.Format(time.DateOnly) {
			t.Fatalf("%s: the brief's today is %s", where, b.Today)
		}
		for _, idea := range text.Ideas {
			isPlan := readPlan(t, where, idea, b, today)
			if isPlan != (idea.Plan != nil) {
				t.Errorf("%s: idea %q reads as a dated plan: %v, carries one: %v", where, idea.Title, isPlan, idea.Plan != nil)
			}
			if idea.Plan == nil {
				continue
			}
			dated++
			checkPlanFacts(t, where, idea, b, m.now)
			p := idea.Plan
			for what, ok := range map[string]bool{
				"a reminder before the last order date": !p.Reminder.IsZero() && !p.LastOrder.IsZero(),
				"a gift too late to deliver":            !p.Send.IsZero() && p.LastOrder.IsZero() && strings.Contains(idea.Timing, "too late"),
				"a send today":                          p.Send.Equal(p.Today),
				"picks in the band":                     p.PicksInBand,
				"picks beside the band":                 p.Band != nil && !p.PicksInBand && strings.Contains(idea.WhyNow, " cost"),
				"one post today":                        len(p.Posts) == 1 && p.Posts[0].Equal(p.Today),
				"three posts":                           len(p.Posts) == 3,
			} {
				if ok {
					seen[what]++
				}
			}
		}
		if _, ok := (&detWriter{b: b}).nextOccasion(minEmailLead, ""); ok && !slices.ContainsFunc(text.Ideas, func(i IdeaText) bool {
			return i.Channel == ChannelEmail && strings.HasPrefix(i.Timing, "Send ")
		}) {
			t.Errorf("%s: an occasion leaves time for an email, but no idea plans one: %+v", where, text.Ideas)
		}
	}
	if dated < 1000 {
		t.Errorf("only %d dated plans were read", dated)
	}
	for _, what := range []string{"a reminder before the last order date", "a gift too late to deliver", "a send today", "picks in the band", "picks beside the band", "one post today", "three posts"} {
		if seen[what] < 20 {
			t.Errorf("only %d plans with %s", seen[what], what)
		}
	}
	t.Logf("%d dated plans: %v", dated, seen)
}

var (
	monthDay    = `(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{1,2}`
	stepRE      = regexp.MustCompile(`(?i)(send|reminder|last order date) (?:today \(|tomorrow \()?(` + monthDay + `)`)
	anyDayRE    = regexp.MustCompile(monthDay)
	occasionRE  = regexp.MustCompile(`^(.+?) (?:is [^(]*\((` + monthDay + `)\)|follows on (` + monthDay + `))`)
	orderByRE   = regexp.MustCompile(`Order by (` + monthDay + `) so it arrives in time`)
	bandClaimRE = regexp.MustCompile(`sell for (.+?)(?:, a comfortable [a-z ]+ budget|); (?:these picks sit|this pick sits) in that band`)
	picksCostRE = regexp.MustCompile(`; (?:these picks cost|this pick costs) (.+)\.$`)
	bulletRE    = regexp.MustCompile(`(?m)^• (.+?)(?: — (\S+(?: [A-Z]{3})?))?$`)
	cheapestRE  = regexp.MustCompile(`^Your cheapest product is (.+) \(([^)]+)\) while most sell for ([^:]+):`)
	premiumRE   = regexp.MustCompile(`^(.+) is your most expensive product at (.+), above your usual (.+); one sale`)
	amountRE    = regexp.MustCompile(`^(\D*?)([\d,]+(?:\.\d+)?)((?: [A-Z]{3})?)$`)
)

// onOrAfter is the day written as "Tue Dec 22" that falls on or after
// today (within a year), its weekday checked, so a wrong year cannot make a
// past day look ahead.
func onOrAfter(t *testing.T, where, s string, today time.Time) time.Time {
	t.Helper()
	for _, y := range []int{today.Year(), today.Year() + 1} {
		d, err := time.Parse("Mon Jan 2, 2006", s+", "+strconv.Itoa(y))
		if err == nil && !d.Before(today) {
			return d
		}
	}
	// A day before today (or a weekday that does not fit): say which.
	d, _ := time.Parse("Jan 2, 2006", strings.SplitN(s, " ", 2)[1]+", "+strconv.Itoa(today.Year()))
	t.Errorf("%s: %q is not a day on or after today (%s; %s is a %s)", where, s, today.Format("Mon Jan 2, 2006"), d.Format("2 Jan 2006"), d.Format("Monday"))
	return d
}

type amount struct {
	unit  string
	value float64
}

// parseAmount reads "$14.50", "€1,299", "12.50 SEK" back.
func parseAmount(t *testing.T, where, s string) amount {
	t.Helper()
	m := amountRE.FindStringSubmatch(s)
	if m == nil {
		t.Errorf("%s: %q is not an amount", where, s)
		return amount{}
	}
	v, err := strconv.ParseFloat(strings.ReplaceAll(m[2], ",", ""), 64)
	if err != nil {
		t.Errorf("%s: %q: %v", where, s, err)
	}
	return amount{unit: m[1] + m[3], value: v}
}

// parseBand reads "$18–$22" or one price back.
func parseBand(t *testing.T, where, s string) (lo, hi amount) {
	t.Helper()
	a, b, ok := strings.Cut(s, "–")
	if !ok {
		b = a
	}
	return parseAmount(t, where, a), parseAmount(t, where, b)
}

// readPlan checks one idea as its reader meets it and says whether it was
// a dated plan. Every day named is on or after today; a plan's steps come
// in the order written, each before the occasion: send, then the
// reminder, then the last order date; "order by" repeats the last order
// date; a band the picks are said to sit in holds every pick listed; a
// product listed is the store's, at its price.
func readPlan(t *testing.T, where string, idea IdeaText, b Brief, today time.Time) bool {
	t.Helper()
	where = fmt.Sprintf("%s, idea %q", where, idea.Title)
	all := strings.Join([]string{idea.Title, idea.WhyNow, idea.SubjectLine, idea.Body, idea.Timing}, "\n")
	for _, d := range anyDayRE.FindAllString(all, -1) {
		onOrAfter(t, where, d, today)
	}
	catalogue := map[string][]amount{}
	for _, p := range b.Products {
		if p.Price > 0 {
			catalogue[p.Name] = append(catalogue[p.Name], parseAmount(t, where, (&detWriter{b: b}).show(p)))
		} else {
			catalogue[p.Name] = append(catalogue[p.Name], amount{})
		}
	}
	var listed []amount
	for _, m := range bulletRE.FindAllStringSubmatch(idea.Body, -1) {
		if strings.HasPrefix(m[1], "everything in the shop: ") || slices.Contains(b.Headings, m[1]) {
			continue // no products read: the shop's address, or what its home page leads with
		}
		prices, ok := catalogue[m[1]]
		if !ok {
			t.Errorf("%s: lists %q, which the store does not sell", where, m[1])
			continue
		}
		var a amount
		if m[2] != "" {
			a = parseAmount(t, where, m[2])
		}
		if !slices.Contains(prices, a) {
			t.Errorf("%s: lists %s at %q; the store has it at %v", where, m[1], m[2], prices)
		}
		listed = append(listed, a)
	}
	for _, p := range idea.Products {
		if _, ok := catalogue[p]; !ok {
			t.Errorf("%s: features %q, which the store does not sell", where, p)
		}
	}
	if strings.Contains(idea.WhyNow, "in that band") && !bandClaimRE.MatchString(idea.WhyNow) {
		t.Errorf("%s: a band claim this test cannot read: %q", where, idea.WhyNow)
	}
	if m := picksCostRE.FindStringSubmatch(idea.WhyNow); m != nil {
		lo, hi := parseBand(t, where, m[1])
		if len(listed) == 0 {
			t.Errorf("%s: says what the picks cost but lists none", where)
		}
		for _, a := range listed {
			if a.unit != lo.unit || a.value < lo.value || a.value > hi.value {
				t.Errorf("%s: says the picks cost %s, but lists one at %s%g", where, m[1], a.unit, a.value)
			}
		}
		if !slices.Contains(listed, lo) || !slices.Contains(listed, hi) {
			t.Errorf("%s: says the picks cost %s, but lists %v", where, m[1], listed)
		}
	}
	if m := bandClaimRE.FindStringSubmatch(idea.WhyNow); m != nil {
		lo, hi := parseBand(t, where, m[1])
		if len(listed) == 0 {
			t.Errorf("%s: says the picks sit in %s but lists none", where, m[1])
		}
		for _, a := range listed {
			if a.unit != lo.unit || a.value < lo.value || a.value > hi.value {
				t.Errorf("%s: says the picks sit in %s, but lists one at %s%g:\n%s\n%s", where, m[1], a.unit, a.value, idea.WhyNow, idea.Body)
			}
		}
	}
	if m := cheapestRE.FindStringSubmatch(idea.WhyNow); m != nil {
		price, lo := parseAmount(t, where, m[2]), parseAmount(t, where, strings.Split(m[3], "–")[0])
		if price.unit != lo.unit || price.value >= lo.value {
			t.Errorf("%s: the cheapest at %s is set against most selling for %s", where, m[2], m[3])
		}
	}
	if m := premiumRE.FindStringSubmatch(idea.WhyNow); m != nil {
		_, hi := parseBand(t, where, m[3])
		if price := parseAmount(t, where, m[2]); price.unit != hi.unit || price.value <= hi.value {
			t.Errorf("%s: %s at %s is not above %s", where, m[1], m[2], m[3])
		}
	}

	steps := stepRE.FindAllStringSubmatch(idea.Timing, -1)
	if len(steps) == 0 && !strings.HasSuffix(idea.Title, " on social") {
		return false
	}
	om := occasionRE.FindStringSubmatch(idea.WhyNow)
	if om == nil {
		t.Errorf("%s: a dated plan that names no occasion: %q", where, idea.WhyNow)
		return false
	}
	when := om[2] + om[3]
	occasion := onOrAfter(t, where, when, today)
	if !occasion.After(today) {
		t.Errorf("%s: plans for %s, which is not after today", where, om[1])
	}
	if !slices.ContainsFunc(b.Occasions, func(o BriefDate) bool { return o.Name == om[1] && o.Date == occasion.Format(time.DateOnly) }) {
		t.Errorf("%s: plans for %s on %s, not a date of the calendar %v", where, om[1], occasion.Format(time.DateOnly), b.Occasions)
	}
	for _, d := range anyDayRE.FindAllString(idea.Timing, -1) {
		if !onOrAfter(t, where, d, today).Before(occasion) {
			t.Errorf("%s: a step on %s, not before %s on %s: %q", where, d, om[1], when, idea.Timing)
		}
	}
	if len(steps) == 0 { // a social countdown: its posts in order
		var last time.Time
		for _, d := range anyDayRE.FindAllString(idea.Timing, -1) {
			day := onOrAfter(t, where, d, today)
			if !day.After(last) {
				t.Errorf("%s: posts out of order: %q", where, idea.Timing)
			}
			last = day
		}
		return true
	}
	order := map[string]int{"send": 0, "reminder": 1, "last order date": 2}
	var prev time.Time
	prevLabel := ""
	for i, s := range steps {
		label := strings.ToLower(s[1])
		day := onOrAfter(t, where, s[2], today)
		if i == 0 && label != "send" {
			t.Errorf("%s: the plan does not start by sending: %q", where, idea.Timing)
		}
		// A reminder comes after the send; the last order date is not
		// before either (an email sent on the last day to order is fine).
		if i > 0 && (order[label] <= order[prevLabel] || day.Before(prev) || (label == "reminder" && !day.After(prev))) {
			t.Errorf("%s: %s %s comes after %s %s: %q", where, label, s[2], prevLabel, prev.Format("Mon Jan 2"), idea.Timing)
		}
		if label == "last order date" {
			ob := orderByRE.FindStringSubmatch(idea.Body)
			if ob == nil || ob[1] != s[2] {
				t.Errorf("%s: the last order date is %s but the email says %q", where, s[2], idea.Body)
			}
		}
		prev, prevLabel = day, label
	}
	return true
}

// checkPlanFacts checks the plan an idea carries: it holds
// (domain.CampaignPlan.Check) against the store's catalogue, counts from
// the store's own day, plans an occasion of the calendar, and its words
// name exactly its days.
func checkPlanFacts(t *testing.T, where string, idea IdeaText, b Brief, now time.Time) {
	t.Helper()
	p := idea.Plan
	where = fmt.Sprintf("%s, idea %q", where, idea.Title)
	if err := p.Check(b.catalogue()); err != nil {
		t.Errorf("%s: the plan does not hold:\n%v\n%+v", where, err, *p)
	}
	if !p.Today.Equal(domain.StoreDay(now)) {
		t.Errorf("%s: the plan counts from %s, the store's day is %s", where, p.Today.Format(time.DateOnly), domain.StoreDay(now).Format(time.DateOnly))
	}
	if !slices.ContainsFunc(b.Occasions, func(o BriefDate) bool { return o.Name == p.Occasion && o.Date == p.Date.Format(time.DateOnly) }) {
		t.Errorf("%s: plans %s on %s, not in the calendar %v", where, p.Occasion, p.Date.Format(time.DateOnly), b.Occasions)
	}
	var want []string
	for _, d := range append([]time.Time{p.Send, p.Reminder, p.LastOrder}, p.Posts...) {
		if !d.IsZero() {
			want = append(want, d.Format("Mon Jan 2"))
		}
	}
	if got := anyDayRE.FindAllString(idea.Timing, -1); !slices.Equal(got, want) {
		t.Errorf("%s: the timing names %v, the plan %v: %q", where, got, want, idea.Timing)
	}
	var names []string
	for _, k := range p.Picks {
		names = append(names, k.Name)
	}
	if !slices.Equal(names, idea.Products) {
		t.Errorf("%s: features %v, the plan picks %v", where, idea.Products, names)
	}
	if claims := strings.Contains(idea.WhyNow, "in that band"); claims != p.PicksInBand {
		t.Errorf("%s: the words claim the band: %v, the plan: %v", where, claims, p.PicksInBand)
	}
}
