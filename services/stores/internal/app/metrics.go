package app

import (
	"context"
	"fmt"
	"time"

	"uplift.dev/platform/schedule"
	"uplift.dev/stores/internal/domain"
)

// MaxRangeDays bounds one metrics request.
const MaxRangeDays = 400

// Sources of a category's numbers, as the API names them.
const (
	SourceNone          = "none"
	SourceShopify       = "shopify"
	SourceImport        = "import"
	SourceShopifyImport = "shopify+import"
	// SourceWooCommerce: a WooCommerce store's numbers, counted by
	// WooCommerce Analytics' rules (domain.WooSales, PlatformWooCommerce).
	SourceWooCommerce       = "woocommerce"
	SourceWooCommerceImport = "woocommerce+import"
)

// Metrics are a range's numbers.
type Metrics struct {
	Currency, Timezone, Source string
	// Platform is whose rules the numbers follow (the average order value,
	// the formulas): WooCommerce's for a WooCommerce store, else Shopify's.
	Platform domain.Platform
	// From and To are the range; Today is the store's day now, which a
	// range may include while it is not over.
	From, To, Today domain.Date
	// FirstOrderDay is the day of the store's first counted order (zero
	// when none).
	FirstOrderDay domain.Date
	// Days has every day of the range, zero where nothing happened.
	Days   []domain.DayTotals
	Totals domain.DayTotals
	// Shopify holds Shopify's own total sales for the days it reported.
	Shopify map[domain.Date]domain.Money
	// SessionsSource is where Sessions and conversion come from; with
	// SessionsGA4, each day's CompletedSessions are GA4's purchases, so
	// conversion is GA4 purchases ÷ GA4 sessions.
	SessionsSource domain.SessionsSource
	// GA4 describes the property the sessions come from (SessionsGA4).
	GA4 *GA4Use
}

// GA4Use is what a range's numbers say of the GA4 property behind them.
type GA4Use struct {
	PropertyID, PropertyName, Timezone string
	Sampled, Thresholded               bool
	// Purchases are GA4's over the range; nil unless every day has them.
	Purchases *int64
}

// GetMetrics returns every day of [from, to] and the totals; with lastDays
// instead, the last whole days in the store's time zone (today left out).
func (a *App) GetMetrics(ctx context.Context, categoryID, from, to string, lastDays int) (Metrics, error) {
	if err := a.authorize(ctx, categoryID); err != nil {
		return Metrics{}, err
	}
	if lastDays != 0 {
		if from != "" || to != "" {
			return Metrics{}, &domain.ValidationError{Field: "lastDays", Message: "Send either lastDays or from and to, not both."}
		}
		if lastDays < 1 || lastDays > MaxRangeDays {
			return Metrics{}, &domain.ValidationError{Field: "lastDays",
				Message: fmt.Sprintf("lastDays must be between 1 and %d.", MaxRangeDays)}
		}
		st, err := a.repo.Store(ctx, categoryID)
		if err != nil {
			return Metrics{}, err
		}
		f, t := domain.LastWholeDays(a.now(), StoreLocation(st.Timezone), lastDays)
		return a.metrics(ctx, categoryID, f, t)
	}
	f, t, err := parseRange(from, to)
	if err != nil {
		return Metrics{}, err
	}
	return a.metrics(ctx, categoryID, f, t)
}

func (a *App) metrics(ctx context.Context, categoryID string, from, to domain.Date) (Metrics, error) {
	stored, err := a.repo.RangeNumbers(ctx, categoryID, from, to)
	if err != nil {
		return Metrics{}, err
	}
	n := domain.DaysBetween(from, to) + 1
	days := make([]domain.DayTotals, 0, n)
	for d := from; !d.After(to); d = d.AddDays(1) {
		days = append(days, domain.DayTotals{Date: d})
	}
	// Each stored day in its place; a later copy of a day wins. The range
	// is whole and in order, so a day's place is its distance from from.
	for _, st := range stored.Days {
		if i := domain.DaysBetween(from, st.Date); i >= 0 && i < len(days) {
			days[i] = st
		}
	}
	st := stored.Store
	today := domain.Today(a.now(), StoreLocation(st.Timezone))
	sessions := domain.SessionsNone
	for _, d := range days {
		if d.Sessions != nil {
			sessions = domain.SessionsShopify
			break
		}
	}
	use, err := a.overlayGA4(ctx, categoryID, from, to, days)
	if err != nil {
		return Metrics{}, err
	}
	if use != nil {
		sessions = domain.SessionsGA4
	}
	futureDaysHadNoSessions(days, today)
	src, platform := source(stored.Connected, stored.Imported), domain.PlatformShopify
	if stored.WooCommerce {
		src, platform = SourceWooCommerce, domain.PlatformWooCommerce
		if stored.Imported {
			src = SourceWooCommerceImport
		}
	}
	return Metrics{Currency: st.Currency, Timezone: st.Timezone, Source: src, Platform: platform,
		From: from, To: to, Today: today, FirstOrderDay: stored.FirstDay,
		Days: days, Totals: domain.SumTotals(days), Shopify: stored.Shopify,
		SessionsSource: sessions, GA4: ga4Purchases(use, days)}, nil
}

