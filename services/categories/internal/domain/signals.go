package domain

import (
	"fmt"
	"time"

	"uplift.dev/platform/money"
	review "uplift.dev/review/domain"
)

// StoreSignals are what the store's own numbers say as of one store-local
// day, as the stores service publishes them (StoreSignalsUpdated): the
// latest per category is kept, and the insights and campaign ideas are
// grounded in them beside what the website review finds. Money is in minor
// units of Currency, CurrencyDecimals decimals to the unit.
type StoreSignals struct {
	CategoryID       string
	Currency         string
	CurrencyDecimals int
	// AsOf is the store-local day the signals describe (midnight UTC of
	// that date); OccurTime is when the stores service computed them.
	AsOf      time.Time
	OccurTime time.Time
	// BestSeller is nil when nothing sold in the 7 days to AsOf.
	BestSeller *StoreBestSeller
	// Falling is nil when no product's sales fell on a meaningful base.
	Falling *StoreFallingProduct
	// UnusualHeadline is the daily report's headline for AsOf when any of
	// its numbers was unusual; empty otherwise.
	UnusualHeadline string
	// TimeZone is the store's zone: the connected shop's IANA name or an
	// imported file's fixed offset ("-05:00"); empty when unknown.
	TimeZone string
}

// StoreBestSeller is the product with the highest net sales in the 7 days to AsOf.
type StoreBestSeller struct {
	Title    string
	NetSales int64
	Quantity int64
}

// StoreFallingProduct is the product whose net sales fell the most over the
// 14 days to AsOf against the 14 before (the stores service's rule: at
// least 5 units before and a fall of at least 30 %).
type StoreFallingProduct struct {
	Title         string
	Before, After int64
	Percent       int
}

// Freshness of store signals: the stores service publishes them after every
// import and sync that saved orders, so a store that stopped sending orders
// leaves them to age. The week's insights are shown for a week after AsOf,
// the one-day headline for two days (a day of slack for time zones).
const (
	storeWeekFreshDays = 7
	storeDayFreshDays  = 2
)

// ValidateStoreSignals checks signals from an event: a category id, a day,
// and a currency's decimals that can be right (ISO 4217 has 0 to 4).
func ValidateStoreSignals(s StoreSignals) error {
	switch {
	case ValidateCategoryID(s.CategoryID) != nil:
		return &ValidationError{Field: "categoryId", Message: "categoryId is not a valid id."}
	case s.AsOf.IsZero():
		return &ValidationError{Field: "asOf", Message: "asOf must be a day like 2026-11-23."}
	case s.CurrencyDecimals < 0 || s.CurrencyDecimals > 4:
		return &ValidationError{Field: "currencyDecimals", Message: "currencyDecimals must be 0 to 4."}
	}
	return nil
}

// NewerThan reports whether s should replace o: a later day, or the same
// day computed later. The same signals again (or older ones arriving late)
// change nothing, so publishing twice is harmless.
func (s StoreSignals) NewerThan(o StoreSignals) bool {
	if !s.AsOf.Equal(o.AsOf) {
		return s.AsOf.After(o.AsOf)
	}
	return s.OccurTime.After(o.OccurTime)
}

func (s StoreSignals) money(v int64) string {
	return FormatMinorUnits(v, s.CurrencyDecimals, s.Currency)
}

// ageDays is how many calendar days lie between AsOf and now (in UTC).
func (s StoreSignals) ageDays(now time.Time) int {
	y, m, d := now.UTC().Date()
	today := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	return int(today.Sub(s.AsOf).Hours() / 24)
}

// StoreInsights are the insights the store's numbers give, in the order a
// store owner should read them: the week's best seller, the product whose
// sales fell, and the last day's unusual change. Signals too old to speak
// of "this week" (or of yesterday) give none; nil signals give none.
func StoreInsights(s *StoreSignals, now time.Time) []Insight {
	if s == nil {
		return nil
	}
	age := s.ageDays(now)
	asOf := s.AsOf.Format(dayLayout)
	var out []Insight
	if b := s.BestSeller; b != nil && age <= storeWeekFreshDays {
		out = append(out, Insight{
			ID:   "store-best-seller-" + s.AsOf.Format(time.DateOnly),
			Text: fmt.Sprintf("Your best seller this week: %s, %s in net sales.", b.Title, s.money(b.NetSales)),
			Evidence: fmt.Sprintf("%d sold in the 7 days to %s, from your store's orders (net sales = gross sales − discounts − returns).",
				b.Quantity, asOf),
		})
	}
	if f := s.Falling; f != nil && age <= storeWeekFreshDays {
		out = append(out, Insight{
			ID:   "store-falling-product-" + s.AsOf.Format(time.DateOnly),
			Text: fmt.Sprintf("Sales of %s fell %d %% over the last two weeks.", f.Title, f.Percent),
			Evidence: fmt.Sprintf("%s in net sales in the 14 days to %s, against %s in the 14 days before, from your store's orders.",
				s.money(f.After), asOf, s.money(f.Before)),
		})
	}
	if h := s.UnusualHeadline; h != "" && age <= storeDayFreshDays {
		out = append(out, Insight{
			ID:       "store-daily-report-" + s.AsOf.Format(time.DateOnly),
			Text:     h,
			Evidence: fmt.Sprintf("Your daily business report for %s: that day against the 7 days before it.", asOf),
		})
	}
	return out
}

