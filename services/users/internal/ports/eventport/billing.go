// Package eventport is the users service's NATS side: durable consumers
// that translate events from other services into changes of users.
package eventport

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/nats-io/nats.go/jetstream"
	"google.golang.org/protobuf/proto"

	eventsv1 "uplift.dev/proto/gen/uplift/events/v1"

	"uplift.dev/platform/events"
	"uplift.dev/users/internal/domain"
)

// BillingDurable is the consumer name; JetStream remembers its position.
const BillingDurable = "users-billing"

// BillingStore applies a billing change in the consumer's transaction.
type BillingStore interface {
	ApplyBilling(ctx context.Context, tx pgx.Tx, c domain.BillingChange) (bool, error)
}

// BillingConsumer keeps each user's billingInfo in step with the billing
// service, so GET internal/users/{userId} shows the current plan.
type BillingConsumer struct {
	Bus   events.Bus
	Store BillingStore
}

// Run consumes BillingChanged until ctx ends.
func (c BillingConsumer) Run(ctx context.Context) error {
	return events.Consume(ctx, c.Bus, BillingDurable, events.SubjectBillingChanged, c.Handle)
}

// Handle applies one BillingChanged message.
func (c BillingConsumer) Handle(ctx context.Context, tx pgx.Tx, msg jetstream.Msg) error {
	var ev eventsv1.BillingChanged
	if err := proto.Unmarshal(msg.Data(), &ev); err != nil {
		// A message that can never be read is dropped, not retried forever.
		c.Bus.Log.ErrorContext(ctx, "unreadable BillingChanged dropped", "err", err)
		return nil
	}
	applied, err := c.Store.ApplyBilling(ctx, tx, domain.BillingChange{
		UserID: ev.GetUserId(), Tier: ev.GetTier(), IsManuallySet: ev.GetIsManuallySet(),
		SourceTime: ev.GetSourceTime().AsTime(),
	})
	if err != nil {
		return fmt.Errorf("apply billing: %w", err)
	}
	c.Bus.Log.InfoContext(ctx, "billing change", "user", ev.GetUserId(), "tier", ev.GetTier(), "applied", applied)
	return nil
}
