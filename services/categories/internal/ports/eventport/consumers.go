// Package eventport is the categories service's NATS side: durable
// consumers that create a category for each new user, remove a deleted
// user's categories, honour unsubscribes (from everything, and per kind of
// email from an email's one-click link), record the website reviews the
// review service makes (their progress, result or failure) and keep the
// store signals the stores service publishes.
package eventport

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	eventsv1 "uplift.dev/proto/gen/uplift/events/v1"

	"uplift.dev/categories/bus"
	"uplift.dev/categories/internal/app"
	"uplift.dev/categories/internal/domain"
	"uplift.dev/platform/events"
	"uplift.dev/platform/validation"
)

// Consumers runs the service's event consumers. Each message is handled in
// a transaction that also records its id, so redelivery changes nothing.
type Consumers struct {
	Bus events.Bus
	App *app.App
	// InTx binds storage to the consumer's transaction.
	InTx func(pgx.Tx) app.Repository
}

// Workers are the consumers to run beside the gRPC server. UserDeleted has
// a durable consumer of its own so a slow deletion never holds up sign-ups,
// and a review's progress one apart from its result.
func (c Consumers) Workers() []func(context.Context) error {
	return []func(context.Context) error{
		events.On(c.Bus, bus.Users, c.HandleUserCreated),
		events.On(c.Bus, bus.UsersDeleted, c.HandleUserDeleted),
		events.On(c.Bus, bus.Unsubscribed, c.HandleUserUnsubscribed),
		events.On(c.Bus, bus.EmailKind, c.HandleEmailKindUnsubscribed),
		events.On(c.Bus, bus.StoreSignals, c.HandleStoreSignals),
		events.On(c.Bus, bus.ReviewProgress, c.HandleReviewProgressed),
		events.On(c.Bus, bus.ReviewDone, c.HandleReviewCompleted),
		events.On(c.Bus, bus.ReviewFailed, c.HandleReviewFailed),
	}
}

// HandleEmailKindUnsubscribed flips the profile's switch for a kind of
// email turned off (or on) from an email's unsubscribe link.
func (c Consumers) HandleEmailKindUnsubscribed(ctx context.Context, tx pgx.Tx, ev *eventsv1.EmailKindUnsubscribed, _ events.Meta) error {
	return c.App.Within(c.InTx(tx)).ApplyEmailKindChange(ctx, app.EmailKindChange{
		UserID: ev.GetUserId(), CategoryID: ev.GetCategoryId(), Kind: ev.GetKind(), Resubscribed: ev.GetResubscribed(),
	})
}

// HandleUserCreated creates the new user's category.
func (c Consumers) HandleUserCreated(ctx context.Context, tx pgx.Tx, ev *eventsv1.UserCreated, _ events.Meta) error {
	return c.App.Within(c.InTx(tx)).CreateFromSignUp(ctx, app.SignUp{
		UserID: ev.GetUserId(), CategoryID: ev.GetCategoryId(), DisplayName: ev.GetDisplayName(),
	})
}

// HandleUserDeleted removes everything the deleted user owns here, in the
// transaction that records the message, so it happens exactly once.
func (c Consumers) HandleUserDeleted(ctx context.Context, tx pgx.Tx, ev *eventsv1.UserDeleted, _ events.Meta) error {
	return c.App.Within(c.InTx(tx)).DeleteUserData(ctx, app.UserDeleted{
		UserID: ev.GetUserId(), CategoryID: ev.GetCategoryId(),
	})
}

// HandleUserUnsubscribed turns off the user's category emails.
func (c Consumers) HandleUserUnsubscribed(ctx context.Context, tx pgx.Tx, ev *eventsv1.UserUnsubscribed, _ events.Meta) error {
	return c.App.Within(c.InTx(tx)).Unsubscribe(ctx, ev.GetUserId())
}

// HandleReviewProgressed moves the report's progress bar, in the
// transaction that records the message.
func (c Consumers) HandleReviewProgressed(ctx context.Context, tx pgx.Tx, ev *eventsv1.ReviewProgressed, _ events.Meta) error {
	return c.App.Within(c.InTx(tx)).RecordReviewProgress(ctx, app.ReviewProgress{
		CategoryID: ev.GetCategoryId(), ReportID: ev.GetReportId(), Percent: int(ev.GetProgressPercent()), Step: ev.GetStep(),
	})
}

// HandleReviewCompleted stores the review as the report, in the
// transaction that records the message. A review that cannot be decoded
// is refused (it is dead-lettered after its redeliveries), never stored
// half.
func (c Consumers) HandleReviewCompleted(ctx context.Context, tx pgx.Tx, ev *eventsv1.ReviewCompleted, _ events.Meta) error {
	var a domain.Analysis
	if err := json.Unmarshal(ev.GetAnalysisJson(), &a); err != nil {
		return fmt.Errorf("review of report %s: %w", ev.GetReportId(), err)
	}
	return c.App.Within(c.InTx(tx)).FinishReview(ctx, app.ReviewResult{
		CategoryID: ev.GetCategoryId(), ReportID: ev.GetReportId(), Analysis: a,
	})
}

// HandleReviewFailed marks the report failed, in the transaction that
// records the message.
func (c Consumers) HandleReviewFailed(ctx context.Context, tx pgx.Tx, ev *eventsv1.ReviewFailed, _ events.Meta) error {
	return c.App.Within(c.InTx(tx)).FailReview(ctx, app.ReviewFailure{
		CategoryID: ev.GetCategoryId(), ReportID: ev.GetReportId(), Reason: ev.GetReason(),
	})
}

// HandleStoreSignals keeps the newest signals of a store and its store
// ideas, in the transaction that records the message.
func (c Consumers) HandleStoreSignals(ctx context.Context, tx pgx.Tx, ev *eventsv1.StoreSignalsUpdated, _ events.Meta) error {
	return c.App.Within(c.InTx(tx)).ApplyStoreSignals(ctx, fromProtoSignals(ev))
}

// fromProtoSignals reads the event; a day that cannot be read is left
// zero, which the app refuses. Titles are cut to the platform's bound, as
// stores cuts them, whatever a producer sent.
func fromProtoSignals(ev *eventsv1.StoreSignalsUpdated) domain.StoreSignals {
	s := domain.StoreSignals{CategoryID: ev.GetCategoryId(), Currency: ev.GetCurrency(),
		CurrencyDecimals: int(ev.GetCurrencyDecimals()), OccurTime: ev.GetOccurTime().AsTime(),
		UnusualHeadline: ev.GetUnusualHeadline(), TimeZone: ev.GetTimezone()}
	if d, err := time.Parse(time.DateOnly, ev.GetAsOf()); err == nil {
		s.AsOf = d
	}
	if b := ev.GetBestSeller(); b != nil {
		s.BestSeller = &domain.StoreBestSeller{Title: validation.Clip(b.GetTitle(), validation.MaxTitleRunes), NetSales: b.GetNetSalesMinor(), Quantity: b.GetQuantity()}
	}
	if f := ev.GetFallingProduct(); f != nil {
		s.Falling = &domain.StoreFallingProduct{Title: validation.Clip(f.GetTitle(), validation.MaxTitleRunes), Before: f.GetNetSalesBeforeMinor(),
			After: f.GetNetSalesAfterMinor(), Percent: int(f.GetFallPercent())}
	}
	return s
}
