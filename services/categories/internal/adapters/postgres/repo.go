// Package postgres stores categories, reports, insights and ideas in the
// service's own schema, and writes the events of each change to the outbox in
// the same transaction.
package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"google.golang.org/protobuf/types/known/timestamppb"

	"uplift.dev/platform/clock"
	eventsv1 "uplift.dev/proto/gen/uplift/events/v1"

	"uplift.dev/categories/internal/domain"
	"uplift.dev/platform/events"
	"uplift.dev/platform/schedule"
)

// db is what both a pool and a transaction offer; Begin on a transaction
// makes a savepoint, so every method works inside a consumer's transaction.
type db interface {
	Begin(ctx context.Context) (pgx.Tx, error)
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// Repo implements app.Repository.
type Repo struct {
	db   db
	pool *pgxpool.Pool
	// now dates the events and ideas the repository records: the
	// service's clock (WithClock), nil the wall clock.
	now clock.Clock
}

// New returns a repository on pool.
func New(pool *pgxpool.Pool) Repo { return Repo{db: pool, pool: pool} }

// WithTx returns the repository working inside tx (an event consumer's
// transaction), except for ReviewProgress, which must commit at once.
func (r Repo) WithTx(tx pgx.Tx) Repo { return Repo{db: tx, pool: r.pool, now: r.now} }

// WithClock returns the repository dating what it records by now.
func (r Repo) WithClock(now clock.Clock) Repo {
	r.now = now
	return r
}

const categoryColumns = `id, owner_id, name, coalesce(site_url, ''), additional_info, disable_weekly_email,
	disable_business_report, coalesce(shopify_category_id, ''), created_at, last_digest_requested_at, time_zone, competitors`

func scanCategory(row pgx.Row) (domain.Category, error) {
	var c domain.Category
	var lastDigest *time.Time
	err := row.Scan(&c.ID, &c.OwnerID, &c.Name, &c.SiteURL, &c.AdditionalInfo, &c.DisableWeeklyEmail,
		&c.DisableBusinessReport, &c.ShopifyCategoryID, &c.CreatedAt, &lastDigest, &c.TimeZone, &c.Competitors)
	if errors.Is(err, pgx.ErrNoRows) {
		return domain.Category{}, domain.ErrNotFound
	}
	if lastDigest != nil {
		c.LastDigestRequestedAt = *lastDigest
	}
	return c, err
}

func nullIfZero(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}

// enqueueCategoryUpdated publishes the category as saved (CategoryUpdated).
func (r Repo) enqueueCategoryUpdated(ctx context.Context, tx pgx.Tx, c domain.Category) error {
	return events.Enqueue(ctx, tx, events.SubjectCategoryUpdated, &eventsv1.CategoryUpdated{
		CategoryId: c.ID, OwnerUserId: c.OwnerID, Name: c.Name, SiteUrl: c.SiteURL,
		DisableWeeklyEmail: c.DisableWeeklyEmail, DisableBusinessReport: c.DisableBusinessReport,
		OccurTime: timestamppb.New(r.now.Now()), TimeZone: c.TimeZone,
	})
}

func nullIfEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// Ensure implements app.Repository. Creating the category, or filling its
// empty name, publishes CategoryUpdated in the same transaction.
func (r Repo) Ensure(ctx context.Context, c domain.Category) (domain.Category, error) {
	var out domain.Category
	err := pgx.BeginFunc(ctx, r.db, func(tx pgx.Tx) error {
		before, err := scanCategory(tx.QueryRow(ctx, `SELECT `+categoryColumns+` FROM categories WHERE id = $1 FOR UPDATE`, c.ID))
		created := errors.Is(err, domain.ErrNotFound)
		if err != nil && !created {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO categories (id, owner_id, name, shopify_category_id, time_zone)
			VALUES ($1, $2, $3, $4, $5)
			ON CONFLICT (id) DO UPDATE SET
				name = CASE WHEN categories.name = '' THEN EXCLUDED.name ELSE categories.name END,
				shopify_category_id = coalesce(categories.shopify_category_id, EXCLUDED.shopify_category_id),
				time_zone = CASE WHEN categories.time_zone = '' THEN EXCLUDED.time_zone ELSE categories.time_zone END,
				updated_at = now()
			WHERE categories.owner_id = EXCLUDED.owner_id`,
			c.ID, c.OwnerID, c.Name, nullIfEmpty(c.ShopifyCategoryID), c.TimeZone); err != nil {
			return err
		}
		out, err = scanCategory(tx.QueryRow(ctx, `SELECT `+categoryColumns+` FROM categories WHERE id = $1`, c.ID))
		if err != nil {
			return err
		}
		if created || domain.AnnouncedChange(before, out) {
			return r.enqueueCategoryUpdated(ctx, tx, out)
		}
		return nil
	})
	return out, err
}

// Get implements app.Repository.
func (r Repo) Get(ctx context.Context, id string) (domain.Category, error) {
	return scanCategory(r.db.QueryRow(ctx, `SELECT `+categoryColumns+` FROM categories WHERE id = $1`, id))
}

// Update implements app.Repository.
func (r Repo) Update(ctx context.Context, id string, fn func(*domain.Category) (domain.Effects, error)) (domain.Category, error) {
	var out domain.Category
	err := pgx.BeginFunc(ctx, r.db, func(tx pgx.Tx) error {
		c, err := scanCategory(tx.QueryRow(ctx, `SELECT `+categoryColumns+` FROM categories WHERE id = $1 FOR UPDATE`, id))
		if err != nil {
			return err
		}
		eff, err := fn(&c)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE categories SET name = $2, site_url = $3, additional_info = $4,
			disable_weekly_email = $5, disable_business_report = $6, last_digest_requested_at = $7, time_zone = $8,
			competitors = $9, updated_at = now()
			WHERE id = $1`,
			c.ID, c.Name, nullIfEmpty(c.SiteURL), c.AdditionalInfo, c.DisableWeeklyEmail, c.DisableBusinessReport,
			nullIfZero(c.LastDigestRequestedAt), c.TimeZone, competitorsOrEmpty(c.Competitors)); err != nil {
			return err
		}
		if err := r.applyEffects(ctx, tx, c, eff); err != nil {
			return err
		}
		out = c
		return nil
	})
	return out, err
}

func (r Repo) applyEffects(ctx context.Context, tx pgx.Tx, c domain.Category, eff domain.Effects) error {
	if eff.InvalidateIdeas {
		if err := invalidateIdeas(ctx, tx, c.ID, r.now.Now()); err != nil {
			return err
		}
	}
	if rep := eff.NewReport; rep != nil {
		if _, err := tx.Exec(ctx, `INSERT INTO reports (id, category_id, site_url, status, step, week)
			VALUES ($1, $2, $3, 'GENERATING', 'Waiting to start', $4::date)`, rep.ID, c.ID, rep.SiteURL, nullIfEmpty(rep.Week)); err != nil {
			return err
		}
	}
	if e := eff.OnBehalf; e != nil {
		if _, err := tx.Exec(ctx, `INSERT INTO on_behalf_audit (actor_id, owner_id, category_id, action)
			VALUES ($1, $2, $3, $4)`, e.ActorID, e.OwnerID, c.ID, e.Action); err != nil {
			return err
		}
	}
	now := timestamppb.New(r.now.Now())
	for _, ev := range eff.Events() {
		if err := r.record(ctx, tx, c, ev, now); err != nil {
			return err
		}
	}
	return nil
}

// record writes one event the change implies (domain.Event) to the
// outbox, dated now.
func (r Repo) record(ctx context.Context, tx pgx.Tx, c domain.Category, ev domain.Event, now *timestamppb.Timestamp) error {
	switch ev := ev.(type) {
	case domain.ReviewStarted:
		rep := ev.Report
		// The review service reads the site with what it needs to know of
		// the business: its zone, its competitors, and the last review of
		// the same site, to say what is new, fixed or still open.
		var previous []byte
		var previousSite string
		if err := tx.QueryRow(ctx, `SELECT site_url, review FROM reports WHERE category_id = $1 AND status = 'READY'
			ORDER BY created_at DESC, id LIMIT 1`, c.ID).Scan(&previousSite, &previous); err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return err
		}
		if previousSite != rep.SiteURL {
			previous = nil // the last review is of another site: nothing to compare
		}
		if err := events.Enqueue(ctx, tx, events.SubjectReviewRequested, &eventsv1.ReviewRequested{
			CategoryId: c.ID, SiteUrl: rep.SiteURL, ReportId: rep.ID, OccurTime: now,
			TimeZone: c.TimeZone, CompetitorUrls: c.Competitors, PreviousReviewJson: previous,
		}); err != nil {
			return err
		}
		return r.enqueueReportUpdated(ctx, tx, c.ID, rep.ID, domain.StatusGenerating, 0)
	case domain.ActedOnBehalf:
		// The users service keeps the owner's audit log, which outlives this
		// category (its rows here go with it).
		e := ev.Entry
		return events.Enqueue(ctx, tx, events.SubjectActedOnBehalf, &eventsv1.ActedOnBehalf{
			ActorId: e.ActorID, OwnerId: e.OwnerID, CategoryId: c.ID, Action: e.Action,
			Service: "categories", OccurTime: now,
		})
	case domain.DigestAsked:
		d := ev.Request
		out := &eventsv1.DigestRequested{
			CategoryId: c.ID, RequestedBy: d.RequestedBy, OccurTime: now, OwnerUserId: c.OwnerID,
			StoreName: c.Name, SiteUrl: c.SiteURL,
		}
		if !c.LastDigestRequestedAt.IsZero() {
			out.OccurTime = timestamppb.New(c.LastDigestRequestedAt)
		}
		for _, in := range d.Insights {
			out.Insights = append(out.Insights, &eventsv1.DigestRequested_Insight{Text: in.Text, Evidence: in.Evidence})
		}
		for _, i := range d.Ideas {
			out.Ideas = append(out.Ideas, &eventsv1.DigestRequested_Idea{Id: i.ID, Title: i.Title, Channel: i.Channel, WhyNow: i.WhyNow})
		}
		return events.Enqueue(ctx, tx, events.SubjectDigestRequested, out)
	case domain.CategoryAnnounced:
		return r.enqueueCategoryUpdated(ctx, tx, c)
	}
	return fmt.Errorf("category %s: no outbox form for %T", c.ID, ev)
}