// overlayGA4 puts a GA4 property's days in place of the store's sessions
// when the category's sessions come from GA4 (any store with a property
// picked, except a Shopify store that keeps Shopify's sessions): each
// day's sessions are GA4's sessions and its completed sessions GA4's
// purchases. A day GA4 has not reported has none, never an estimate.
func (a *App) overlayGA4(ctx context.Context, categoryID string, from, to domain.Date, days []domain.DayTotals) (*GA4Use, error) {
	if a.ga4 == nil {
		return nil, nil
	}
	c, stored, err := a.ga4.repo.GA4Days(ctx, categoryID, from, to)
	if err != nil || c == nil || c.PropertyID == "" || c.SessionsSource != domain.SessionsGA4 {
		return nil, err
	}
	for i := range days {
		days[i].Sessions, days[i].CompletedSessions = nil, nil
	}
	for _, d := range stored {
		if i := domain.DaysBetween(from, d.Day); i >= 0 && i < len(days) {
			s, p := d.Sessions, d.Purchases
			days[i].Sessions, days[i].CompletedSessions = &s, &p
		}
	}
	return &GA4Use{PropertyID: c.PropertyID, PropertyName: c.PropertyName, Timezone: c.PropertyTimezone,
		Sampled: c.Sampled, Thresholded: c.Thresholded}, nil
}

// ga4Purchases adds GA4's purchases over the range to use, when every day
// has them.
func ga4Purchases(use *GA4Use, days []domain.DayTotals) *GA4Use {
	if use == nil {
		return nil
	}
	if t := domain.SumTotals(days); t.CompletedSessions != nil {
		p := *t.CompletedSessions
		use.Purchases = &p
	}
	return use
}

// futureDaysHadNoSessions gives the days after the store's today zero
// sessions when Shopify reports sessions for the store at all: nobody has
// visited tomorrow yet, and a range that ends in the store's future (a
// browser ahead of the shop's time zone asks for one) must not lose its
// conversion rate to days that cannot have data.
func futureDaysHadNoSessions(days []domain.DayTotals, today domain.Date) {
	reported := false
	for _, d := range days {
		reported = reported || d.Sessions != nil
	}
	if !reported {
		return
	}
	for i := range days {
		if days[i].Date.After(today) && days[i].Sessions == nil {
			var none, noneCompleted int64
			days[i].Sessions, days[i].CompletedSessions = &none, &noneCompleted
		}
	}
}

// source names where the category's numbers come from.
func source(connected, imported bool) string {
	switch {
	case connected && imported:
		return SourceShopifyImport
	case connected:
		return SourceShopify
	case imported:
		return SourceImport
	}
	return SourceNone
}

// Analytics is what the Analytics page shows in one answer: a range's
// numbers, the totals of the period just before it and its best products.
type Analytics struct {
	Metrics
	// Previous are the totals of PreviousFrom to PreviousTo, the days just
	// before the range, as many as it has; nil unless asked for and the
	// store has numbers.
	Previous                 *domain.DayTotals
	PreviousFrom, PreviousTo domain.Date
	// Top are the range's best products by net sales (asked for, and the
	// store has numbers).
	Top []ProductSales
}

// AnalyticsExtras says what GetAnalytics adds to a range's numbers.
type AnalyticsExtras struct {
	// Previous asks for the totals of the period just before the range.
	Previous bool
	// TopProducts (0–50) asks for that many best products; 0 for none.
	TopProducts int
}

// GetAnalytics is GetMetrics with the extras asked for, under one access
// check: the page's three questions (the range, the period before it, the
// best products) in one request. A store without numbers gets no extras:
// there is nothing to compare or rank.
func (a *App) GetAnalytics(ctx context.Context, categoryID, from, to string, lastDays int, extras AnalyticsExtras) (Analytics, error) {
	if extras.TopProducts < 0 || extras.TopProducts > maxTopProducts {
		return Analytics{}, &domain.ValidationError{Field: "topProducts",
			Message: fmt.Sprintf("topProducts must be between 0 and %d.", maxTopProducts)}
	}
	m, err := a.GetMetrics(ctx, categoryID, from, to, lastDays)
	if err != nil || m.Source == SourceNone {
		return Analytics{Metrics: m}, err
	}
	out := Analytics{Metrics: m}
	if extras.Previous {
		n := domain.DaysBetween(m.From, m.To) + 1
		out.PreviousFrom, out.PreviousTo = m.From.AddDays(-n), m.From.AddDays(-1)
		prev, err := a.metrics(ctx, categoryID, out.PreviousFrom, out.PreviousTo)
		if err != nil {
			return Analytics{}, err
		}
		out.Previous = &prev.Totals
	}
	if extras.TopProducts > 0 {
		if out.Top, err = a.topProducts(ctx, categoryID, m.From, m.To, extras.TopProducts); err != nil {
			return Analytics{}, err
		}
	}
	return out, nil
}

