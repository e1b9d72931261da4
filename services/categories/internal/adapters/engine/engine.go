// Package engine adapts the website analysis engine to the app's Analyzer
// interface, and builds it from the service's settings, so the app never
// depends on how sites are read or how text is written.
package engine

import (
	"context"
	"errors"
	"fmt"
	"time"

	"uplift.dev/categories/internal/domain"
	"uplift.dev/platform/clock"
	"uplift.dev/review/analysis"
	"uplift.dev/review/analysis/lab"
	"uplift.dev/review/analysis/write"
)

// Settings choose how the engine writes text and what it may fetch: the
// same environment for the API and the review worker.
type Settings struct {
	// LLMBaseURL, LLMAPIKey and LLMModel select an OpenAI-compatible model
	// for summaries and ideas; LLM_MODEL unset uses the built-in
	// deterministic generator, which needs no network.
	LLMBaseURL string `env:"LLM_BASE_URL" default:"https://api.openai.com/v1"`
	LLMAPIKey  string `env:"LLM_API_KEY" secret:"true"`
	LLMModel   string `env:"LLM_MODEL"`
	// AllowLoopback lets the website reader fetch 127.0.0.1; for tests only.
	AllowLoopback bool `env:"FETCH_ALLOW_LOOPBACK" default:"false"`
	// AllowOrigins are origins (comma-separated, "http://127.0.0.1:9400")
	// the website reader may read on loopback: a local stack's demo store;
	// everything else keeps the address policy.
	AllowOrigins []string `env:"FETCH_ALLOW_ORIGINS"`
	// Lab measures each review's home page in Chromium (the review
	// worker); nil reviews without a browser (the API).
	Lab *lab.Options
	// Now is the service's clock (analysis.Options.Now).
	Now clock.Clock
}

// Engine implements app.Analyzer over *analysis.Analyzer.
type Engine struct{ *analysis.Analyzer }

// New builds the engine from s.
func New(s Settings) Engine {
	// With a browser at hand, a catalogue drawn by JavaScript is read too.
	o := analysis.Options{AllowLoopback: s.AllowLoopback, AllowOrigins: s.AllowOrigins, Lab: s.Lab, RenderJS: s.Lab != nil, Now: s.Now}
	if s.LLMModel != "" {
		o.Generator = &write.OpenAI{BaseURL: s.LLMBaseURL, APIKey: s.LLMAPIKey, Model: s.LLMModel}
	}
	return Engine{analysis.New(o)}
}

// Analyze implements app.Analyzer: the review with plans dated in loc; a
// site that cannot be read is a *domain.UnreadableError saying why in
// words for its owner.
func (e Engine) Analyze(ctx context.Context, siteURL string, previous *domain.Review, loc *time.Location, progress func(int, string)) (domain.Analysis, error) {
	a, err := e.AnalyzeIn(ctx, siteURL, previous, loc, progress)
	if err != nil && errors.Is(err, analysis.ErrUnreadable) {
		return a, &domain.UnreadableError{Reason: analysis.Reason(err), Problem: analysis.Problem(err), Err: err}
	}
	return a, err
}

// Check implements app.Analyzer: nil when the site's home page can be
// read, else a *domain.UnreadableError saying which kind of failure it was
// and why, for the message under the profile's Website.
func (e Engine) Check(ctx context.Context, siteURL string) error {
	err := e.Analyzer.Check(ctx, siteURL)
	if err == nil || ctx.Err() != nil {
		return err
	}
	return &domain.UnreadableError{Reason: analysis.Reason(err), Problem: analysis.Problem(err), Err: err}
}

// Score implements app.Analyzer: the review only, for the public score; a
// site that cannot be read is a *domain.UnreadableError, as Check says it.
func (e Engine) Score(ctx context.Context, siteURL string) (domain.Review, error) {
	r, err := e.Analyzer.Score(ctx, siteURL)
	if err == nil || ctx.Err() != nil || !errors.Is(err, analysis.ErrUnreadable) {
		return r, err
	}
	return r, &domain.UnreadableError{Reason: analysis.Reason(err), Problem: analysis.Problem(err), Err: err}
}

// NextOccasion implements app.Calendar: the soonest seasonal date after now
// for the store at siteURL.
func (Engine) NextOccasion(now time.Time, siteURL string) (string, time.Time, bool) {
	var best *write.Occasion
	for _, o := range write.Upcoming(now, siteURL) {
		if best == nil || o.Date.Before(best.Date) {
			best = &o
		}
	}
	if best == nil {
		return "", time.Time{}, false
	}
	return best.Name, best.Date, true
}

// Products implements app.Catalogue: the products a review reads, with
// their photos.
func (e Engine) Products(ctx context.Context, siteURL string) ([]domain.Product, error) {
	cat, err := e.Analyzer.Catalogue(ctx, siteURL)
	if errors.Is(err, analysis.ErrUnreadable) {
		return nil, fmt.Errorf("%w: %w", domain.ErrUnreadableSite, err)
	}
	if err != nil {
		return nil, err
	}
	out := make([]domain.Product, 0, len(cat.Products))
	for _, p := range cat.Products {
		out = append(out, domain.Product{ID: p.ID, Name: p.Name, URL: p.URL, Price: p.Price,
			Currency: p.Currency, ImageURLs: p.ImageURLs})
	}
	return out, nil
}

// FetchImage implements app.Catalogue through the guarded fetcher.
func (e Engine) FetchImage(ctx context.Context, imageURL string, limit int64) ([]byte, error) {
	data, err := e.Analyzer.FetchImage(ctx, imageURL, limit)
	switch {
	case errors.Is(err, analysis.ErrTooLarge):
		return nil, domain.ErrProductImageSize
	case err != nil:
		return nil, fmt.Errorf("%w: %w", domain.ErrProductImageRead, err)
	}
	return data, nil
}
