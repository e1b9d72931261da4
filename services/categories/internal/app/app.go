// Package app holds the categories service's use cases: the business
// profile, the website review and what it produces. It reaches storage, the
// users service and the website analysis engine through the narrow
// interfaces it declares here, so each can be replaced by a fake in tests.
package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/google/uuid"

	"uplift.dev/categories/internal/domain"
	"uplift.dev/platform/clock"
)

// Repository stores categories, reports, insights and ideas. Update applies
// the effects its fn returns (new report, stale ideas, events) in the same
// transaction as the change.
type Repository interface {
	// Ensure stores c if no category has its id yet; otherwise it fills the
	// stored one's empty name and Shopify id from c when c has the same owner.
	// It returns the stored category.
	Ensure(ctx context.Context, c domain.Category) (domain.Category, error)
	// Get returns domain.ErrNotFound for an unknown id.
	Get(ctx context.Context, id string) (domain.Category, error)
	// Update reads the category for update, applies fn and saves it with fn's effects, atomically.
	Update(ctx context.Context, id string, fn func(*domain.Category) (domain.Effects, error)) (domain.Category, error)
	// Report returns one report with its insights and top ideas, or domain.ErrNotFound.
	Report(ctx context.Context, reportID string) (domain.Report, error)
	// LatestReport returns the newest report of a category, nil if none.
	LatestReport(ctx context.Context, categoryID string) (*domain.Report, error)
	// LatestReadyReport returns the newest READY report, nil if none.
	LatestReadyReport(ctx context.Context, categoryID string) (*domain.Report, error)
	// RecentIdeas lists ideas that are not invalidated, newest first.
	RecentIdeas(ctx context.Context, categoryID string, limit int) ([]domain.Idea, error)
	// Idea returns domain.ErrIdeaNotFound unless the idea belongs to the category.
	Idea(ctx context.Context, categoryID, ideaID string) (domain.Idea, error)
	// ReviewProgress records a generating report's progress and publishes
	// ReportUpdated; a report no longer generating is left alone.
	ReviewProgress(ctx context.Context, categoryID, reportID string, pct int, step string) error
	// FinishReview stores a READY report, its insights and ideas and the
	// summary on the category, and publishes ReportUpdated (and, for a
	// weekly re-review, WeeklyReviewReady with weekly), in one short
	// transaction. It reports false, storing nothing but the report's
	// failure, when a newer report has replaced this one meanwhile.
	FinishReview(ctx context.Context, categoryID, reportID string, a domain.Analysis, weekly *domain.WeeklyReview) (bool, error)
	// WeeklyReviewCandidates lists the categories with a website and the
	// weekly email on, each with the newest week started.
	WeeklyReviewCandidates(ctx context.Context) ([]domain.WeeklyReviewCandidate, error)
	// StartWeeklyReview claims the category's week and starts its review
	// (the report newReport makes, with ReviewRequested) in one
	// transaction; false when the week was started already or the
	// category no longer has a website or wants the email.
	StartWeeklyReview(ctx context.Context, categoryID, week string, newReport func(domain.Category) *domain.Report) (bool, error)
	// NoDataCandidates lists the categories with the daily report on and
	// no store data, each with the newest day published.
	NoDataCandidates(ctx context.Context) ([]domain.NoDataCandidate, error)
	// PublishNoDataReport claims the category's day and writes its
	// DailyReportReady to the outbox in one transaction; false when the
	// day was published already.
	PublishNoDataReport(ctx context.Context, r domain.NoDataReport) (bool, error)
	// FailReview marks a report FAILED with a message for people and
	// publishes ReportUpdated; weekly, when set, is offered as the week's
	// email like FinishReview's (published only if the report is the week's).
	FailReview(ctx context.Context, categoryID, reportID, message string, weekly *domain.WeeklyReview) error
	// DeleteOwnedBy deletes every category ownerID owns with everything
	// stored under it, and reports how many categories went.
	DeleteOwnedBy(ctx context.Context, ownerID string) (int, error)
	// UnsubscribeOwnedBy turns both email switches off on every category
	// ownerID owns, and reports how many changed.
	UnsubscribeOwnedBy(ctx context.Context, ownerID string) (int, error)
	// StoreSignals returns the category's stored store signals, nil if none.
	StoreSignals(ctx context.Context, categoryID string) (*domain.StoreSignals, error)
	// UpdateStoreSignals locks the category, reads its stored signals (nil
	// if none) and its current store ideas, and applies the change fn
	// returns, atomically. domain.ErrNotFound when the category does not exist.
	UpdateStoreSignals(ctx context.Context, categoryID string,
		fn func(c domain.Category, current *domain.StoreSignals, ideas []domain.Idea) (domain.StoreChange, error)) error
}