// invalidateIdeas marks every current idea of the category stale and
// issues the store's ideas again under new ids (domain.Effects): their
// numbers have not changed, while the website's wait for the next review.
// The reissued ones are dated at, the repository's clock, like every idea
// it records.
func invalidateIdeas(ctx context.Context, tx pgx.Tx, categoryID string, at time.Time) error {
	rows, err := tx.Query(ctx, `UPDATE ideas SET invalidated = true WHERE category_id = $1 AND NOT invalidated
		RETURNING id, topic <> ''`, categoryID)
	if err != nil {
		return err
	}
	var store []string
	for rows.Next() {
		var id string
		var isStore bool
		if err := rows.Scan(&id, &isStore); err != nil {
			rows.Close()
			return err
		}
		if isStore {
			store = append(store, id)
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	for _, id := range store {
		if _, err := tx.Exec(ctx, `INSERT INTO ideas (id, category_id, report_id, position, title, why_now, channel,
				subject_line, body, products, timing, topic, created_at)
			SELECT $2, category_id, NULL, position, title, why_now, channel, subject_line, body, products, timing, topic, $3
			FROM ideas WHERE id = $1`, id, uuid.NewString(), at); err != nil {
			return err
		}
	}
	return nil
}

func (r Repo) enqueueReportUpdated(ctx context.Context, tx pgx.Tx, categoryID, reportID string, s domain.ReportStatus, pct int) error {
	subject, err := events.ReportUpdatedSubject(categoryID)
	if err != nil {
		return err
	}
	return events.Enqueue(ctx, tx, subject, &eventsv1.ReportUpdated{
		CategoryId: categoryID, ReportId: reportID, Status: s.EventName(),
		ProgressPercent: int32(pct), OccurTime: timestamppb.New(r.now.Now()),
	})
}

const reportColumns = `id, category_id, site_url, status, progress, step, review, summary, error, created_at,
	coalesce(week::text, '')`

func (r Repo) loadReport(ctx context.Context, where string, args ...any) (*domain.Report, error) {
	var rep domain.Report
	var review []byte
	err := r.db.QueryRow(ctx, `SELECT `+reportColumns+` FROM reports WHERE `+where, args...).Scan(
		&rep.ID, &rep.CategoryID, &rep.SiteURL, &rep.Status, &rep.Progress, &rep.Step, &review,
		&rep.Summary, &rep.Error, &rep.CreatedAt, &rep.Week)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if review != nil {
		rep.Review = &domain.Review{}
		if err := json.Unmarshal(review, rep.Review); err != nil {
			return nil, fmt.Errorf("report %s: review: %w", rep.ID, err)
		}
	}
	if rep.Insights, err = r.insights(ctx, rep.ID); err != nil {
		return nil, err
	}
	if rep.Ideas, err = r.ideas(ctx, `report_id = $1 AND NOT invalidated ORDER BY position LIMIT $2`, rep.ID, domain.TopIdeas); err != nil {
		return nil, err
	}
	return &rep, nil
}

func (r Repo) insights(ctx context.Context, reportID string) ([]domain.Insight, error) {
	rows, err := r.db.Query(ctx, `SELECT id, text, evidence FROM insights WHERE report_id = $1 ORDER BY position`, reportID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (domain.Insight, error) {
		var in domain.Insight
		err := row.Scan(&in.ID, &in.Text, &in.Evidence)
		return in, err
	})
}

func (r Repo) ideas(ctx context.Context, where string, args ...any) ([]domain.Idea, error) {
	rows, err := r.db.Query(ctx, `SELECT id, title, why_now, channel, subject_line, body, products, timing, topic, created_at
		FROM ideas WHERE `+where, args...)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (domain.Idea, error) {
		var i domain.Idea
		err := row.Scan(&i.ID, &i.Title, &i.WhyNow, &i.Channel, &i.SubjectLine, &i.Body, &i.Products, &i.Timing, &i.Topic, &i.CreatedAt)
		return i, err
	})
}

// Report implements app.Repository.
func (r Repo) Report(ctx context.Context, reportID string) (domain.Report, error) {
	rep, err := r.loadReport(ctx, `id = $1`, reportID)
	if err != nil {
		return domain.Report{}, err
	}
	if rep == nil {
		return domain.Report{}, domain.ErrNotFound
	}
	return *rep, nil
}

// LatestReport implements app.Repository.
func (r Repo) LatestReport(ctx context.Context, categoryID string) (*domain.Report, error) {
	return r.loadReport(ctx, `category_id = $1 ORDER BY created_at DESC, id LIMIT 1`, categoryID)
}

// LatestReadyReport implements app.Repository.
func (r Repo) LatestReadyReport(ctx context.Context, categoryID string) (*domain.Report, error) {
	return r.loadReport(ctx, `category_id = $1 AND status = 'READY' ORDER BY created_at DESC, id LIMIT 1`, categoryID)
}

// RecentIdeas implements app.Repository: the store's ideas first (they are
// at most two), then newest first.
func (r Repo) RecentIdeas(ctx context.Context, categoryID string, limit int) ([]domain.Idea, error) {
	return r.ideas(ctx, `category_id = $1 AND NOT invalidated ORDER BY topic = '', created_at DESC, position LIMIT $2`, categoryID, limit)
}

// Idea implements app.Repository.
func (r Repo) Idea(ctx context.Context, categoryID, ideaID string) (domain.Idea, error) {
	ideas, err := r.ideas(ctx, `category_id = $1 AND id = $2`, categoryID, ideaID)
	if err != nil {
		return domain.Idea{}, err
	}
	if len(ideas) == 0 {
		return domain.Idea{}, domain.ErrIdeaNotFound
	}
	return ideas[0], nil
}

// ReviewProgress implements app.Repository. The bar never moves back: an
// older event redelivered after a newer one changes nothing.
//
// Its commit does not wait for the disk (synchronous_commit off, for this
// transaction only): a review reports its progress about ten times, and
// waiting for each flush made the weekly re-review's speed that of the
// shared disk's fsync (0.32–0.59× of the bare engine from run to run).
// A crash may lose the last fraction of a second of progress, never a
// result: the next step, the finished or failed review (committed as
// usual) and redelivered events all overwrite it.
func (r Repo) ReviewProgress(ctx context.Context, categoryID, reportID string, pct int, step string) error {
	return pgx.BeginFunc(ctx, r.db, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SET LOCAL synchronous_commit = off`); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `UPDATE reports SET progress = $2, step = $3, updated_at = now()
			WHERE id = $1 AND status = 'GENERATING' AND progress <= $2`, reportID, pct, step)
		if err != nil || tag.RowsAffected() == 0 {
			return err
		}
		return r.enqueueReportUpdated(ctx, tx, categoryID, reportID, domain.StatusGenerating, pct)
	})
}

// FinishReview implements app.Repository.
func (r Repo) FinishReview(ctx context.Context, categoryID, reportID string, a domain.Analysis, weekly *domain.WeeklyReview) (bool, error) {
	current := false
	err := pgx.BeginFunc(ctx, r.db, func(tx pgx.Tx) error {
		// The category lock orders this against a concurrent website change.
		var site *string
		if err := tx.QueryRow(ctx, `SELECT site_url FROM categories WHERE id = $1 FOR UPDATE`, categoryID).Scan(&site); err != nil {
			return err
		}
		var latest, repSite string
		if err := tx.QueryRow(ctx, `SELECT id, site_url FROM reports WHERE category_id = $1 ORDER BY created_at DESC, id LIMIT 1`,
			categoryID).Scan(&latest, &repSite); err != nil {
			return err
		}
		if latest != reportID || site == nil || *site != repSite {
			return r.failReport(ctx, tx, categoryID, reportID, domain.SupersededMessage)
		}
		current = true
		review, err := json.Marshal(a.Review)
		if err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `UPDATE reports SET status = 'READY', progress = 100, step = 'Done', score = $2,
			review = $3, summary = $4, error = '', updated_at = now() WHERE id = $1 AND status = 'GENERATING'`,
			reportID, a.Review.Score, review, a.Summary)
		if err != nil || tag.RowsAffected() == 0 {
			current = false
			return err
		}
		// The insights, the old ideas' invalidation and the new ideas go in
		// one round trip, in this order: a statement each made FinishReview
		// most of a weekly review's database time.
		b := &pgx.Batch{}
		for i, in := range a.Insights {
			b.Queue(`INSERT INTO insights (report_id, position, id, text, evidence) VALUES ($1, $2, $3, $4, $5)`,
				reportID, i, in.ID, in.Text, in.Evidence)
		}
		// Ideas of the old run make way for the new ones; the store's own
		// ideas follow the store's numbers, not the website.
		b.Queue(`UPDATE ideas SET invalidated = true WHERE category_id = $1 AND NOT invalidated AND topic = ''`, categoryID)
		// One time for the batch, so "newest first" keeps the engine's order.
		batch := r.now.Now()
		ideaIDs := make([]string, len(a.Ideas))
		for i, idea := range a.Ideas {
			created := idea.CreatedAt
			if created.IsZero() {
				created = batch
			}
			products := idea.Products
			if products == nil {
				products = []string{}
			}
			ideaIDs[i] = uuid.NewString()
			b.Queue(`INSERT INTO ideas (id, category_id, report_id, position, title, why_now, channel,
				subject_line, body, products, timing, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
				ideaIDs[i], categoryID, reportID, i, idea.Title, idea.WhyNow, idea.Channel, idea.SubjectLine,
				idea.Body, products, idea.Timing, created)
		}
		var week string
		b.Queue(`SELECT coalesce(week::text, '') FROM reports WHERE id = $1`, reportID).QueryRow(func(row pgx.Row) error {
			return row.Scan(&week)
		})
		if err := tx.SendBatch(ctx, b).Close(); err != nil {
			return err
		}
		// Which emails the review sends is the domain's (WeeklyEmails),
		// given the report's week as it is now, under the category's lock.
		for _, ev := range domain.WeeklyEmails(weekly, week) {
			if err := events.Enqueue(ctx, tx, events.SubjectWeeklyReviewReady, toProtoWeekly(ev.Review, a.Ideas, ideaIDs, r.now.Now())); err != nil {
				return err
			}
		}
		if _, err := tx.Exec(ctx, `UPDATE categories SET additional_info = $2, updated_at = now() WHERE id = $1`,
			categoryID, a.Summary); err != nil {
			return err
		}
		return r.enqueueReportUpdated(ctx, tx, categoryID, reportID, domain.StatusReady, 100)
	})
	return current, err
}

