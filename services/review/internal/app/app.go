// Package app is the review service's use cases: the quick reads of a
// website its callers wait for (the check on save, the public score, the
// studio's catalogue and photos), the seasonal calendar, and the reviews
// categories asks for (RunReview).
package app

import (
	"context"
	"log/slog"
	"time"

	"uplift.dev/platform/clock"
	"uplift.dev/review/internal/domain"

	review "uplift.dev/review/domain"
)

// Engine reads websites (the analysis engine). A site that cannot be read
// is a *domain.UnreadableError.
type Engine interface {
	// Check reads the site's home page, quickly.
	Check(ctx context.Context, siteURL string) error
	// Analyze reviews the site and writes the summary, insights and ideas,
	// dating campaign plans by the calendar in loc (the store's zone).
	Analyze(ctx context.Context, siteURL string, previous *review.Review, loc *time.Location, progress func(pct int, step string)) (review.Analysis, error)
	// Score reviews the site's pages only: no browser, no text written.
	Score(ctx context.Context, siteURL string) (review.Review, error)
	// Products reads the store's products.
	Products(ctx context.Context, siteURL string) ([]domain.Product, error)
	// FetchImage reads one photo of at most limit bytes;
	// domain.ErrImageTooLarge past it.
	FetchImage(ctx context.Context, imageURL string, limit int64) ([]byte, error)
	// NextOccasion is the soonest seasonal date after now for the store at
	// siteURL; false when none is known.
	NextOccasion(now time.Time, siteURL string) (name string, date time.Time, ok bool)
}

// App is the review service's use cases.
type App struct {
	engine Engine
	runs   Runs
	opts   Options
	log    *slog.Logger
	now    clock.Clock
}

// New returns the use cases reading websites with engine; reviews need
// WithRuns too.
func New(engine Engine, log *slog.Logger) *App {
	return &App{engine: engine, log: log, now: clock.Real}
}

// WithClock returns the use cases dating things by c.
func (a *App) WithClock(c clock.Clock) *App {
	b := *a
	b.now = c
	return &b
}

// CheckSite is nil when the site's home page can be read, else a
// *domain.UnreadableError saying why.
func (a *App) CheckSite(ctx context.Context, siteURL string) error {
	return a.engine.Check(ctx, siteURL)
}

// ScoreSite is the site's review without a browser or written text.
func (a *App) ScoreSite(ctx context.Context, siteURL string) (review.Review, error) {
	return a.engine.Score(ctx, siteURL)
}

// ReadCatalogue lists the store's products.
func (a *App) ReadCatalogue(ctx context.Context, siteURL string) ([]domain.Product, error) {
	return a.engine.Products(ctx, siteURL)
}

// FetchImage reads one product photo of at most limit bytes.
func (a *App) FetchImage(ctx context.Context, imageURL string, limit int64) ([]byte, error) {
	return a.engine.FetchImage(ctx, imageURL, limit)
}

// NextOccasion is the soonest seasonal date after the moment given (the
// service's now when zero), in after's zone, for the store at siteURL.
func (a *App) NextOccasion(after time.Time, siteURL string) (string, time.Time, bool) {
	if after.IsZero() {
		after = a.now().In(after.Location())
	}
	return a.engine.NextOccasion(after, siteURL)
}