// Analyzer reads store websites (the review service); the reviews
// themselves are asked for with ReviewRequested and answered by events.
type Analyzer interface {
	// Check reads the site's home page, quickly, so a save can refuse a site
	// that cannot be read; a *domain.UnreadableError says which kind of
	// failure it was.
	Check(ctx context.Context, siteURL string) error
	// Score reviews the site only, for the public website score.
	Score(ctx context.Context, siteURL string) (domain.Review, error)
}

// Calendar knows the seasonal dates stores plan campaigns around.
type Calendar interface {
	// NextOccasion is the soonest seasonal date after now for the store
	// at siteURL; false when none is known.
	NextOccasion(ctx context.Context, now time.Time, siteURL string) (name string, date time.Time, ok bool, err error)
}

// Profiles reads the users service.
type Profiles interface {
	// OwnCategoryID returns the id of the category the users service gave
	// uid, or domain.ErrNoProfile. The caller's credentials travel in ctx.
	OwnCategoryID(ctx context.Context, uid string) (string, error)
}

// Options tune the use cases; zero values take the defaults.
type Options struct {
	// CheckTimeout bounds the synchronous website check on save.
	CheckTimeout time.Duration
	// ScoreTimeout bounds the public website score.
	ScoreTimeout time.Duration
}

// App is the categories service's use cases.
type App struct {
	repo     Repository
	analyzer Analyzer
	profiles Profiles
	log      *slog.Logger
	opts     Options
	calendar Calendar
	// catalogue reads store catalogues for the product studio (nil: not wired).
	catalogue *catalogueCache
	newID     func() string
	now       clock.Clock
}

// New returns the use cases over the given adapters.
func New(repo Repository, analyzer Analyzer, profiles Profiles, log *slog.Logger, opts Options) *App {
	if opts.CheckTimeout <= 0 {
		opts.CheckTimeout = 20 * time.Second
	}
	if opts.ScoreTimeout <= 0 {
		opts.ScoreTimeout = 45 * time.Second
	}
	return &App{repo: repo, analyzer: analyzer, profiles: profiles, log: log, opts: opts,
		newID: uuid.NewString, now: clock.Real}
}

// WithCalendar returns the use cases naming seasonal dates from c.
func (a *App) WithCalendar(c Calendar) *App {
	cp := *a
	cp.calendar = c
	return &cp
}

// WithClock returns the use cases reading time from now; tests move it.
func (a *App) WithClock(now clock.Clock) *App {
	c := *a
	c.now = now
	return &c
}

// Within returns the use cases working on repo instead, so an event
// consumer can run them inside the transaction that records the message.
func (a *App) Within(repo Repository) *App {
	c := *a
	c.repo = repo
	return &c
}

// authorized loads a category the caller may act on.
func (a *App) authorized(ctx context.Context, caller domain.Caller, id string) (domain.Category, error) {
	if err := domain.ValidateCategoryID(id); err != nil {
		return domain.Category{}, err
	}
	c, err := a.repo.Get(ctx, id)
	if err != nil {
		return domain.Category{}, err
	}
	if !caller.CanAccess(c) {
		return domain.Category{}, domain.ErrPermissionDenied
	}
	return c, nil
}

// Action names written to the on-behalf audit log: the gRPC method names,
// so an operator reading the log can match a row to the call that made it.
const (
	ActionUpdateLabel                   = "UpdateLabel"
	ActionUpdateContentGenerationParams = "UpdateContentGenerationParams"
	ActionUpdateEmailPreferences        = "UpdateEmailPreferences"
	ActionDisableBusinessReport         = "DisableBusinessReport"
	ActionInvalidateCampaignIdeas       = "InvalidateCampaignIdeas"
	ActionSendAIEmailDigest             = "SendAIEmailDigest"
)

