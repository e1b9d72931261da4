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

// AuditDurable is the audit consumer's name; JetStream remembers its position.
const AuditDurable = "users-audit"

// AuditStore writes audit entries in the consumer's transaction.
type AuditStore interface {
	AuditTx(ctx context.Context, tx pgx.Tx, entries ...domain.AuditEntry) error
}

// AuditConsumer copies actions other services took on someone's behalf
// (ActedOnBehalf) into the users service's audit log, so an owner reads one
// log, and it outlives the data it describes for its retention period.
type AuditConsumer struct {
	Bus   events.Bus
	Store AuditStore
}

// Run consumes ActedOnBehalf until ctx ends.
func (c AuditConsumer) Run(ctx context.Context) error {
	return events.Consume(ctx, c.Bus, AuditDurable, events.SubjectActedOnBehalf, c.Handle)
}

// Handle writes one ActedOnBehalf message; a redelivery is skipped by
// events.Consume, so each action is logged once.
func (c AuditConsumer) Handle(ctx context.Context, tx pgx.Tx, msg jetstream.Msg) error {
	var ev eventsv1.ActedOnBehalf
	if err := proto.Unmarshal(msg.Data(), &ev); err != nil {
		c.Bus.Log.ErrorContext(ctx, "unreadable ActedOnBehalf dropped", "err", err)
		return nil
	}
	if ev.GetActorId() == "" || ev.GetAction() == "" {
		c.Bus.Log.ErrorContext(ctx, "ActedOnBehalf without actor or action dropped", "service", ev.GetService())
		return nil
	}
	if err := c.Store.AuditTx(ctx, tx, toAuditEntry(&ev)); err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	return nil
}

func toAuditEntry(ev *eventsv1.ActedOnBehalf) domain.AuditEntry {
	return domain.AuditEntry{
		ActorID: ev.GetActorId(), OnBehalfOfID: ev.GetOwnerId(), CategoryID: ev.GetCategoryId(),
		Action: ev.GetAction(), Detail: ev.GetDetail(), At: ev.GetOccurTime().AsTime(),
	}
}