// Topics of the store's campaign ideas: an idea is about one product in one
// role, and keeps its id while that stays so.
const (
	TopicBestSeller = "best-seller:"
	TopicFalling    = "falling:"
)

// StoreIdeas are the campaign ideas the signals suggest: feature the best
// seller, and bring back the product whose sales fell, unless it is the
// best seller too (telling both would contradict itself). Each carries its
// Topic; ids and times are the repository's.
func StoreIdeas(c Category, s StoreSignals) []Idea {
	store := c.Name
	if store == "" {
		store = "The team"
	}
	asOf := s.AsOf.Format(dayLayout)
	var out []Idea
	if b := s.BestSeller; b != nil {
		out = append(out, Idea{
			Topic:   TopicBestSeller + b.Title,
			Title:   "Feature your best seller: " + b.Title,
			Channel: "email",
			WhyNow: fmt.Sprintf("%s was your best seller in the 7 days to %s: %d sold, %s in net sales. More eyes on what already sells is the surest return on a campaign.",
				b.Title, asOf, b.Quantity, s.money(b.NetSales)),
			SubjectLine: "Our customers' favourite: " + b.Title,
			Body: fmt.Sprintf("Hi {first_name},\n\n%s is the one our customers keep choosing this week, and we think you will see why.\n\n[One line on what makes it special, and a photo of it in use.]\n\n[Shop %s]\n\n%s",
				b.Title, b.Title, store),
			Products: []string{b.Title},
			Timing:   "Send this week on a mid-week morning, and show it first on your home page while it keeps selling.",
		})
	}
	if f := s.Falling; f != nil && (s.BestSeller == nil || s.BestSeller.Title != f.Title) {
		out = append(out, Idea{
			Topic:   TopicFalling + f.Title,
			Title:   "Bring back " + f.Title,
			Channel: "email",
			WhyNow: fmt.Sprintf("Sales of %s fell %d %% over the last two weeks: %s in net sales in the 14 days to %s, against %s in the 14 days before. A reminder to past buyers and visitors costs little before it fades from view.",
				f.Title, f.Percent, s.money(f.After), asOf, s.money(f.Before)),
			SubjectLine: "Still thinking about " + f.Title + "?",
			Body: fmt.Sprintf("Hi {first_name},\n\n%s is still here, and still one of our favourites.\n\n[Say what is new: a restock, a colour, a way to use it.]\n\n[See %s]\n\n%s",
				f.Title, f.Title, store),
			Products: []string{f.Title},
			Timing:   "Send within the week; if sales stay down, check its stock, price and product page first.",
		})
	}
	return out
}

// PlanStoreIdeas compares the store ideas current now with those the new
// signals suggest: an idea whose topic is still suggested stays (same id,
// so a link to it keeps working), one whose topic is not is retired, and a
// new topic gets a new idea.
func PlanStoreIdeas(current, suggested []Idea) (add []Idea, retire []string) {
	has := func(ideas []Idea, topic string) bool {
		for _, i := range ideas {
			if i.Topic == topic {
				return true
			}
		}
		return false
	}
	for _, c := range current {
		if !has(suggested, c.Topic) {
			retire = append(retire, c.ID)
		}
	}
	for _, s := range suggested {
		if !has(current, s.Topic) {
			add = append(add, s)
		}
	}
	return add, retire
}

// StoreChange is what new signals change, written atomically.
type StoreChange struct {
	// Signals replace the stored ones; nil changes nothing at all.
	Signals *StoreSignals
	// AddIdeas are new store ideas (Topic set); RetireIdeas are ids of
	// current store ideas that no longer apply (they still open by id).
	AddIdeas    []Idea
	RetireIdeas []string
}

// dayLayout writes a day for people: "Sun Nov 22".
const dayLayout = review.DayLayout

// CurrencySymbol returns the symbol written before amounts of a currency,
// and whether it has one.
func CurrencySymbol(currency string) (string, bool) { return money.Symbol(currency) }

// FormatMinorUnits writes an amount in minor units for people, exactly:
// "$1,234.50", "¥1,200", "-€5.00", "16,940.00 PKR".
func FormatMinorUnits(v int64, decimals int, currency string) string {
	return money.Text(money.Decimal(v, decimals), currency)
}
