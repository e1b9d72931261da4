package app

import (
	"context"
	"errors"

	"uplift.dev/categories/internal/domain"
)

// ReviewRequest is a ReviewRequested event as the app needs it.
type ReviewRequest struct {
	CategoryID, ReportID, SiteURL string
}

// RunReview makes the report a ReviewRequested asked for: it reads the site,
// records progress as it goes and stores the result, or a failure people can
// read. It does nothing for a report that is finished already or that a
// newer report has replaced, so redelivery and out-of-date requests are
// harmless.
//
// A returned error means "try again later" (e.g. shutting down); a site that
// cannot be read is a FAILED report, not an error.
func (a *App) RunReview(ctx context.Context, req ReviewRequest) error {
	rep, err := a.repo.Report(ctx, req.ReportID)
	if errors.Is(err, domain.ErrNotFound) {
		a.log.WarnContext(ctx, "review requested for an unknown report; dropped", "report", req.ReportID)
		return nil
	}
	if err != nil {
		return err
	}
	if rep.Status != domain.StatusGenerating || rep.CategoryID != req.CategoryID {
		return nil
	}
	cat, err := a.repo.Get(ctx, rep.CategoryID)
	if errors.Is(err, domain.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	latest, err := a.repo.LatestReport(ctx, cat.ID)
	if err != nil {
		return err
	}
	if latest == nil || latest.ID != rep.ID || cat.SiteURL != rep.SiteURL {
		return a.repo.FailReview(ctx, cat.ID, rep.ID, domain.SupersededMessage)
	}
	var previous *domain.Review
	prev, err := a.repo.LatestReadyReport(ctx, cat.ID)
	if err != nil {
		return err
	}
	// Only a review of the same site says what is new, fixed or still open.
	if prev != nil && prev.SiteURL == rep.SiteURL {
		previous = prev.Review
	}

	rctx, cancel := context.WithTimeout(ctx, a.opts.ReviewTimeout)
	defer cancel()
	progress := func(pct int, step string) {
		if err := a.repo.ReviewProgress(ctx, cat.ID, rep.ID, domain.ClampProgress(pct), step); err != nil {
			a.log.WarnContext(ctx, "review progress not recorded", "report", rep.ID, "err", err)
		}
	}
	progress(0, "Starting the review")
	analysis, err := a.analyzer.Analyze(rctx, rep.SiteURL, previous, progress)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		a.log.WarnContext(ctx, "review failed", "category", cat.ID, "report", rep.ID, "site", rep.SiteURL, "err", err)
		return a.repo.FailReview(ctx, cat.ID, rep.ID, domain.FailureMessage)
	}
	if analysis.Review.SiteURL == "" {
		analysis.Review.SiteURL = rep.SiteURL
	}
	done, err := a.repo.FinishReview(ctx, cat.ID, rep.ID, analysis)
	if err != nil {
		return err
	}
	a.log.InfoContext(ctx, "review finished", "category", cat.ID, "report", rep.ID, "score", analysis.Review.Score, "current", done)
	return nil
}