// WeeklyReviewCandidates implements app.Repository: categories with a
// website and the weekly email on, with the newest week started.
func (r Repo) WeeklyReviewCandidates(ctx context.Context) ([]domain.WeeklyReviewCandidate, error) {
	rows, err := r.db.Query(ctx, `SELECT c.id, c.time_zone, coalesce(s.time_zone, ''),
			(SELECT max(week) FROM weekly_reviews w WHERE w.category_id = c.id),
			(SELECT min(created_at) FROM reports r WHERE r.category_id = c.id)
		FROM categories c LEFT JOIN store_signals s ON s.category_id = c.id
		WHERE c.site_url IS NOT NULL AND NOT c.disable_weekly_email ORDER BY c.id`)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (domain.WeeklyReviewCandidate, error) {
		var c domain.WeeklyReviewCandidate
		var last, first *time.Time
		err := row.Scan(&c.CategoryID, &c.TimeZone, &c.StoreTimeZone, &last, &first)
		if last != nil {
			c.LastWeek = schedule.DateOf(last.UTC())
		}
		if first != nil {
			c.FirstReviewAt = *first
		}
		return c, err
	})
}

// StartWeeklyReview implements app.Repository: the week's row, the report
// and ReviewRequested are written in one transaction, or nothing when the
// week was started already (by another replica) or the category no longer
// wants it.
func (r Repo) StartWeeklyReview(ctx context.Context, categoryID, week string, newReport func(domain.Category) *domain.Report) (bool, error) {
	started := false
	err := pgx.BeginFunc(ctx, r.db, func(tx pgx.Tx) error {
		c, err := scanCategory(tx.QueryRow(ctx, `SELECT `+categoryColumns+` FROM categories WHERE id = $1 FOR UPDATE`, categoryID))
		if errors.Is(err, domain.ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		if c.SiteURL == "" || c.DisableWeeklyEmail {
			return nil
		}
		// A review of the same site already under way (the owner just saved
		// it) becomes the week's, rather than being replaced by a new one.
		var latestID, latestSite, latestStatus string
		err = tx.QueryRow(ctx, `SELECT id, site_url, status FROM reports WHERE category_id = $1 ORDER BY created_at DESC, id LIMIT 1`,
			categoryID).Scan(&latestID, &latestSite, &latestStatus)
		if err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return err
		}
		latest := domain.Report{Status: domain.ReportStatus(latestStatus), SiteURL: latestSite}
		adopt := latest.UnderWayFor(c.SiteURL)
		rep := newReport(c)
		if adopt {
			rep.ID = latestID
		}
		tag, err := tx.Exec(ctx, `INSERT INTO weekly_reviews (category_id, week, report_id) VALUES ($1, $2::date, $3)
			ON CONFLICT DO NOTHING`, categoryID, week, rep.ID)
		if err != nil || tag.RowsAffected() == 0 {
			return err
		}
		started = true
		if adopt {
			_, err := tx.Exec(ctx, `UPDATE reports SET week = $2::date WHERE id = $1 AND week IS NULL`, rep.ID, week)
			return err
		}
		return r.applyEffects(ctx, tx, c, domain.Effects{NewReport: rep})
	})
	return started, err
}

