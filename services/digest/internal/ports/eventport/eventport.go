// Package eventport is the digest service's NATS side: durable consumers
// that turn users' and categories' events into queued emails and into what
// the digest keeps of its recipients (addresses, stores, suppressions), each
// in the transaction that records the event as handled, so a redelivered
// event changes nothing.
package eventport

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	eventsv1 "uplift.dev/proto/gen/uplift/events/v1"

	"uplift.dev/digest/bus"
	"uplift.dev/digest/internal/app"
	"uplift.dev/digest/internal/domain"
	"uplift.dev/platform/events"
	"uplift.dev/platform/validation"
)

// noRecipientRetries is how many deliveries a digest request waits for
// the owner's address to arrive (UserCreated on its own consumer) before
// it is dropped; deliveries are 2 s apart.
const noRecipientRetries = 30

// Consumers feeds user events to the mail use cases.
type Consumers struct {
	Bus events.Bus
	App *app.App
	// InTx binds the outbox to the transaction of the event being handled.
	InTx func(pgx.Tx) app.EventStore
}

// Workers are the consumers to run beside the gRPC server.
func (c Consumers) Workers() []func(context.Context) error {
	return []func(context.Context) error{
		events.On(c.Bus, bus.Welcome, c.HandleUserCreated),
		events.On(c.Bus, bus.EmailChanged, c.HandleEmailChanged),
		events.On(c.Bus, bus.UserDeleted, c.HandleUserDeleted),
		events.On(c.Bus, bus.Reset, c.HandlePasswordReset),
		events.On(c.Bus, bus.SignUp, c.HandleSignUpAttempted),
		events.On(c.Bus, bus.Verification, c.HandleEmailVerification),
		events.On(c.Bus, bus.Unsubscribed, c.HandleUserUnsubscribed),
		events.On(c.Bus, bus.Category, c.HandleCategoryUpdated),
		events.On(c.Bus, bus.AIDigest, c.HandleDigestRequested),
		events.On(c.Bus, bus.DailyReport, c.HandleDailyReportReady),
		events.On(c.Bus, bus.ShopMoved, c.HandleShopMoved),
		events.On(c.Bus, bus.WeeklyReview, c.HandleWeeklyReviewReady),
	}
}

// HandleUserCreated records the new user's address and queues the welcome
// email.
func (c Consumers) HandleUserCreated(ctx context.Context, tx pgx.Tx, ev *eventsv1.UserCreated, m events.Meta) error {
	in := c.InTx(tx)
	if err := c.App.RecordRecipient(ctx, in, domain.Recipient{UserID: ev.GetUserId(), Email: ev.GetEmail(),
		CategoryID: ev.GetCategoryId()}, ev.GetOccurTime().AsTime()); err != nil {
		return c.result(ctx, m, err)
	}
	err := c.App.QueueWelcome(ctx, in, app.UserCreated{
		UserID: ev.GetUserId(), Email: ev.GetEmail(), DisplayName: ev.GetDisplayName(),
		SuppressWelcomeEmail: ev.GetSuppressWelcomeEmail(),
	})
	return c.result(ctx, m, err)
}

// HandleEmailChanged queues the notice to the old address and the
// confirmation to the new one.
func (c Consumers) HandleEmailChanged(ctx context.Context, tx pgx.Tx, ev *eventsv1.UserEmailChanged, m events.Meta) error {
	ch := app.EmailChanged{UserID: ev.GetUserId(), OldEmail: ev.GetOldEmail(), NewEmail: ev.GetNewEmail()}
	if ev.GetOccurTime() != nil {
		ch.At = ev.GetOccurTime().AsTime()
	}
	in := c.InTx(tx)
	if err := c.App.RecordRecipient(ctx, in, domain.Recipient{UserID: ev.GetUserId(), Email: ev.GetNewEmail()},
		ev.GetOccurTime().AsTime()); err != nil {
		return c.result(ctx, m, err)
	}
	return c.result(ctx, m, c.App.QueueEmailChanged(ctx, in, ch))
}

