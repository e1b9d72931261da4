// Package eventport is the billing service's NATS side: durable consumers
// of other services' events.
package eventport

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/nats-io/nats.go/jetstream"
	"google.golang.org/protobuf/proto"

	eventsv1 "uplift.dev/proto/gen/uplift/events/v1"

	"uplift.dev/platform/events"
)

// UserDeletedDurable is the consumer name; JetStream remembers its position.
const UserDeletedDurable = "billing-users-deleted"

// UserDeletedConsumer deletes a deleted user's billing data (their Stripe
// customer link, plan and unfinished test checkouts), so nothing of theirs is
// left here. The Stripe customer itself stays in Stripe, where invoices must
// be kept.
type UserDeletedConsumer struct {
	Bus events.Bus
}

// Run consumes UserDeleted until ctx ends.
func (c UserDeletedConsumer) Run(ctx context.Context) error {
	return events.Consume(ctx, c.Bus, UserDeletedDurable, events.SubjectUserDeleted, c.Handle)
}

// Handle deletes one user's rows inside the consumer's transaction, which
// also records the message id, so a redelivery changes nothing. Only rows
// keyed by that user id are touched.
func (c UserDeletedConsumer) Handle(ctx context.Context, tx pgx.Tx, msg jetstream.Msg) error {
	var ev eventsv1.UserDeleted
	if err := proto.Unmarshal(msg.Data(), &ev); err != nil || ev.GetUserId() == "" {
		// A message that can never be applied is dropped, not retried forever.
		c.Bus.Log.ErrorContext(ctx, "unusable UserDeleted dropped", "err", err)
		return nil
	}
	for _, table := range []string{"pending_checkouts", "billing", "customers"} {
		if _, err := tx.Exec(ctx, `DELETE FROM `+table+` WHERE user_id = $1`, ev.GetUserId()); err != nil {
			return fmt.Errorf("delete %s of deleted user: %w", table, err)
		}
	}
	c.Bus.Log.InfoContext(ctx, "deleted user's billing data removed", "user", ev.GetUserId())
	return nil
}