// update applies fn to the category like Repository.Update and, when the
// caller is not the owner, adds the on-behalf audit row to fn's effects, so
// it is written in the change's transaction or not at all. The owner is
// read from the row locked for the update, not from an earlier read.
func (a *App) update(ctx context.Context, caller domain.Caller, id, action string, fn func(*domain.Category) (domain.Effects, error)) (domain.Category, error) {
	return a.repo.Update(ctx, id, announced(func(c *domain.Category) (domain.Effects, error) {
		eff, err := fn(c)
		if err != nil {
			return eff, err
		}
		eff.OnBehalf = caller.Audit(*c, action)
		return eff, nil
	}))
}

// announced wraps an update so that a change other services hear of (the
// name, the website, an email switch) publishes CategoryUpdated with it.
func announced(fn func(*domain.Category) (domain.Effects, error)) func(*domain.Category) (domain.Effects, error) {
	return func(c *domain.Category) (domain.Effects, error) {
		before := *c
		eff, err := fn(c)
		if err != nil {
			return eff, err
		}
		if domain.AnnouncedChange(before, *c) {
			eff.Announce = true
		}
		return eff, nil
	}
}

// SignUp is a UserCreated event as the app needs it.
type SignUp struct {
	UserID, CategoryID, DisplayName string
}

// CreateFromSignUp gives a new user their category. Redelivery is harmless:
// an existing category is kept, only an empty name is filled.
func (a *App) CreateFromSignUp(ctx context.Context, s SignUp) error {
	if s.UserID == "" || domain.ValidateCategoryID(s.CategoryID) != nil {
		a.log.WarnContext(ctx, "UserCreated without a usable category id dropped", "user", s.UserID, "category", s.CategoryID)
		return nil
	}
	name, err := domain.NormalizeLabel(s.DisplayName)
	if err != nil {
		name = ""
	}
	_, err = a.repo.Ensure(ctx, domain.Category{ID: s.CategoryID, OwnerID: s.UserID, Name: name})
	return err
}

// CreateCategory creates (or finds) the caller's own category, the one the
// users service assigned them, and links a Shopify category id remembered
// from before sign-up and the browser's time zone (empty: none sent; it
// fills only a category without one). Calling it again changes nothing. It
// is never an action on behalf (the category is always the caller's own,
// and another owner's is refused), so it writes no audit row.
func (a *App) CreateCategory(ctx context.Context, caller domain.Caller, email, shopifyID, timeZone string) (domain.Category, error) {
	if caller.UID == "" {
		return domain.Category{}, domain.ErrPermissionDenied
	}
	shopifyID, err := domain.NormalizeShopifyID(shopifyID)
	if err != nil {
		return domain.Category{}, err
	}
	if timeZone != "" {
		if timeZone, err = domain.NormalizeTimeZone(timeZone); err != nil {
			return domain.Category{}, err
		}
	}
	id, err := a.profiles.OwnCategoryID(ctx, caller.UID)
	if err != nil {
		return domain.Category{}, err
	}
	if domain.ValidateCategoryID(id) != nil {
		return domain.Category{}, fmt.Errorf("users service gave category id %q: %w", id, domain.ErrNoProfile)
	}
	name, _, _ := strings.Cut(email, "@")
	if name, err = domain.NormalizeLabel(name); err != nil {
		name = ""
	}
	c, err := a.repo.Ensure(ctx, domain.Category{ID: id, OwnerID: caller.UID, Name: name, ShopifyCategoryID: shopifyID, TimeZone: timeZone})
	if err != nil {
		return domain.Category{}, err
	}
	if c.OwnerID != caller.UID {
		return domain.Category{}, domain.ErrPermissionDenied
	}
	return c, nil
}

// GetCategory returns a category the caller may act on.
func (a *App) GetCategory(ctx context.Context, caller domain.Caller, id string) (domain.Category, error) {
	return a.authorized(ctx, caller, id)
}

// CheckAccess says whether caller may act on category id, by the one rule
// (domain.Caller.CanAccess): nil, or domain.ErrNotFound,
// domain.ErrPermissionDenied or a ValidationError. Other services ask it
// before they touch data they keep for the category.
func (a *App) CheckAccess(ctx context.Context, caller domain.Caller, id string) error {
	_, err := a.authorized(ctx, caller, id)
	return err
}

