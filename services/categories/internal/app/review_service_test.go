package app

import (
	"context"
	"errors"
	"time"

	"uplift.dev/categories/internal/domain"
)

// ReviewRequest is a ReviewRequested as these tests ask for it.
type ReviewRequest struct {
	CategoryID, ReportID, SiteURL string
}

// standInAnalyzer is a test analyzer that also reviews, as the review
// service does.
type standInAnalyzer interface {
	Analyzer
	Analyze(ctx context.Context, siteURL string, previous *domain.Review, loc *time.Location, progress func(int, string)) (domain.Analysis, error)
}

// RunReview stands in for the review service in these tests: what it does
// with a ReviewRequested (the report's site, the business's zone, its
// competitors and the last review of the same site, which the repository
// puts in the event), answered through the use cases its events reach
// (RecordReviewProgress, then FinishReview or FailReview). A report that
// is not generating any more gets no answer, as a run already done.
func (a *App) RunReview(ctx context.Context, req ReviewRequest) error {
	rep, err := a.repo.Report(ctx, req.ReportID)
	if errors.Is(err, domain.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if rep.Status != domain.StatusGenerating {
		return nil
	}
	cat, err := a.repo.Get(ctx, rep.CategoryID)
	if err != nil {
		return err
	}
	var previous *domain.Review
	if prev, err := a.repo.LatestReadyReport(ctx, cat.ID); err != nil {
		return err
	} else if prev != nil && prev.SiteURL == rep.SiteURL {
		previous = prev.Review
	}
	progress := func(pct int, step string) {
		_ = a.RecordReviewProgress(ctx, ReviewProgress{CategoryID: cat.ID, ReportID: rep.ID, Percent: pct, Step: step})
	}
	progress(0, "Starting the review")
	an, err := a.analyzer.(standInAnalyzer).Analyze(ctx, rep.SiteURL, previous, cat.Location(), progress)
	if err != nil {
		reason := ""
		var ue *domain.UnreadableError
		if errors.As(err, &ue) {
			reason = ue.Reason
		}
		return a.FailReview(ctx, ReviewFailure{CategoryID: cat.ID, ReportID: rep.ID, Reason: reason})
	}
	for _, u := range cat.Competitors {
		theirs, err := a.analyzer.Score(ctx, u)
		if err != nil {
			an.Review.Competitors = append(an.Review.Competitors, domain.CompetitorReview{SiteURL: u, Error: domain.CompetitorNotReadMessage})
			continue
		}
		an.Review.Competitors = append(an.Review.Competitors, domain.CompareCompetitor(u, an.Review, theirs))
	}
	return a.FinishReview(ctx, ReviewResult{CategoryID: cat.ID, ReportID: rep.ID, Analysis: an})
}
