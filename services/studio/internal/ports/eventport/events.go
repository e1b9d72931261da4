// Package eventport is the studio's NATS side: durable consumers that keep
// the studio's copy of who owns each category (UserCreated, UserDeleted)
// and of each user's plan (BillingChanged), so the entitlement check reads
// the plan from its own database, and a plan change applies as soon as
// billing announces it.
package eventport

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	eventsv1 "uplift.dev/proto/gen/uplift/events/v1"

	"uplift.dev/platform/events"
	"uplift.dev/studio/internal/domain"
)

// Store applies the events in the consumer's transaction.
type Store interface {
	SetOwner(ctx context.Context, tx pgx.Tx, categoryID, userID string) error
	ApplyBilling(ctx context.Context, tx pgx.Tx, userID string, p domain.Plan, sourceTime time.Time) error
	ForgetUser(ctx context.Context, tx pgx.Tx, userID string) error
}

// Consumers runs the three consumers.
type Consumers struct {
	Bus   events.Bus
	Store Store
}

// Workers are the consumers as service workers.
func (c Consumers) Workers() []func(context.Context) error {
	return []func(context.Context) error{
		events.On(c.Bus, events.StudioUsersCreated, c.HandleUserCreated),
		events.On(c.Bus, events.StudioUsersDeleted, c.HandleUserDeleted),
		events.On(c.Bus, events.StudioBilling, c.HandleBillingChanged),
	}
}

// HandleUserCreated records the new user's own category.
func (c Consumers) HandleUserCreated(ctx context.Context, tx pgx.Tx, ev *eventsv1.UserCreated, _ events.Meta) error {
	if ev.GetCategoryId() == "" || domain.ValidateID("categoryId", ev.GetCategoryId()) != nil {
		return nil
	}
	return c.Store.SetOwner(ctx, tx, ev.GetCategoryId(), ev.GetUserId())
}

// HandleUserDeleted forgets the user's ownership and plan.
func (c Consumers) HandleUserDeleted(ctx context.Context, tx pgx.Tx, ev *eventsv1.UserDeleted, _ events.Meta) error {
	return c.Store.ForgetUser(ctx, tx, ev.GetUserId())
}

// HandleBillingChanged records the user's plan (a newer change wins).
func (c Consumers) HandleBillingChanged(ctx context.Context, tx pgx.Tx, ev *eventsv1.BillingChanged, _ events.Meta) error {
	tier := ev.GetTier()
	if tier == "" {
		tier = domain.FreeTier
	}
	c.Bus.Log.InfoContext(ctx, "billing change", "user", ev.GetUserId(), "tier", tier, "manual", ev.GetIsManuallySet())
	return c.Store.ApplyBilling(ctx, tx, ev.GetUserId(), domain.Plan{Tier: tier, IsManuallySet: ev.GetIsManuallySet()},
		ev.GetSourceTime().AsTime())
}
