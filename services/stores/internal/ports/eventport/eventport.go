// Package eventport is the stores service's NATS side: durable consumers
// that hand other services' events to the app, in the transaction that
// records each message (events.On).
package eventport

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	eventsv1 "uplift.dev/proto/gen/uplift/events/v1"

	"uplift.dev/platform/events"
	"uplift.dev/stores/bus"
	"uplift.dev/stores/internal/app"
)

// Consumers turn other services' events into changes of the stores data.
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

// HandleUserDeleted deletes the user's data in the transaction that records
// the message, so a redelivery changes nothing.
func (c Consumers) HandleUserDeleted(ctx context.Context, tx pgx.Tx, ev *eventsv1.UserDeleted, _ events.Meta) error {
	err := c.App.DeleteUserData(ctx, c.InTx(tx), ev.GetUserId(), ev.GetCategoryId())
	if errors.Is(err, app.ErrNoUser) {
		// A message that can never be applied is dropped, not retried forever.
		c.Bus.Log.ErrorContext(ctx, "UserDeleted without a user dropped")
		return nil
	}
	if err != nil {
		return err
	}
	c.Bus.Log.InfoContext(ctx, "deleted user's store data removed", "user", ev.GetUserId(), "category", ev.GetCategoryId())
	return nil
}