// toProtoWeekly is the WeeklyReviewReady of w; ids are the ids the
// review's ideas were stored under, in ideas' order.
func toProtoWeekly(w domain.WeeklyReview, ideas []domain.Idea, ids []string, at time.Time) *eventsv1.WeeklyReviewReady {
	findings := func(fs []domain.Finding) []*eventsv1.WeeklyReviewReady_Finding {
		out := make([]*eventsv1.WeeklyReviewReady_Finding, 0, len(fs))
		for _, f := range fs {
			out = append(out, &eventsv1.WeeklyReviewReady_Finding{Title: f.Title, Fix: f.Fix, Points: int32(f.PointsLost), Url: f.URL})
		}
		return out
	}
	ev := &eventsv1.WeeklyReviewReady{CategoryId: w.CategoryID, OwnerUserId: w.OwnerID, StoreName: w.StoreName,
		SiteUrl: w.SiteURL, ReportId: w.ReportID, Week: w.Week, Score: int32(w.Score), Band: string(w.Band),
		NewFindings: findings(w.New), FixedFindings: findings(w.Fixed), OpenFindings: findings(w.Open),
		TopFixes: findings(w.Tops), OccurTime: timestamppb.New(at), FirstReview: w.First}
	if w.PreviousScore != nil {
		p := int32(*w.PreviousScore)
		ev.PreviousScore = &p
	}
	ev.Status = "READY"
	if w.Failure != "" {
		// No review this week: no score, band or findings of its own; the
		// band is the last known score's.
		ev.Status, ev.Failure, ev.Score, ev.Band, ev.PreviousBand = "FAILED", w.Failure, 0, "", string(w.Band)
	}
	if w.Idea != nil {
		for i := range ideas {
			if ideas[i].Title == w.Idea.Title && ideas[i].WhyNow == w.Idea.WhyNow {
				ev.Idea = &eventsv1.WeeklyReviewReady_Idea{Id: ids[i], Title: w.Idea.Title, WhyNow: w.Idea.WhyNow, Channel: w.Idea.Channel}
				break
			}
		}
	}
	return ev
}