// maxTopProducts bounds one ranking.
const maxTopProducts = 50

// TopProducts ranks products by net sales in [from, to].
func (a *App) TopProducts(ctx context.Context, categoryID, from, to string, limit int) (string, []ProductSales, error) {
	if err := a.authorize(ctx, categoryID); err != nil {
		return "", nil, err
	}
	f, t, err := parseRange(from, to)
	if err != nil {
		return "", nil, err
	}
	switch {
	case limit == 0:
		limit = 10
	case limit < 0 || limit > maxTopProducts:
		return "", nil, &domain.ValidationError{Field: "limit", Message: fmt.Sprintf("limit must be between 1 and %d.", maxTopProducts)}
	}
	st, err := a.repo.Store(ctx, categoryID)
	if err != nil {
		return "", nil, err
	}
	products, err := a.topProducts(ctx, categoryID, f, t, limit)
	return st.Currency, products, err
}

func (a *App) topProducts(ctx context.Context, categoryID string, from, to domain.Date, limit int) ([]ProductSales, error) {
	products, err := a.repo.TopProducts(ctx, categoryID, from, to, limit)
	for i := range products {
		products[i].Title = domain.ClipTitle(products[i].Title) // titles stored before they were bounded
	}
	return products, err
}

// DailyReport is the daily business report with where it came from.
type DailyReport struct {
	domain.DailyReport
	HasData            bool
	Date               domain.Date
	Currency, Timezone string
	Source             string
	// BestSeller is the day's top product by net sales, if any sold.
	BestSeller string
	// Action is the one suggested action (domain.DailyReport.SuggestedAction).
	Action string
}

// GetDailyReport compares a day (yesterday in the store's time zone unless
// date is given) with the seven days before it.
func (a *App) GetDailyReport(ctx context.Context, categoryID, date string) (DailyReport, error) {
	if err := a.authorize(ctx, categoryID); err != nil {
		return DailyReport{}, err
	}
	st, err := a.repo.Store(ctx, categoryID)
	if err != nil {
		return DailyReport{}, err
	}
	day := domain.DateOf(a.now().In(StoreLocation(st.Timezone))).AddDays(-1)
	if date != "" {
		if day, err = domain.ParseDate(date); err != nil {
			return DailyReport{}, &domain.ValidationError{Field: "date", Message: "date must be a day like 2026-11-23."}
		}
	}
	return a.dailyReport(ctx, categoryID, day)
}

// dailyReport compares day with the seven days before it; the caller has
// checked who may see it.
func (a *App) dailyReport(ctx context.Context, categoryID string, day domain.Date) (DailyReport, error) {
	m, err := a.metrics(ctx, categoryID, day.AddDays(-7), day)
	if err != nil {
		return DailyReport{}, err
	}
	out := DailyReport{Date: day, Currency: m.Currency, Timezone: m.Timezone, Source: m.Source}
	if m.Source == SourceNone {
		return out, nil
	}
	out.HasData = true
	out.DailyReport = domain.CompareDayFor(m.Platform, m.Days[7], m.Days[:7], m.Currency)
	if m.GA4 != nil {
		// Sessions and conversion are GA4's: the report says so.
		words := domain.GA4Formulas(m.GA4.PropertyName)
		for i := range out.Metrics {
			if f, ok := words[out.Metrics[i].Key]; ok {
				out.Metrics[i].Formula = f
			}
		}
	}
	if p, err := a.repo.TopProducts(ctx, categoryID, day, day, 1); err == nil && len(p) > 0 && p[0].NetSales > 0 {
		out.BestSeller = domain.ClipTitle(p[0].Title)
	} else if err != nil {
		return DailyReport{}, err
	}
	out.Action = out.SuggestedAction(out.BestSeller)
	return out, nil
}

// StoreLocation is the location a store's days are counted in: its IANA
// zone, the fixed offset an imported file carried, or UTC when unknown.
func StoreLocation(tz string) *time.Location {
	if loc, _, ok := schedule.Zone(tz); ok {
		return loc
	}
	return time.UTC
}

func parseRange(from, to string) (domain.Date, domain.Date, error) {
	f, err := domain.ParseDate(from)
	if err != nil {
		return domain.Date{}, domain.Date{}, &domain.ValidationError{Field: "from", Message: "from must be a day like 2026-11-01."}
	}
	t, err := domain.ParseDate(to)
	if err != nil {
		return domain.Date{}, domain.Date{}, &domain.ValidationError{Field: "to", Message: "to must be a day like 2026-11-30."}
	}
	if t.Before(f) {
		return domain.Date{}, domain.Date{}, &domain.ValidationError{Field: "to", Message: "to must not be before from."}
	}
	if domain.DaysBetween(f, t)+1 > MaxRangeDays {
		return domain.Date{}, domain.Date{}, &domain.ValidationError{Field: "to",
			Message: fmt.Sprintf("A range can span at most %d days.", MaxRangeDays)}
	}
	return f, t, nil
}
