// Package eventport is the categories service's NATS side: durable
// consumers that create a category for each new user, remove a deleted
// user's categories, honour unsubscribes (from everything, and per kind of
// email from an email's one-click link), run the website reviews others
// request and keep the store signals the stores service publishes.
package eventport

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	eventsv1 "uplift.dev/proto/gen/uplift/events/v1"

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
	// LeaseEvery is how often a running review tells JetStream it is still
	// working, so the message is not redelivered meanwhile; 0 means 10 s.
	LeaseEvery time.Duration
}

// Workers are the consumers to run beside the gRPC server. UserDeleted has
// a durable consumer of its own so a slow deletion never holds up sign-ups.
// The website reviews are not among them (Reviews): the review worker may
// run them instead.
func (c Consumers) Workers() []func(context.Context) error {
	return []func(context.Context) error{
		events.On(c.Bus, events.CategoriesUsers, c.HandleUserCreated),
		events.On(c.Bus, events.CategoriesUsersDeleted, c.HandleUserDeleted),
		events.On(c.Bus, events.CategoriesUnsubscribed, c.HandleUserUnsubscribed),
		events.On(c.Bus, events.CategoriesEmailKind, c.HandleEmailKindUnsubscribed),
		events.On(c.Bus, events.CategoriesStoreSignals, c.HandleStoreSignals),
	}
}

// Reviews consumes ReviewRequested. A review reads a website for up to
// minutes, so it runs with no transaction open (events.OnEach); RunReview
// is idempotent on its own.
func (c Consumers) Reviews() func(context.Context) error {
	return events.OnEach(c.Bus, events.CategoriesReview, c.LeaseEvery, c.HandleReviewRequested)
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

// HandleReviewRequested runs one review: claimed and committed first, the
// website read with no transaction open, the result recorded in a short
// transaction of its own (app.RunReview). A report another run holds is
// tried again in a while.
func (c Consumers) HandleReviewRequested(ctx context.Context, ev *eventsv1.ReviewRequested, _ events.Meta) error {
	err := c.App.RunReview(ctx, app.ReviewRequest{
		CategoryID: ev.GetCategoryId(), ReportID: ev.GetReportId(), SiteURL: ev.GetSiteUrl(),
	})
	if errors.Is(err, app.ErrReviewHeld) {
		return &events.RetryLater{Delay: heldRetry, Err: err}
	}
	return err
}

// heldRetry is how long a request for a report another run holds waits
// before it is tried again.
const heldRetry = 30 * time.Second

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