// UpdateLabel renames the business.
func (a *App) UpdateLabel(ctx context.Context, caller domain.Caller, id, name string) (domain.Category, error) {
	if _, err := a.authorized(ctx, caller, id); err != nil {
		return domain.Category{}, err
	}
	name, err := domain.NormalizeLabel(name)
	if err != nil {
		return domain.Category{}, err
	}
	return a.update(ctx, caller, id, ActionUpdateLabel, func(c *domain.Category) (domain.Effects, error) {
		c.Name = name
		return domain.Effects{}, nil
	})
}

// ContentParams is a PATCH of the business profile's inputs: a nil field
// leaves what is saved as it is, so a client that sends only the fields it
// changes clears nothing by leaving one out.
type ContentParams struct {
	// SiteURL, when set, replaces the website; blank clears it (the web sends
	// an empty website as null, which the gateway passes on as blank).
	SiteURL            *string
	DisableWeeklyEmail *bool
	// TimeZone, when set, changes the business's IANA time zone.
	TimeZone *string
	// Competitors, when set, replaces the competitor websites (up to
	// domain.MaxCompetitors; empty clears them).
	Competitors *[]string
}

// UpdateContentParams saves the profile's inputs. A new website is read
// first: one that cannot be read is refused with nothing saved. A saved new
// website starts a review and makes the old ideas stale.
func (a *App) UpdateContentParams(ctx context.Context, caller domain.Caller, id string, in ContentParams) (domain.Category, error) {
	cat, err := a.authorized(ctx, caller, id)
	if err != nil {
		return domain.Category{}, err
	}
	if in.TimeZone != nil {
		zone, err := domain.NormalizeTimeZone(*in.TimeZone)
		if err != nil {
			return domain.Category{}, err
		}
		in.TimeZone = &zone
	}
	site := ""
	if in.SiteURL != nil && strings.TrimSpace(*in.SiteURL) != "" {
		if site, err = a.normalize(*in.SiteURL); err != nil {
			return domain.Category{}, err
		}
	}
	var competitors []string
	if in.Competitors != nil {
		if competitors, err = a.normalizeCompetitors(*in.Competitors, site, cat.SiteURL); err != nil {
			return domain.Category{}, err
		}
	}
	if site != "" && site != cat.SiteURL {
		cctx, cancel := context.WithTimeout(ctx, a.opts.CheckTimeout)
		err := a.analyzer.Check(cctx, site)
		cancel()
		if err != nil {
			if ctx.Err() != nil {
				return domain.Category{}, ctx.Err()
			}
			a.log.InfoContext(ctx, "website refused on save", "category", id, "site", site, "err", err)
			// The owner is told which it was: no such domain, not a public
			// address, or a site that would not be read (and why).
			var ue *domain.UnreadableError
			if errors.As(err, &ue) {
				return domain.Category{}, domain.SiteRefused(ue)
			}
			return domain.Category{}, fmt.Errorf("%w: %v", domain.ErrUnreadableSite, err)
		}
	}
	return a.update(ctx, caller, id, ActionUpdateContentGenerationParams, func(c *domain.Category) (domain.Effects, error) {
		var eff domain.Effects
		if in.SiteURL != nil && c.SetSite(site) {
			eff.InvalidateIdeas = true
			if site != "" {
				eff.NewReport = a.newReport(c)
			}
		}
		if in.DisableWeeklyEmail != nil {
			c.DisableWeeklyEmail = *in.DisableWeeklyEmail
		}
		if in.TimeZone != nil {
			c.TimeZone = *in.TimeZone
		}
		// New competitors are reviewed beside the store at once.
		if in.Competitors != nil && c.SetCompetitors(competitors) && c.SiteURL != "" && eff.NewReport == nil {
			eff.NewReport = a.newReport(c)
		}
		return eff, nil
	})
}

// maxCompetitorEntries bounds the entries of a competitor list, blank ones
// included (the profile sends its three boxes).
const maxCompetitorEntries = 10