// HandleUserDeleted removes the user's emails.
func (c Consumers) HandleUserDeleted(ctx context.Context, tx pgx.Tx, ev *eventsv1.UserDeleted, m events.Meta) error {
	in := c.InTx(tx)
	if err := c.App.ForgetRecipient(ctx, in, ev.GetUserId()); err != nil {
		return c.result(ctx, m, err)
	}
	return c.result(ctx, m, c.App.ForgetUser(ctx, in, ev.GetUserId()))
}

// HandleUserUnsubscribed turns every non-transactional email off for the
// user.
func (c Consumers) HandleUserUnsubscribed(ctx context.Context, tx pgx.Tx, ev *eventsv1.UserUnsubscribed, m events.Meta) error {
	return c.result(ctx, m, c.App.UnsubscribeAll(ctx, c.InTx(tx), ev.GetUserId(), ev.GetOccurTime().AsTime()))
}

// HandleCategoryUpdated keeps the newest snapshot of a store.
func (c Consumers) HandleCategoryUpdated(ctx context.Context, tx pgx.Tx, ev *eventsv1.CategoryUpdated, m events.Meta) error {
	return c.result(ctx, m, c.App.ApplyStore(ctx, c.InTx(tx), domain.Store{
		CategoryID: ev.GetCategoryId(), OwnerUserID: ev.GetOwnerUserId(), Name: ev.GetName(), SiteURL: ev.GetSiteUrl(),
		DisableWeeklyEmail: ev.GetDisableWeeklyEmail(), DisableBusinessReport: ev.GetDisableBusinessReport(),
		At: ev.GetOccurTime().AsTime(),
	}))
}

// HandleDigestRequested queues the AI email digest. When the owner's
// address has not arrived yet the request is retried for a while, then
// dropped with an error in the log.
func (c Consumers) HandleDigestRequested(ctx context.Context, tx pgx.Tx, ev *eventsv1.DigestRequested, m events.Meta) error {
	err := c.App.QueueAIDigest(ctx, c.InTx(tx), fromProtoDigest(ev))
	return c.awaitingRecipient(ctx, m, err)
}

// HandleDailyReportReady queues the daily business report email. A report
// without data sends nothing (never an email of empty zeros); when the
// owner's address has not arrived yet it is retried for a while, then
// dropped with an error in the log.
func (c Consumers) HandleDailyReportReady(ctx context.Context, tx pgx.Tx, ev *eventsv1.DailyReportReady, m events.Meta) error {
	var err error
	if w := ev.GetWithoutData(); w != nil {
		err = c.App.QueueDailyReportWithoutData(ctx, c.InTx(tx), fromProtoWithoutData(ev))
	} else {
		err = c.App.QueueDailyReport(ctx, c.InTx(tx), fromProtoDailyReport(ev))
	}
	if errors.Is(err, domain.ErrNothingToReport) {
		c.Bus.Log.InfoContext(ctx, "daily report without data: no email", "category", ev.GetCategoryId(), "date", ev.GetDate())
		return nil
	}
	return c.awaitingRecipient(ctx, m, err)
}

// HandleShopMoved tells the owner of the account a Shopify shop left that
// it moved; when their address has not arrived yet it is retried for a
// while, then dropped with an error in the log.
func (c Consumers) HandleShopMoved(ctx context.Context, tx pgx.Tx, ev *eventsv1.ShopifyShopMoved, m events.Meta) error {
	err := c.App.QueueShopMoved(ctx, c.InTx(tx), app.ShopMoved{
		CategoryID: ev.GetCategoryId(), Shop: ev.GetShop(), At: ev.GetOccurTime().AsTime()})
	return c.awaitingRecipient(ctx, m, err)
}

