// Package eventport is the studio's NATS side: durable consumers that keep
// the studio's copy of who owns each category (UserCreated, UserDeleted)
// and of each user's plan (BillingChanged), so the entitlement check reads
// the plan from its own database, and a plan change applies as soon as
// billing announces it. Each hands its event to the app, in the
// transaction that records the message (events.On).
package eventport

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	eventsv1 "uplift.dev/proto/gen/uplift/events/v1"

	"uplift.dev/platform/events"
	"uplift.dev/studio/bus"
	"uplift.dev/studio/internal/app"
)

// Consumers turn other services' events into changes of the studio's data.
type Consumers struct {
	Bus events.Bus
	App *app.App
	// InTx binds storage to the consumer's transaction.
	InTx func(pgx.Tx) app.EventStore
}

// Workers are the consumers to run beside the gRPC server.
func (c Consumers) Workers() []func(context.Context) error {
	return []func(context.Context) error{
		events.On(c.Bus, bus.UsersCreated, c.HandleUserCreated),
		events.On(c.Bus, bus.UsersDeleted, c.HandleUserDeleted),
		events.On(c.Bus, bus.Billing, c.HandleBillingChanged),
	}
}

// HandleUserCreated records the new user's own category.
func (c Consumers) HandleUserCreated(ctx context.Context, tx pgx.Tx, ev *eventsv1.UserCreated, _ events.Meta) error {
	return c.result(ctx, "UserCreated", c.App.RecordOwner(ctx, c.InTx(tx), ev.GetUserId(), ev.GetCategoryId()))
}

// HandleUserDeleted forgets the user's ownership and plan.
func (c Consumers) HandleUserDeleted(ctx context.Context, tx pgx.Tx, ev *eventsv1.UserDeleted, _ events.Meta) error {
	return c.result(ctx, "UserDeleted", c.App.ForgetUser(ctx, c.InTx(tx), ev.GetUserId()))
}

// HandleBillingChanged records the user's plan (a newer change wins).
func (c Consumers) HandleBillingChanged(ctx context.Context, tx pgx.Tx, ev *eventsv1.BillingChanged, _ events.Meta) error {
	c.Bus.Log.InfoContext(ctx, "billing change", "user", ev.GetUserId(), "tier", ev.GetTier(), "manual", ev.GetIsManuallySet())
	return c.result(ctx, "BillingChanged", c.App.ApplyBillingChange(ctx, c.InTx(tx), ev.GetUserId(), ev.GetTier(),
		ev.GetIsManuallySet(), ev.GetSourceTime().AsTime()))
}

// result drops an event that can never apply (retrying it could not
// succeed) and returns any other error for a retry.
func (c Consumers) result(ctx context.Context, event string, err error) error {
	if errors.Is(err, app.ErrNoUser) {
		c.Bus.Log.ErrorContext(ctx, event+" without a user dropped")
		return nil
	}
	return err
}