// FailReview implements app.Repository.
func (r Repo) FailReview(ctx context.Context, categoryID, reportID, message string, weekly *domain.WeeklyReview) error {
	return pgx.BeginFunc(ctx, r.db, func(tx pgx.Tx) error {
		week, failed, err := r.failReportWeek(ctx, tx, categoryID, reportID, message)
		if err != nil || !failed || weekly == nil || week == "" {
			return err
		}
		// The week's review failed: its email says so, once (this UPDATE
		// moved the report out of GENERATING in this transaction).
		w := *weekly
		w.Week = week
		return events.Enqueue(ctx, tx, events.SubjectWeeklyReviewReady, toProtoWeekly(w, nil, nil, r.now.Now()))
	})
}

func (r Repo) failReport(ctx context.Context, tx pgx.Tx, categoryID, reportID, message string) error {
	_, _, err := r.failReportWeek(ctx, tx, categoryID, reportID, message)
	return err
}

// failReportWeek marks a generating report FAILED; failed says whether it
// did, week is the report's week (empty when it is not a weekly review).
func (r Repo) failReportWeek(ctx context.Context, tx pgx.Tx, categoryID, reportID, message string) (week string, failed bool, err error) {
	var pct int
	err = tx.QueryRow(ctx, `UPDATE reports SET status = 'FAILED', error = $2, updated_at = now()
		WHERE id = $1 AND status = 'GENERATING' RETURNING progress, coalesce(week::text, '')`, reportID, message).Scan(&pct, &week)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	return week, true, r.enqueueReportUpdated(ctx, tx, categoryID, reportID, domain.StatusFailed, pct)
}