// normalizeCompetitors checks and normalises the competitor websites: at
// most domain.MaxCompetitors, each a valid address and none the store's
// own (site, the one being saved, else current). Blank entries are dropped.
// They are not read on save: one that cannot be read says so in the review.
func (a *App) normalizeCompetitors(raw []string, site, current string) ([]string, error) {
	own := site
	if own == "" {
		own = current
	}
	// A list far longer than the boxes is refused before any is read.
	if len(raw) > maxCompetitorEntries {
		return nil, &domain.ValidationError{Field: domain.CompetitorsField, Message: domain.TooManyCompetitorsMsg}
	}
	var out []string
	for _, r := range raw {
		if strings.TrimSpace(r) == "" {
			continue
		}
		u, err := a.normalize(r)
		if err != nil {
			return nil, &domain.ValidationError{Field: domain.CompetitorsField, Message: domain.BadCompetitorMsg}
		}
		if u == own {
			return nil, &domain.ValidationError{Field: domain.CompetitorsField, Message: domain.CompetitorIsYouMessage}
		}
		out = append(out, u)
	}
	if len(out) > domain.MaxCompetitors {
		return nil, &domain.ValidationError{Field: domain.CompetitorsField, Message: domain.TooManyCompetitorsMsg}
	}
	return out, nil
}

func (a *App) normalize(raw string) (string, error) {
	if err := domain.CheckSiteURLInput(raw); err != nil {
		return "", err
	}
	site, err := domain.NormalizeSiteURL(strings.TrimSpace(raw))
	if err != nil || site == "" {
		return "", fmt.Errorf("%w: %v", domain.ErrUnreadableSite, err)
	}
	return site, nil
}

func (a *App) newReport(c *domain.Category) *domain.Report {
	return &domain.Report{ID: a.newID(), CategoryID: c.ID, SiteURL: c.SiteURL, Status: domain.StatusGenerating}
}

// UpdateEmailPreferences switches the daily business report; nil leaves it.
func (a *App) UpdateEmailPreferences(ctx context.Context, caller domain.Caller, id string, disableBusinessReport *bool) (domain.Category, error) {
	return a.setBusinessReport(ctx, caller, id, ActionUpdateEmailPreferences, disableBusinessReport)
}

// DisableBusinessReport turns the daily business report off (the link in
// the report email). It is UpdateEmailPreferences under its own name so the
// audit log tells the two calls apart.
func (a *App) DisableBusinessReport(ctx context.Context, caller domain.Caller, id string) (domain.Category, error) {
	off := true
	return a.setBusinessReport(ctx, caller, id, ActionDisableBusinessReport, &off)
}

func (a *App) setBusinessReport(ctx context.Context, caller domain.Caller, id, action string, disableBusinessReport *bool) (domain.Category, error) {
	if _, err := a.authorized(ctx, caller, id); err != nil {
		return domain.Category{}, err
	}
	return a.update(ctx, caller, id, action, func(c *domain.Category) (domain.Effects, error) {
		if disableBusinessReport != nil {
			c.DisableBusinessReport = *disableBusinessReport
		}
		return domain.Effects{}, nil
	})
}

// CurrentReport is what the Home page shows: the newest report (a generating
// one keeps the last ready review of the same site visible, and a weekly
// re-run shows that review itself until it is done: domain.Report.Shown),
// or a NO_WEBSITE report while no website is set.
func (a *App) CurrentReport(ctx context.Context, caller domain.Caller, id string) (domain.Report, error) {
	cat, err := a.authorized(ctx, caller, id)
	if err != nil {
		return domain.Report{}, err
	}
	if cat.SiteURL == "" {
		return domain.Report{CategoryID: id, Status: domain.StatusNoWebsite}, nil
	}
	latest, err := a.repo.LatestReport(ctx, id)
	if err != nil {
		return domain.Report{}, err
	}
	if latest == nil {
		// A site saved before reports existed: say so rather than invent one.
		return domain.Report{CategoryID: id, SiteURL: cat.SiteURL, Status: domain.StatusGenerating}, nil
	}
	if latest.Status == domain.StatusReady {
		return *latest, nil
	}
	prev, err := a.repo.LatestReadyReport(ctx, id)
	if err != nil {
		return domain.Report{}, err
	}
	return latest.Shown(prev), nil
}

// Insights returns the current insights: first what the store's own
// numbers say (domain.StoreInsights, when the stores service has sent
// signals that are still fresh), then the last ready report's.
func (a *App) Insights(ctx context.Context, caller domain.Caller, id string) ([]domain.Insight, error) {
	if _, err := a.authorized(ctx, caller, id); err != nil {
		return nil, err
	}
	sig, err := a.repo.StoreSignals(ctx, id)
	if err != nil {
		return nil, err
	}
	out := domain.StoreInsights(sig, a.now())
	r, err := a.repo.LatestReadyReport(ctx, id)
	if err != nil {
		return nil, err
	}
	if r != nil {
		out = append(out, r.Insights...)
	}
	return out, nil
}