// HandleWeeklyReviewReady queues the weekly website review email; when the
// owner's address has not arrived yet it is retried for a while, then
// dropped with an error in the log.
func (c Consumers) HandleWeeklyReviewReady(ctx context.Context, tx pgx.Tx, ev *eventsv1.WeeklyReviewReady, m events.Meta) error {
	err := c.App.QueueWeeklyReview(ctx, c.InTx(tx), fromProtoWeekly(ev))
	return c.awaitingRecipient(ctx, m, err)
}

func fromProtoWeekly(ev *eventsv1.WeeklyReviewReady) domain.WeeklyReview {
	fs := func(in []*eventsv1.WeeklyReviewReady_Finding) []domain.Finding {
		var out []domain.Finding
		for _, f := range in {
			out = append(out, domain.Finding{Title: f.GetTitle(), Fix: f.GetFix(), Points: int(f.GetPoints()), URL: f.GetUrl()})
		}
		return out
	}
	w := domain.WeeklyReview{CategoryID: ev.GetCategoryId(), OwnerUserID: ev.GetOwnerUserId(), StoreName: ev.GetStoreName(),
		SiteURL: ev.GetSiteUrl(), Week: ev.GetWeek(), Score: int(ev.GetScore()), Band: ev.GetBand(),
		New: fs(ev.GetNewFindings()), Fixed: fs(ev.GetFixedFindings()), Open: fs(ev.GetOpenFindings()), Tops: fs(ev.GetTopFixes()),
		First: ev.GetFirstReview()}
	if ev.PreviousScore != nil {
		p := int(ev.GetPreviousScore())
		w.PreviousScore = &p
	}
	if i := ev.GetIdea(); i != nil {
		w.Idea = &domain.Idea{ID: i.GetId(), Title: i.GetTitle(), Channel: i.GetChannel(), WhyNow: i.GetWhyNow()}
	}
	if ev.GetStatus() == "FAILED" {
		w.Failure, w.PreviousBand = ev.GetFailure(), ev.GetPreviousBand()
		if w.Failure == "" {
			w.Failure = "it could not be read"
		}
	}
	return w
}

func fromProtoWithoutData(ev *eventsv1.DailyReportReady) domain.DailyReportWithoutData {
	w := ev.GetWithoutData()
	r := domain.DailyReportWithoutData{CategoryID: ev.GetCategoryId(), OwnerUserID: w.GetOwnerUserId(), StoreName: w.GetStoreName(),
		SiteURL: w.GetSiteUrl(), Date: ev.GetDate(), NoData: domain.NoData{WebsiteStatus: w.GetWebsiteStatus(),
			WebsiteBand: w.GetWebsiteBand(), OpenFindings: int(w.GetOpenFindings()), OccasionName: w.GetOccasionName(),
			OccasionDate: w.GetOccasionDate()}}
	if w.WebsiteScore != nil {
		s := int(w.GetWebsiteScore())
		r.NoData.WebsiteScore = &s
	}
	if i := w.GetIdea(); i != nil {
		r.Idea = &domain.Idea{ID: i.GetId(), Title: i.GetTitle(), Channel: i.GetChannel(), WhyNow: i.GetWhyNow()}
	}
	return r
}

func fromProtoDailyReport(ev *eventsv1.DailyReportReady) domain.DailyReport {
	r := domain.DailyReport{CategoryID: ev.GetCategoryId(), Date: ev.GetDate(), Currency: ev.GetCurrency(),
		Status: ev.GetStatus(), Headline: ev.GetHeadline(), Notes: ev.GetNotes(),
		BestSeller: validation.Clip(ev.GetBestSeller(), validation.MaxTitleRunes),
		Summary:    ev.GetSummary(), Action: ev.GetAction()}
	for _, m := range ev.GetMetrics() {
		r.Metrics = append(r.Metrics, domain.ReportMetric{Key: m.GetKey(), Label: m.GetLabel(), Value: m.Value,
			Average: m.Average, ChangePercent: m.ChangePercent, Unusual: m.GetUnusual()})
	}
	return r
}

