package app

import (
	"context"
	"errors"
	"time"

	"uplift.dev/review/internal/domain"

	review "uplift.dev/review/domain"
)

// Runs is where review runs are claimed and their events recorded (the
// review schema and its outbox).
type Runs interface {
	// Claim takes the report's run until the time given, committed at once
	// so the website is read with no transaction open. claimed is false
	// when another run holds it; done says the report was answered already.
	Claim(ctx context.Context, req domain.ReviewRequest, until time.Time) (claimed, done bool, err error)
	// Progress records ReviewProgressed.
	Progress(ctx context.Context, req domain.ReviewRequest, pct int, step string) error
	// Complete marks the run done and records ReviewCompleted with a, in
	// one transaction.
	Complete(ctx context.Context, req domain.ReviewRequest, a review.Analysis) error
	// Fail marks the run done and records ReviewFailed with the reason, in
	// one transaction.
	Fail(ctx context.Context, req domain.ReviewRequest, reason string) error
	// Prune deletes the runs asked for before before that no run holds
	// now, answered or not, and says how many.
	Prune(ctx context.Context, before time.Time) (int64, error)
}

// Options tune the reviews; zero values take the defaults.
type Options struct {
	// ReviewTimeout bounds one review, browser included (10 min; the worker sets its own).
	ReviewTimeout time.Duration
	// ScoreTimeout bounds each competitor's review (45 s).
	ScoreTimeout time.Duration
}

// WithRuns returns the use cases running reviews with runs (the worker,
// or the service when it has none).
func (a *App) WithRuns(runs Runs, opts Options) *App {
	b := *a
	if opts.ReviewTimeout <= 0 {
		opts.ReviewTimeout = 10 * time.Minute
	}
	if opts.ScoreTimeout <= 0 {
		opts.ScoreTimeout = 45 * time.Second
	}
	b.runs, b.opts = runs, opts
	return &b
}

// ErrReviewHeld means another run holds the report's claim; try later.
var ErrReviewHeld = errors.New("another run is reviewing this report")

// claimSlack is how long past the review's own time limit a claim holds,
// so a run that is still writing its result is not overtaken.
const claimSlack = time.Minute

// RunReview makes the review a ReviewRequested asked for: it claims the
// run (committed at once), reads the site with no transaction open,
// telling categories its progress as it goes, reviews the competitors'
// sites beside it, and answers with the review or with why the site could
// not be read. A report answered already is left alone, so redelivery is
// harmless; one another run holds is ErrReviewHeld, to be retried once
// that run's claim has lapsed (it crashed) or it has answered.
//
// A returned error means "try again later" (e.g. shutting down); a site
// that cannot be read is a ReviewFailed, not an error.
func (a *App) RunReview(ctx context.Context, req domain.ReviewRequest) error {
	claimed, done, err := a.runs.Claim(ctx, req, a.now().Add(a.opts.ReviewTimeout+claimSlack))
	if err != nil || done {
		return err
	}
	if !claimed {
		return ErrReviewHeld
	}
	rctx, cancel := context.WithTimeout(ctx, a.opts.ReviewTimeout)
	defer cancel()
	progress := func(pct int, step string) {
		if err := a.runs.Progress(ctx, req, domain.ClampProgress(pct), step); err != nil {
			a.log.WarnContext(ctx, "review progress not recorded", "report", req.ReportID, "err", err)
		}
	}
	progress(0, "Starting the review")
	// Plans are dated by the store's calendar, not the server's.
	analysis, err := a.engine.Analyze(rctx, req.SiteURL, req.Previous, req.Location(), progress)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		a.log.WarnContext(ctx, "review failed", "category", req.CategoryID, "report", req.ReportID, "site", req.SiteURL, "err", err)
		reason := ""
		var ue *domain.UnreadableError
		if errors.As(err, &ue) {
			reason = ue.Reason
		}
		return a.runs.Fail(ctx, req, reason)
	}
	if analysis.Review.SiteURL == "" {
		analysis.Review.SiteURL = req.SiteURL
	}
	if len(req.Competitors) > 0 {
		progress(95, "Reviewing your competitors' websites")
		analysis.Review.Competitors = a.reviewCompetitors(rctx, req.Competitors, analysis.Review)
	}
	if err := a.runs.Complete(ctx, req, analysis); err != nil {
		return err
	}
	a.log.InfoContext(ctx, "review finished", "category", req.CategoryID, "report", req.ReportID, "score", analysis.Review.Score)
	return nil
}

// reviewCompetitors reviews each competitor's website with the same checks
// and the same guarded fetcher as the store's own (no browser: speed in
// the lab is the store's alone), one at a time, each within ScoreTimeout.
// One that cannot be read is kept with the reason, not dropped.
func (a *App) reviewCompetitors(ctx context.Context, urls []string, own review.Review) []review.CompetitorReview {
	out := make([]review.CompetitorReview, 0, len(urls))
	for _, u := range urls {
		cctx, cancel := context.WithTimeout(ctx, a.opts.ScoreTimeout)
		theirs, err := a.engine.Score(cctx, u)
		cancel()
		if err != nil {
			a.log.InfoContext(ctx, "competitor not reviewed", "site", u, "err", err)
			out = append(out, review.CompetitorReview{SiteURL: u, Error: review.CompetitorNotReadMessage})
			continue
		}
		out = append(out, review.CompareCompetitor(u, own, theirs))
	}
	return out
}