// DeleteOwnedBy implements app.Repository. Reports, insights, ideas and
// on-behalf audit rows go with their category through ON DELETE CASCADE,
// so a table added later under categories is covered by its foreign key
// rather than by remembering to list it here. The audit rows naming the
// user as owner are deleted explicitly too, should any outlive a category.
func (r Repo) DeleteOwnedBy(ctx context.Context, ownerID string) (int, error) {
	var n int
	err := pgx.BeginFunc(ctx, r.db, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `DELETE FROM categories WHERE owner_id = $1`, ownerID)
		if err != nil {
			return err
		}
		n = int(tag.RowsAffected())
		_, err = tx.Exec(ctx, `DELETE FROM on_behalf_audit WHERE owner_id = $1`, ownerID)
		return err
	})
	return n, err
}

// UnsubscribeOwnedBy implements app.Repository. Categories already
// unsubscribed are left alone, so redelivery does not touch updated_at;
// each one changed publishes CategoryUpdated in the same transaction.
func (r Repo) UnsubscribeOwnedBy(ctx context.Context, ownerID string) (int, error) {
	n := 0
	err := pgx.BeginFunc(ctx, r.db, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `UPDATE categories SET disable_weekly_email = true, disable_business_report = true,
			updated_at = now() WHERE owner_id = $1 AND NOT (disable_weekly_email AND disable_business_report)
			RETURNING `+categoryColumns, ownerID)
		if err != nil {
			return err
		}
		changed, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (domain.Category, error) { return scanCategory(row) })
		if err != nil {
			return err
		}
		for _, c := range changed {
			if err := r.enqueueCategoryUpdated(ctx, tx, c); err != nil {
				return err
			}
		}
		n = len(changed)
		return nil
	})
	return n, err
}

