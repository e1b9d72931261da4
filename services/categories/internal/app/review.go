package app

import (
	"context"
	"errors"
	"fmt"
	"time"

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
// The website is read with no database transaction open (issue 13): the
// run first claims the report (ClaimReview, committed at once), then reads
// the site, then records the result with its events in one short
// transaction (FinishReview). A report another run holds is ErrReviewHeld,
// to be retried once that run's claim has lapsed (it crashed) or the report
// is done (the retry then finds nothing to do).
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
		return a.repo.FailReview(ctx, cat.ID, rep.ID, domain.SupersededMessage, nil)
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

	claimed, err := a.repo.ClaimReview(ctx, rep.ID, a.now().Add(a.opts.ReviewTimeout+claimSlack))
	if err != nil {
		return err
	}
	if !claimed {
		return ErrReviewHeld
	}

	rctx, cancel := context.WithTimeout(ctx, a.opts.ReviewTimeout)
	defer cancel()
	progress := func(pct int, step string) {
		if err := a.repo.ReviewProgress(ctx, cat.ID, rep.ID, domain.ClampProgress(pct), step); err != nil {
			a.log.WarnContext(ctx, "review progress not recorded", "report", rep.ID, "err", err)
		}
	}
	progress(0, "Starting the review")
	// Plans are dated by the store's calendar, not the server's.
	analysis, err := a.analyzer.Analyze(rctx, rep.SiteURL, previous, cat.Location(), progress)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		a.log.WarnContext(ctx, "review failed", "category", cat.ID, "report", rep.ID, "site", rep.SiteURL, "err", err)
		// The week's review still sends its email: that the site could not
		// be read, why, and the last known score (offered always; the
		// repository publishes it only for the week's report).
		reason := ""
		var ue *domain.UnreadableError
		if errors.As(err, &ue) {
			reason = ue.Reason
		}
		weekly := domain.NewWeeklyFailure(cat, rep.ID, rep.Week, reason, previous)
		return a.repo.FailReview(ctx, cat.ID, rep.ID, domain.FailureMessage, &weekly)
	}
	if analysis.Review.SiteURL == "" {
		analysis.Review.SiteURL = rep.SiteURL
	}
	if len(cat.Competitors) > 0 {
		progress(95, "Reviewing your competitors' websites")
		analysis.Review.Competitors = a.reviewCompetitors(rctx, cat.Competitors, analysis.Review)
	}
	// Always offered: the repository publishes it only when the report is
	// (or became, while it ran) the week's review, or the business's first.
	weekly := domain.NewWeeklyReview(cat, rep.ID, rep.Week, analysis, previous)
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

// ErrReviewHeld means another run holds the report's claim; try later.
var ErrReviewHeld = errors.New("another run is reviewing this report")

// claimSlack is how long past the review's own time limit a claim holds,
// so a run that is still writing its result is not overtaken.
const claimSlack = time.Minute

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

// reviewCompetitors reviews each competitor's website with the same checks
// and the same guarded fetcher as the store's own (no browser: speed in
// the lab is the store's alone), one at a time, each within ScoreTimeout.
// One that cannot be read is kept with the reason, not dropped.
func (a *App) reviewCompetitors(ctx context.Context, urls []string, own domain.Review) []domain.CompetitorReview {
	out := make([]domain.CompetitorReview, 0, len(urls))
	for _, u := range urls {
		cctx, cancel := context.WithTimeout(ctx, a.opts.ScoreTimeout)
		theirs, err := a.analyzer.Score(cctx, u)
		cancel()
		if err != nil {
			a.log.InfoContext(ctx, "competitor not reviewed", "site", u, "err", err)
			out = append(out, domain.CompetitorReview{SiteURL: u, Error: domain.CompetitorNotReadMessage})
			continue
		}
		out = append(out, domain.CompareCompetitor(u, own, theirs))
	}
	return out
}
