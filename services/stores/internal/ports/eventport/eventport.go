// Package eventport is the stores service's NATS side: durable consumers
// of other services' events.
package eventport

import (
	"context"

	"github.com/jackc/pgx/v5"

	eventsv1 "uplift.dev/proto/gen/uplift/events/v1"

	"uplift.dev/platform/events"
)

// Deleter is the use case the consumer drives.
type Deleter interface {
	DeleteUserData(ctx context.Context, userID, categoryID string) error
}

// UserDeletedConsumer removes a deleted user's store data.
type UserDeletedConsumer struct {
	Bus events.Bus
	App Deleter
}

// Run consumes UserDeleted until ctx ends.
func (c UserDeletedConsumer) Run(ctx context.Context) error {
	return events.On(c.Bus, events.StoresUserDeleted, c.Handle)(ctx)
}

// Handle deletes the user's data. Deleting is idempotent, so a redelivery
// after a crash between the delete and the message's record is harmless.
func (c UserDeletedConsumer) Handle(ctx context.Context, _ pgx.Tx, ev *eventsv1.UserDeleted, _ events.Meta) error {
	if ev.GetUserId() == "" {
		c.Bus.Log.ErrorContext(ctx, "UserDeleted without a user dropped")
		return nil
	}
	if err := c.App.DeleteUserData(ctx, ev.GetUserId(), ev.GetCategoryId()); err != nil {
		return err
	}
	c.Bus.Log.InfoContext(ctx, "deleted user's store data removed", "user", ev.GetUserId(), "category", ev.GetCategoryId())
	return nil
}
