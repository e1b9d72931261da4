// Package engine adapts the website analysis engine to the app's Engine
// interface, and builds it from the service's settings, so the app never
// depends on how sites are read or how text is written.
package engine

import (
	"context"
	"errors"
	"time"

	"uplift.dev/platform/clock"
	review "uplift.dev/review/domain"
	"uplift.dev/review/internal/analysis"
	"uplift.dev/review/internal/analysis/lab"
	"uplift.dev/review/internal/analysis/write"
	"uplift.dev/review/internal/domain"
)

// Settings choose how the engine writes text and what it may fetch: the
// same environment for the service and its worker.
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
	// Lab measures each review's home page in Chromium (the worker); nil
	// reads without a browser (the service's quick reads).
	Lab *lab.Options
	// Now is the service's clock (analysis.Options.Now).
	Now clock.Clock
}

// Engine implements app.Engine over *analysis.Analyzer.
type Engine struct{ a *analysis.Analyzer }

// New builds the engine from s.
func New(s Settings) Engine {
	// With a browser at hand, a catalogue drawn by JavaScript is read too.
	o := analysis.Options{AllowLoopback: s.AllowLoopback, AllowOrigins: s.AllowOrigins, Lab: s.Lab, RenderJS: s.Lab != nil, Now: s.Now}
	if s.LLMModel != "" {
		o.Generator = &write.OpenAI{BaseURL: s.LLMBaseURL, APIKey: s.LLMAPIKey, Model: s.LLMModel}
	}
	return Engine{analysis.New(o)}
}

// unreadable says why err kept the site from being read.
func unreadable(err error) error {
	return &domain.UnreadableError{Reason: analysis.Reason(err), Problem: analysis.Problem(err), Err: err}
}

// Analyze implements app.Engine: the review with plans dated in loc; a
// site that cannot be read is a *domain.UnreadableError saying why in
// words for its owner.
func (e Engine) Analyze(ctx context.Context, siteURL string, previous *review.Review, loc *time.Location, progress func(int, string)) (review.Analysis, error) {
	a, err := e.a.AnalyzeIn(ctx, siteURL, previous, loc, progress)
	if err != nil && errors.Is(err, analysis.ErrUnreadable) {
		return a, unreadable(err)
	}
	return a, err
}

// Check implements app.Engine: any failure but the caller's own deadline
// or cancellation is an unreadable site, for the message under the
// profile's Website.
func (e Engine) Check(ctx context.Context, siteURL string) error {
	err := e.a.Check(ctx, siteURL)
	if err == nil || ctx.Err() != nil {
		return err
	}
	return unreadable(err)
}

// Score implements app.Engine.
func (e Engine) Score(ctx context.Context, siteURL string) (review.Review, error) {
	r, err := e.a.Score(ctx, siteURL)
	if err == nil || ctx.Err() != nil || !errors.Is(err, analysis.ErrUnreadable) {
		return r, err
	}
	return r, unreadable(err)
}

// Products implements app.Engine: the products a review reads, with their
// photos.
func (e Engine) Products(ctx context.Context, siteURL string) ([]domain.Product, error) {
	cat, err := e.a.Catalogue(ctx, siteURL)
	if errors.Is(err, analysis.ErrUnreadable) {
		return nil, unreadable(err)
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

// FetchImage implements app.Engine through the guarded fetcher.
func (e Engine) FetchImage(ctx context.Context, imageURL string, limit int64) ([]byte, error) {
	data, err := e.a.FetchImage(ctx, imageURL, limit)
	if errors.Is(err, analysis.ErrTooLarge) {
		return nil, domain.ErrImageTooLarge
	}
	return data, err
}

// NextOccasion implements app.Engine: the soonest seasonal date after now
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
