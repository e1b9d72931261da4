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
	"github.com/nats-io/nats.go/jetstream"
	"google.golang.org/protobuf/proto"

	eventsv1 "uplift.dev/proto/gen/uplift/events/v1"

	"uplift.dev/categories/internal/adapters/postgres"
	"uplift.dev/categories/internal/app"
	"uplift.dev/categories/internal/domain"
	"uplift.dev/platform/events"
)

// Durable consumer names; JetStream remembers each one's position.
const (
	UsersDurable        = "categories-users"
	UsersDeletedDurable = "categories-users-deleted"
	UnsubscribedDurable = "categories-users-unsubscribed"
	ReviewDurable       = "categories-review"
	StoreSignalsDurable = "categories-store-signals"
	EmailKindDurable    = "categories-email-kind-unsubscribed"
)

// Consumers runs the service's event consumers. Each message is handled in
// a transaction that also records its id, so redelivery changes nothing.
type Consumers struct {
	Bus  events.Bus
	Repo postgres.Repo
	App  *app.App
	// LeaseEvery is how often a running review tells JetStream it is still
	// working, so the message is not redelivered meanwhile; 0 means 10 s.
	LeaseEvery time.Duration
}

// RunUsers consumes UserCreated until ctx ends.
func (c Consumers) RunUsers(ctx context.Context) error {
	return events.Consume(ctx, c.Bus, UsersDurable, events.SubjectUserCreated, c.HandleUserCreated)
}

// RunUsersDeleted consumes UserDeleted until ctx ends. It is its own
// durable consumer so a slow deletion never holds up sign-ups.
func (c Consumers) RunUsersDeleted(ctx context.Context) error {
	return events.Consume(ctx, c.Bus, UsersDeletedDurable, events.SubjectUserDeleted, c.HandleUserDeleted)
}

// RunUnsubscribed consumes UserUnsubscribed until ctx ends.
func (c Consumers) RunUnsubscribed(ctx context.Context) error {
	return events.Consume(ctx, c.Bus, UnsubscribedDurable, events.SubjectUserUnsubscribed, c.HandleUserUnsubscribed)
}

// RunReviews consumes ReviewRequested until ctx ends. A review reads a
// website for up to minutes, so it runs with no transaction open
// (events.ConsumeEach); RunReview is idempotent on its own.
func (c Consumers) RunReviews(ctx context.Context) error {
	return events.ConsumeEach(ctx, c.Bus, ReviewDurable, events.SubjectReviewRequested, c.LeaseEvery, c.HandleReviewRequested)
}

// RunStoreSignals consumes StoreSignalsUpdated until ctx ends.
func (c Consumers) RunStoreSignals(ctx context.Context) error {
	return events.Consume(ctx, c.Bus, StoreSignalsDurable, events.SubjectStoreSignalsUpdated, c.HandleStoreSignals)
}

// RunEmailKindUnsubscribed consumes EmailKindUnsubscribed until ctx ends.
func (c Consumers) RunEmailKindUnsubscribed(ctx context.Context) error {
	return events.Consume(ctx, c.Bus, EmailKindDurable, events.SubjectEmailKindUnsubscribed, c.HandleEmailKindUnsubscribed)
}

// HandleEmailKindUnsubscribed flips the profile's switch for a kind of
// email turned off (or on) from an email's unsubscribe link.
func (c Consumers) HandleEmailKindUnsubscribed(ctx context.Context, tx pgx.Tx, msg jetstream.Msg) error {
	var ev eventsv1.EmailKindUnsubscribed
	if err := proto.Unmarshal(msg.Data(), &ev); err != nil {
		c.Bus.Log.ErrorContext(ctx, "unreadable EmailKindUnsubscribed dropped", "err", err)
		return nil
	}
	return c.App.Within(c.Repo.WithTx(tx)).ApplyEmailKindChange(ctx, app.EmailKindChange{
		UserID: ev.GetUserId(), CategoryID: ev.GetCategoryId(), Kind: ev.GetKind(), Resubscribed: ev.GetResubscribed(),
	})
}

