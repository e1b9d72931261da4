// Package eventport is the users service's NATS side: durable consumers
// that hand events from other services to the app, in the transaction that
// records each message (events.On).
package eventport

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	eventsv1 "uplift.dev/proto/gen/uplift/events/v1"

	"uplift.dev/platform/events"
	"uplift.dev/users/bus"
	"uplift.dev/users/internal/app"
	"uplift.dev/users/internal/domain"
)

// Consumers turn other services' events into changes of users.
type Consumers struct {
	Bus events.Bus
	App *app.App
	// InTx binds storage to the consumer's transaction.
	InTx func(pgx.Tx) app.EventStore
}

// Workers are the consumers to run beside the gRPC server.
func (c Consumers) Workers() []func(context.Context) error {
	return []func(context.Context) error{
		events.On(c.Bus, bus.Billing, c.HandleBillingChanged),
		events.On(c.Bus, bus.Audit, c.HandleActedOnBehalf),
	}
}

// HandleBillingChanged keeps each user's billingInfo in step with the
// billing service, so GET internal/users/{userId} shows the current plan.
func (c Consumers) HandleBillingChanged(ctx context.Context, tx pgx.Tx, ev *eventsv1.BillingChanged, _ events.Meta) error {
	applied, err := c.App.ApplyBillingChange(ctx, c.InTx(tx), domain.BillingChange{
		UserID: ev.GetUserId(), Tier: ev.GetTier(), IsManuallySet: ev.GetIsManuallySet(),
		SourceTime: ev.GetSourceTime().AsTime(),
	})
	if err != nil {
		return fmt.Errorf("apply billing: %w", err)
	}
	c.Bus.Log.InfoContext(ctx, "billing change", "user", ev.GetUserId(), "tier", ev.GetTier(), "applied", applied)
	return nil
}

// HandleActedOnBehalf copies an action another service took on someone's
// behalf into the audit log, once per message, so an owner reads one log
// that outlives the data it describes for its retention period.
func (c Consumers) HandleActedOnBehalf(ctx context.Context, tx pgx.Tx, ev *eventsv1.ActedOnBehalf, _ events.Meta) error {
	err := c.App.RecordActedOnBehalf(ctx, c.InTx(tx), domain.AuditEntry{
		ActorID: ev.GetActorId(), OnBehalfOfID: ev.GetOwnerId(), CategoryID: ev.GetCategoryId(),
		Action: ev.GetAction(), Detail: ev.GetDetail(), At: ev.GetOccurTime().AsTime(),
	})
	if errors.Is(err, app.ErrIncompleteAuditEntry) {
		c.Bus.Log.ErrorContext(ctx, "ActedOnBehalf without actor or action dropped", "service", ev.GetService())
		return nil
	}
	if err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	return nil
}