func fromProtoDigest(ev *eventsv1.DigestRequested) domain.AIDigest {
	d := domain.AIDigest{CategoryID: ev.GetCategoryId(), OwnerUserID: ev.GetOwnerUserId(), StoreName: ev.GetStoreName(),
		SiteURL: ev.GetSiteUrl(), At: ev.GetOccurTime().AsTime()}
	for _, in := range ev.GetInsights() {
		d.Insights = append(d.Insights, domain.Insight{Text: in.GetText(), Evidence: in.GetEvidence()})
	}
	for _, i := range ev.GetIdeas() {
		d.Ideas = append(d.Ideas, domain.Idea{ID: i.GetId(), Title: i.GetTitle(), Channel: i.GetChannel(), WhyNow: i.GetWhyNow()})
	}
	return d
}

// HandleEmailVerification queues the email that confirms a new account's
// address.
func (c Consumers) HandleEmailVerification(ctx context.Context, tx pgx.Tx, ev *eventsv1.EmailVerificationRequested, m events.Meta) error {
	return c.result(ctx, m, c.App.QueueEmailVerificationIn(ctx, c.InTx(tx),
		app.EmailVerification{UserID: ev.GetUserId(), Email: ev.GetEmail(), Link: ev.GetLink()}))
}

// HandlePasswordReset queues the reset email. The request is named by the
// event's message id (the producer's outbox row), or else by a hash of the
// link, whose one-time code is unique per request.
func (c Consumers) HandlePasswordReset(ctx context.Context, tx pgx.Tx, ev *eventsv1.PasswordResetRequested, m events.Meta) error {
	id := m.ID
	if id == "" {
		sum := sha256.Sum256([]byte(ev.GetLink()))
		id = "link-" + hex.EncodeToString(sum[:16])
	}
	return c.result(ctx, m, c.App.QueuePasswordReset(ctx, c.InTx(tx),
		app.PasswordReset{RequestID: id, Email: ev.GetEmail(), Link: ev.GetLink()}))
}

// HandleSignUpAttempted queues the notice that someone tried to sign up
// with the account's email.
func (c Consumers) HandleSignUpAttempted(ctx context.Context, tx pgx.Tx, ev *eventsv1.SignUpAttempted, m events.Meta) error {
	return c.result(ctx, m, c.App.QueueSignUpAttempt(ctx, c.InTx(tx),
		app.SignUpAttempt{UserID: ev.GetUserId(), Email: ev.GetEmail(), At: ev.GetOccurTime().AsTime()}))
}

// result drops an event that can never become an email (retrying would
// not help) and returns other errors for redelivery.
func (c Consumers) result(ctx context.Context, m events.Meta, err error) error {
	if errors.Is(err, domain.ErrInvalidAddress) || errors.Is(err, domain.ErrMissingID) || errors.Is(err, domain.ErrInvalidLink) {
		return c.drop(ctx, m, err)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", m.Subject, err)
	}
	return nil
}

// awaitingRecipient is result for an email to a store's owner, whose
// address comes on its own consumer (UserCreated) and may not have arrived
// yet: such an event is redelivered up to noRecipientRetries times, then
// dropped.
func (c Consumers) awaitingRecipient(ctx context.Context, m events.Meta, err error) error {
	if !errors.Is(err, app.ErrNoRecipient) {
		return c.result(ctx, m, err)
	}
	if m.Delivered < noRecipientRetries {
		return fmt.Errorf("%s: %w (delivery %d)", m.Subject, err, m.Delivered)
	}
	return c.drop(ctx, m, err)
}

func (c Consumers) drop(ctx context.Context, m events.Meta, err error) error {
	c.Bus.Log.ErrorContext(ctx, "unusable event dropped", "subject", m.Subject, "id", m.ID, "err", err)
	return nil
}