// HandleUserCreated creates the new user's category.
func (c Consumers) HandleUserCreated(ctx context.Context, tx pgx.Tx, msg jetstream.Msg) error {
	var ev eventsv1.UserCreated
	if err := proto.Unmarshal(msg.Data(), &ev); err != nil {
		// A message that can never be read is dropped, not retried forever.
		c.Bus.Log.ErrorContext(ctx, "unreadable UserCreated dropped", "err", err)
		return nil
	}
	return c.App.Within(c.Repo.WithTx(tx)).CreateFromSignUp(ctx, app.SignUp{
		UserID: ev.GetUserId(), CategoryID: ev.GetCategoryId(), DisplayName: ev.GetDisplayName(),
	})
}

// HandleUserDeleted removes everything the deleted user owns here, in the
// transaction that records the message, so it happens exactly once.
func (c Consumers) HandleUserDeleted(ctx context.Context, tx pgx.Tx, msg jetstream.Msg) error {
	var ev eventsv1.UserDeleted
	if err := proto.Unmarshal(msg.Data(), &ev); err != nil {
		c.Bus.Log.ErrorContext(ctx, "unreadable UserDeleted dropped", "err", err)
		return nil
	}
	return c.App.Within(c.Repo.WithTx(tx)).DeleteUserData(ctx, app.UserDeleted{
		UserID: ev.GetUserId(), CategoryID: ev.GetCategoryId(),
	})
}

// HandleUserUnsubscribed turns off the user's category emails.
func (c Consumers) HandleUserUnsubscribed(ctx context.Context, tx pgx.Tx, msg jetstream.Msg) error {
	var ev eventsv1.UserUnsubscribed
	if err := proto.Unmarshal(msg.Data(), &ev); err != nil {
		c.Bus.Log.ErrorContext(ctx, "unreadable UserUnsubscribed dropped", "err", err)
		return nil
	}
	return c.App.Within(c.Repo.WithTx(tx)).Unsubscribe(ctx, ev.GetUserId())
}

// HandleReviewRequested runs one review: claimed and committed first, the
// website read with no transaction open, the result recorded in a short
// transaction of its own (app.RunReview). A report another run holds is
// tried again in a while.
func (c Consumers) HandleReviewRequested(ctx context.Context, msg jetstream.Msg) error {
	var ev eventsv1.ReviewRequested
	if err := proto.Unmarshal(msg.Data(), &ev); err != nil {
		c.Bus.Log.ErrorContext(ctx, "unreadable ReviewRequested dropped", "err", err)
		return nil
	}
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
func (c Consumers) HandleStoreSignals(ctx context.Context, tx pgx.Tx, msg jetstream.Msg) error {
	var ev eventsv1.StoreSignalsUpdated
	if err := proto.Unmarshal(msg.Data(), &ev); err != nil {
		c.Bus.Log.ErrorContext(ctx, "unreadable StoreSignalsUpdated dropped", "err", err)
		return nil
	}
	return c.App.Within(c.Repo.WithTx(tx)).ApplyStoreSignals(ctx, fromProtoSignals(&ev))
}

// fromProtoSignals reads the event; a day that cannot be read is left
// zero, which the app refuses.
func fromProtoSignals(ev *eventsv1.StoreSignalsUpdated) domain.StoreSignals {
	s := domain.StoreSignals{CategoryID: ev.GetCategoryId(), Currency: ev.GetCurrency(),
		CurrencyDecimals: int(ev.GetCurrencyDecimals()), OccurTime: ev.GetOccurTime().AsTime(),
		UnusualHeadline: ev.GetUnusualHeadline(), TimeZone: ev.GetTimezone()}
	if d, err := time.Parse(time.DateOnly, ev.GetAsOf()); err == nil {
		s.AsOf = d
	}
	if b := ev.GetBestSeller(); b != nil {
		s.BestSeller = &domain.StoreBestSeller{Title: b.GetTitle(), NetSales: b.GetNetSalesMinor(), Quantity: b.GetQuantity()}
	}
	if f := ev.GetFallingProduct(); f != nil {
		s.Falling = &domain.StoreFallingProduct{Title: f.GetTitle(), Before: f.GetNetSalesBeforeMinor(),
			After: f.GetNetSalesAfterMinor(), Percent: int(f.GetFallPercent())}
	}
	return s
}