// RecentIdeas returns the ideas still current: the store's own first, then
// the website review's, newest first.
func (a *App) RecentIdeas(ctx context.Context, caller domain.Caller, id string) ([]domain.Idea, error) {
	if _, err := a.authorized(ctx, caller, id); err != nil {
		return nil, err
	}
	return a.repo.RecentIdeas(ctx, id, domain.RecentIdeasLimit)
}

// Idea returns one of the category's ideas, stale or not, so a link from an
// old email still opens.
func (a *App) Idea(ctx context.Context, caller domain.Caller, id, ideaID string) (domain.Idea, error) {
	if _, err := a.authorized(ctx, caller, id); err != nil {
		return domain.Idea{}, err
	}
	if err := domain.ValidateIdeaID(ideaID); err != nil {
		return domain.Idea{}, err
	}
	return a.repo.Idea(ctx, id, ideaID)
}

// InvalidateIdeas discards the current ideas and, when a website is set,
// has new ones written: by the review of that site already under way (the
// Business profile asks for this right after the save that started one), or
// else by a new review.
func (a *App) InvalidateIdeas(ctx context.Context, caller domain.Caller, id string) error {
	if _, err := a.authorized(ctx, caller, id); err != nil {
		return err
	}
	latest, err := a.repo.LatestReport(ctx, id)
	if err != nil {
		return err
	}
	_, err = a.update(ctx, caller, id, ActionInvalidateCampaignIdeas, func(c *domain.Category) (domain.Effects, error) {
		eff := domain.Effects{InvalidateIdeas: true}
		if c.SiteURL != "" && !latest.UnderWayFor(c.SiteURL) {
			eff.NewReport = a.newReport(c)
		}
		return eff, nil
	})
	return err
}

// RequestDigest asks the digest service to email the current insights and
// ideas to the owner now. DigestRequested carries them, read here at request
// time, and is written to the outbox (the queue the digest service sends
// from) in the transaction that records the request; a second request for
// the category within domain.DigestInterval is refused with
// domain.ErrDigestTooSoon and queues nothing.
func (a *App) RequestDigest(ctx context.Context, caller domain.Caller, id string) error {
	insights, err := a.Insights(ctx, caller, id)
	if err != nil {
		return err
	}
	ideas, err := a.repo.RecentIdeas(ctx, id, domain.RecentIdeasLimit)
	if err != nil {
		return err
	}
	now := a.now()
	_, err = a.update(ctx, caller, id, ActionSendAIEmailDigest, func(c *domain.Category) (domain.Effects, error) {
		if err := c.RequestDigest(now); err != nil {
			return domain.Effects{}, err
		}
		return domain.Effects{Digest: &domain.DigestRequest{RequestedBy: caller.UID, Insights: insights, Ideas: ideas}}, nil
	})
	return err
}

// EmailKindChange is an EmailKindUnsubscribed event as the app needs it.
type EmailKindChange struct {
	UserID, CategoryID, Kind string
	Resubscribed             bool
}

// ApplyEmailKindChange flips the business profile's switch for a kind of
// email a person turned off (or back on) from an email's unsubscribe link,
// so the profile shows it: weekly_review is disableWeeklyEmail,
// daily_report disableBusinessReport; ai_digest has no switch. Only the
// category's owner's choice counts; a repeat changes nothing.
func (a *App) ApplyEmailKindChange(ctx context.Context, ch EmailKindChange) error {
	if ch.Kind != "weekly_review" && ch.Kind != "daily_report" {
		return nil
	}
	if domain.ValidateCategoryID(ch.CategoryID) != nil || ch.UserID == "" {
		a.log.WarnContext(ctx, "EmailKindUnsubscribed without a usable category dropped", "user", ch.UserID, "category", ch.CategoryID)
		return nil
	}
	_, err := a.repo.Update(ctx, ch.CategoryID, announced(func(c *domain.Category) (domain.Effects, error) {
		if c.OwnerID != ch.UserID {
			return domain.Effects{}, nil
		}
		off := !ch.Resubscribed
		if ch.Kind == "weekly_review" {
			c.DisableWeeklyEmail = off
		} else {
			c.DisableBusinessReport = off
		}
		return domain.Effects{}, nil
	}))
	if errors.Is(err, domain.ErrNotFound) {
		a.log.InfoContext(ctx, "EmailKindUnsubscribed for an unknown category dropped", "category", ch.CategoryID)
		return nil
	}
	return err
}

