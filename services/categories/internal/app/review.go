package app

import (
	"context"
	"errors"
	"fmt"
	"time"

	"uplift.dev/categories/internal/domain"
)

// ReviewProgress is a ReviewProgressed event as the app needs it.
type ReviewProgress struct {
	CategoryID, ReportID string
	Percent              int
	Step                 string
}

// ReviewResult is a ReviewCompleted event as the app needs it.
type ReviewResult struct {
	CategoryID, ReportID string
	Analysis             domain.Analysis
}

// ReviewFailure is a ReviewFailed event as the app needs it.
type ReviewFailure struct {
	CategoryID, ReportID string
	// Reason says why the site could not be read, in the owner's words.
	Reason string
}

// RecordReviewProgress moves a generating report's progress bar as the
// review service reads the site. A report that is done, or unknown, is
// left alone, so a late or repeated event changes nothing.
func (a *App) RecordReviewProgress(ctx context.Context, p ReviewProgress) error {
	return a.repo.ReviewProgress(ctx, p.CategoryID, p.ReportID, domain.ClampProgress(p.Percent), p.Step)
}

// reviewedReport is the generating report a review's answer is for, with
// its category and the newest ready report; nil when the report is
// unknown, done or not the category's, so redelivery and out-of-date
// answers are harmless. A report a newer one (or a new website) replaced
// while it was reviewed is marked so, and nil too.
func (a *App) reviewedReport(ctx context.Context, categoryID, reportID string) (*domain.Report, domain.Category, *domain.Report, error) {
	rep, err := a.repo.Report(ctx, reportID)
	if errors.Is(err, domain.ErrNotFound) {
		a.log.WarnContext(ctx, "review answered for an unknown report; dropped", "report", reportID)
		return nil, domain.Category{}, nil, nil
	}
	if err != nil {
		return nil, domain.Category{}, nil, err
	}
	if rep.Status != domain.StatusGenerating || rep.CategoryID != categoryID {
		return nil, domain.Category{}, nil, nil
	}
	cat, err := a.repo.Get(ctx, rep.CategoryID)
	if errors.Is(err, domain.ErrNotFound) {
		return nil, domain.Category{}, nil, nil
	}
	if err != nil {
		return nil, domain.Category{}, nil, err
	}
	latest, err := a.repo.LatestReport(ctx, cat.ID)
	if err != nil {
		return nil, domain.Category{}, nil, err
	}
	if latest == nil || latest.ID != rep.ID || cat.SiteURL != rep.SiteURL {
		return nil, domain.Category{}, nil, a.repo.FailReview(ctx, cat.ID, rep.ID, domain.SupersededMessage, nil)
	}
	prev, err := a.repo.LatestReadyReport(ctx, cat.ID)
	if err != nil {
		return nil, domain.Category{}, nil, err
	}
	return &rep, cat, prev, nil
}

// previousOf is prev's review when it is of rep's site: only a review of
// the same site says what is new, fixed or still open.
func previousOf(prev, rep *domain.Report) *domain.Review {
	if prev != nil && prev.SiteURL == rep.SiteURL {
		return prev.Review
	}
	return nil
}

// FinishReview stores the review the review service made for a report,
// with its insights and ideas, and, for the week's review or the
// business's first, the email's event. A report a newer one replaced
// meanwhile is marked so instead (and the repository checks again, under
// the category's lock).
func (a *App) FinishReview(ctx context.Context, res ReviewResult) error {
	rep, cat, prev, err := a.reviewedReport(ctx, res.CategoryID, res.ReportID)
	if err != nil || rep == nil {
		return err
	}
	analysis := res.Analysis
	if analysis.Review.SiteURL == "" {
		analysis.Review.SiteURL = rep.SiteURL
	}
	// Always offered: the repository publishes it only when the report is
	// (or became, while it ran) the week's review, or the business's first.
	weekly := domain.NewWeeklyReview(cat, rep.ID, rep.Week, analysis, previousOf(prev, rep))
	if prev == nil {
		// No review of this business is ready yet: this one is its first,
		// whoever started it, and its email says so (never "weekly").
		loc, err := a.weeklyLocation(ctx, cat)
		if err != nil {
			return err
		}
		weekly = domain.FirstReview(weekly, a.now(), loc)
	}
	done, err := a.repo.FinishReview(ctx, cat.ID, rep.ID, analysis, &weekly)
	if err != nil {
		return err
	}
	a.log.InfoContext(ctx, "review finished", "category", cat.ID, "report", rep.ID, "score", analysis.Review.Score, "current", done)
	return nil
}