const storeSignalsColumns = `category_id, currency, currency_decimals, as_of, occur_time, best_seller_title,
	best_seller_net, best_seller_quantity, falling_title, falling_before, falling_after, falling_percent, unusual_headline,
	time_zone`

// StoreSignals implements app.Repository.
func (r Repo) StoreSignals(ctx context.Context, categoryID string) (*domain.StoreSignals, error) {
	var s domain.StoreSignals
	var bestTitle, fallTitle *string
	var bestNet, bestQty, fallBefore, fallAfter *int64
	var fallPct *int
	err := r.db.QueryRow(ctx, `SELECT `+storeSignalsColumns+` FROM store_signals WHERE category_id = $1`, categoryID).Scan(
		&s.CategoryID, &s.Currency, &s.CurrencyDecimals, &s.AsOf, &s.OccurTime, &bestTitle, &bestNet, &bestQty,
		&fallTitle, &fallBefore, &fallAfter, &fallPct, &s.UnusualHeadline, &s.TimeZone)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	s.AsOf = s.AsOf.UTC()
	if bestTitle != nil {
		s.BestSeller = &domain.StoreBestSeller{Title: *bestTitle, NetSales: deref(bestNet), Quantity: deref(bestQty)}
	}
	if fallTitle != nil {
		s.Falling = &domain.StoreFallingProduct{Title: *fallTitle, Before: deref(fallBefore), After: deref(fallAfter), Percent: deref(fallPct)}
	}
	return &s, nil
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// UpdateStoreSignals implements app.Repository. The category's row lock
// orders it against an invalidation of its ideas and a second consumer.
func (r Repo) UpdateStoreSignals(ctx context.Context, categoryID string,
	fn func(domain.Category, *domain.StoreSignals, []domain.Idea) (domain.StoreChange, error)) error {
	return pgx.BeginFunc(ctx, r.db, func(tx pgx.Tx) error {
		c, err := scanCategory(tx.QueryRow(ctx, `SELECT `+categoryColumns+` FROM categories WHERE id = $1 FOR UPDATE`, categoryID))
		if err != nil {
			return err
		}
		in := r.WithTx(tx)
		cur, err := in.StoreSignals(ctx, categoryID)
		if err != nil {
			return err
		}
		ideas, err := in.ideas(ctx, `category_id = $1 AND NOT invalidated AND topic <> '' ORDER BY position`, categoryID)
		if err != nil {
			return err
		}
		ch, err := fn(c, cur, ideas)
		if err != nil || ch.Signals == nil {
			return err
		}
		s := ch.Signals
		var bestTitle, fallTitle *string
		var bestNet, bestQty, fallBefore, fallAfter *int64
		var fallPct *int
		if b := s.BestSeller; b != nil {
			bestTitle, bestNet, bestQty = &b.Title, &b.NetSales, &b.Quantity
		}
		if f := s.Falling; f != nil {
			fallTitle, fallBefore, fallAfter, fallPct = &f.Title, &f.Before, &f.After, &f.Percent
		}
		if _, err := tx.Exec(ctx, `INSERT INTO store_signals (`+storeSignalsColumns+`)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
			ON CONFLICT (category_id) DO UPDATE SET currency = excluded.currency,
				currency_decimals = excluded.currency_decimals, as_of = excluded.as_of, occur_time = excluded.occur_time,
				best_seller_title = excluded.best_seller_title, best_seller_net = excluded.best_seller_net,
				best_seller_quantity = excluded.best_seller_quantity, falling_title = excluded.falling_title,
				falling_before = excluded.falling_before, falling_after = excluded.falling_after,
				falling_percent = excluded.falling_percent, unusual_headline = excluded.unusual_headline,
				time_zone = excluded.time_zone, received_at = now()`,
			categoryID, s.Currency, s.CurrencyDecimals, s.AsOf, s.OccurTime, bestTitle, bestNet, bestQty,
			fallTitle, fallBefore, fallAfter, fallPct, s.UnusualHeadline, s.TimeZone); err != nil {
			return err
		}
		if len(ch.RetireIdeas) > 0 {
			if _, err := tx.Exec(ctx, `UPDATE ideas SET invalidated = true WHERE category_id = $1 AND id = ANY($2) AND topic <> ''`,
				categoryID, ch.RetireIdeas); err != nil {
				return err
			}
		}
		now := r.now.Now()
		for i, idea := range ch.AddIdeas {
			if idea.Topic == "" {
				return fmt.Errorf("store idea %q has no topic", idea.Title)
			}
			products := idea.Products
			if products == nil {
				products = []string{}
			}
			if _, err := tx.Exec(ctx, `INSERT INTO ideas (id, category_id, report_id, position, title, why_now, channel,
				subject_line, body, products, timing, topic, created_at) VALUES ($1, $2, NULL, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
				uuid.NewString(), categoryID, i, idea.Title, idea.WhyNow, idea.Channel, idea.SubjectLine, idea.Body,
				products, idea.Timing, idea.Topic, now); err != nil {
				return err
			}
		}
		return nil
	})
}

// competitorsOrEmpty keeps the column's NOT NULL: no competitors is '{}'.
func competitorsOrEmpty(urls []string) []string {
	if urls == nil {
		return []string{}
	}
	return urls
}
