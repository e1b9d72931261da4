// Package eventport is the billing service's NATS side: durable consumers
// of other services' events, which hand them to the app.
package eventport

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	eventsv1 "uplift.dev/proto/gen/uplift/events/v1"

	"uplift.dev/billing/bus"
	"uplift.dev/billing/internal/app"
	"uplift.dev/platform/events"
)

// Consumers turn other services' events into changes of billing.
type Consumers struct {
	Bus events.Bus
	App *app.App
	// InTx binds storage to the consumer's transaction.
	InTx func(pgx.Tx) app.EventStore
}

// Workers are the consumers to run beside the gRPC server.
func (c Consumers) Workers() []func(context.Context) error {
	return []func(context.Context) error{
		events.On(c.Bus, bus.UserDeleted, c.HandleUserDeleted),
	}
}

// HandleUserDeleted forgets a deleted user's billing data (app.ForgetUser)
// inside the consumer's transaction, which also records the message id, so
// a redelivery changes nothing.
func (c Consumers) HandleUserDeleted(ctx context.Context, tx pgx.Tx, ev *eventsv1.UserDeleted, _ events.Meta) error {
	err := c.App.ForgetUser(ctx, c.InTx(tx), ev.GetUserId())
	if errors.Is(err, app.ErrNoUser) {
		// A message that can never be applied is dropped, not retried forever.
		c.Bus.Log.ErrorContext(ctx, "UserDeleted without a user dropped")
		return nil
	}
	if err != nil {
		return err
	}
	c.Bus.Log.InfoContext(ctx, "deleted user's billing data removed", "user", ev.GetUserId())
	return nil
}