// FailReview records that the review service could not read a report's
// site: the report fails with a message people can read, and the week's
// review still sends its email (that the site could not be read, why, and
// the last known score). A report a newer one replaced meanwhile is marked
// so instead.
func (a *App) FailReview(ctx context.Context, f ReviewFailure) error {
	rep, cat, prev, err := a.reviewedReport(ctx, f.CategoryID, f.ReportID)
	if err != nil || rep == nil {
		return err
	}
	// Offered always; the repository publishes it only for the week's report.
	weekly := domain.NewWeeklyFailure(cat, rep.ID, rep.Week, f.Reason, previousOf(prev, rep))
	return a.repo.FailReview(ctx, cat.ID, rep.ID, domain.FailureMessage, &weekly)
}

// RunWeeklyReviewNow starts the current week's website review of one
// business at once instead of at its Monday 08:00 slot, for an operator
// (admins only) and for the end-to-end tests, which cannot wait for
// Monday. It claims the same week's row the slot would
// (domain.WeeklyReviewSlot.Period in the business's time zone), so the
// week's email still goes out once: a week already started is
// domain.ErrAlreadySent, and the slot then finds the week done. It
// returns the week (its store-local Monday).
func (a *App) RunWeeklyReviewNow(ctx context.Context, caller domain.Caller, categoryID string) (string, error) {
	if !caller.Admin {
		return "", domain.ErrPermissionDenied
	}
	if err := domain.ValidateCategoryID(categoryID); err != nil {
		return "", err
	}
	cat, err := a.repo.Get(ctx, categoryID)
	if err != nil {
		return "", err
	}
	if cat.SiteURL == "" || cat.DisableWeeklyEmail {
		return "", domain.ErrWeeklyReviewOff
	}
	loc, err := a.weeklyLocation(ctx, cat)
	if err != nil {
		return "", err
	}
	week := domain.WeeklyReviewSlot.Period(a.now(), loc).String()
	ok, err := a.repo.StartWeeklyReview(ctx, categoryID, week, func(c domain.Category) *domain.Report {
		r := a.newReport(&c)
		r.Week = week
		return r
	})
	if err != nil {
		return "", fmt.Errorf("weekly review of %s for %s: %w", categoryID, week, err)
	}
	if !ok {
		return week, domain.ErrAlreadySent
	}
	a.log.InfoContext(ctx, "weekly review started by an operator", "category", categoryID, "week", week, "actor", caller.UID)
	return week, nil
}

// weeklyLocation is the zone cat's weekly review is timed in
// (domain.ScheduleLocation: the shop's zone over the business's).
func (a *App) weeklyLocation(ctx context.Context, cat domain.Category) (*time.Location, error) {
	sig, err := a.repo.StoreSignals(ctx, cat.ID)
	if err != nil {
		return nil, err
	}
	store := ""
	if sig != nil {
		store = sig.TimeZone
	}
	return domain.ScheduleLocation(cat.TimeZone, store), nil
}

// StartDueWeeklyReviews starts the weekly re-review of every category whose
// week is due (domain.WeeklyReviewSlot in the category's time zone, UTC
// while none is known): a new report, not the stored one, requested like
// any review, whose result also publishes WeeklyReviewReady for the email.
// The worker runs it on a timer; replicas may run it at the same moment,
// and the week's row in weekly_reviews, written with the outbox row, lets
// exactly one of them start it. It returns how many it started.
func (a *App) StartDueWeeklyReviews(ctx context.Context) (int, error) {
	cands, err := a.repo.WeeklyReviewCandidates(ctx)
	if err != nil {
		return 0, fmt.Errorf("weekly reviews: %w", err)
	}
	var errs []error
	started := 0
	for _, c := range cands {
		if ctx.Err() != nil {
			break
		}
		week, due := c.Due(a.now())
		if !due {
			continue
		}
		ok, err := a.repo.StartWeeklyReview(ctx, c.CategoryID, week.String(), func(cat domain.Category) *domain.Report {
			r := a.newReport(&cat)
			r.Week = week.String()
			return r
		})
		if err != nil {
			errs = append(errs, fmt.Errorf("weekly review of %s for %s: %w", c.CategoryID, week, err))
			continue
		}
		if ok {
			started++
			a.log.InfoContext(ctx, "weekly review started", "category", c.CategoryID, "week", week.String())
		}
	}
	return started, errors.Join(errs...)
}