// WebsiteScore reviews any site for the public website-score page.
func (a *App) WebsiteScore(ctx context.Context, raw string) (domain.Review, error) {
	if strings.TrimSpace(raw) == "" {
		return domain.Review{}, domain.ErrUnreadableSite
	}
	site, err := a.normalize(raw)
	if err != nil {
		return domain.Review{}, err
	}
	sctx, cancel := context.WithTimeout(ctx, a.opts.ScoreTimeout)
	defer cancel()
	r, err := a.analyzer.Score(sctx, site)
	if err != nil {
		if ctx.Err() != nil {
			return domain.Review{}, ctx.Err()
		}
		a.log.InfoContext(ctx, "website score failed", "site", site, "err", err)
		// As on save: no such domain, not a public address, or why it would not be read.
		var ue *domain.UnreadableError
		if errors.As(err, &ue) {
			return domain.Review{}, domain.SiteRefused(ue)
		}
		return domain.Review{}, fmt.Errorf("%w: %v", domain.ErrUnreadableSite, err)
	}
	if r.SiteURL == "" {
		r.SiteURL = site
	}
	return r, nil
}

// UserDeleted is a UserDeleted event as the app needs it.
type UserDeleted struct {
	UserID, CategoryID string
}

// DeleteUserData removes everything of a deleted user: every category they
// own, found by owner rather than by the event's category id (a user may own
// more than the one the users service remembers), with all stored under it.
// Categories of other users are untouched even if the event names one.
// Redelivery is harmless: a second run finds nothing to delete.
func (a *App) DeleteUserData(ctx context.Context, d UserDeleted) error {
	if d.UserID == "" {
		// Without an owner there is nothing we may safely delete.
		a.log.WarnContext(ctx, "UserDeleted without a user id dropped", "category", d.CategoryID)
		return nil
	}
	n, err := a.repo.DeleteOwnedBy(ctx, d.UserID)
	if err != nil {
		return err
	}
	a.log.InfoContext(ctx, "deleted user's categories removed", "user", d.UserID, "categories", n)
	return nil
}

// ApplyStoreSignals keeps signals from the stores service when they are
// newer than the stored ones (a later day, or the same day computed later)
// and brings the store's campaign ideas in line with them
// (domain.PlanStoreIdeas). The same or older signals change nothing, so a
// replay is harmless; signals for a category that does not exist (any
// more: its owner was deleted) are dropped.
func (a *App) ApplyStoreSignals(ctx context.Context, s domain.StoreSignals) error {
	if err := domain.ValidateStoreSignals(s); err != nil {
		a.log.WarnContext(ctx, "unusable store signals dropped", "category", s.CategoryID, "err", err)
		return nil
	}
	applied := false
	err := a.repo.UpdateStoreSignals(ctx, s.CategoryID, func(c domain.Category, cur *domain.StoreSignals, ideas []domain.Idea) (domain.StoreChange, error) {
		if cur != nil && !s.NewerThan(*cur) {
			return domain.StoreChange{}, nil
		}
		applied = true
		add, retire := domain.PlanStoreIdeas(ideas, domain.StoreIdeas(c, s))
		return domain.StoreChange{Signals: &s, AddIdeas: add, RetireIdeas: retire}, nil
	})
	if errors.Is(err, domain.ErrNotFound) {
		a.log.InfoContext(ctx, "store signals for an unknown category dropped", "category", s.CategoryID)
		return nil
	}
	if err != nil {
		return err
	}
	a.log.InfoContext(ctx, "store signals received", "category", s.CategoryID,
		"asOf", s.AsOf.Format(time.DateOnly), "applied", applied)
	return nil
}

// Unsubscribe turns off the emails sent about the user's own categories,
// the weekly email and the business report, so an unsubscribe link stops
// both. Doing it again changes nothing.
func (a *App) Unsubscribe(ctx context.Context, userID string) error {
	if userID == "" {
		a.log.WarnContext(ctx, "UserUnsubscribed without a user id dropped")
		return nil
	}
	_, err := a.repo.UnsubscribeOwnedBy(ctx, userID)
	return err
}
