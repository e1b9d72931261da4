package events

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/nats-io/nats.go/jetstream"
	"google.golang.org/protobuf/proto"
)

// Meta is what a handler may need of the message beside its event.
type Meta struct {
	// ID is the message id (the producer's outbox row id).
	ID      string
	Subject string
	// Delivered counts JetStream's deliveries of this message: 1 the first time.
	Delivered uint64
}

// protoPtr is *E for a generated proto message E.
type protoPtr[E any] interface {
	*E
	proto.Message
}

// On is the one way a service consumes an event: it returns a worker that
// runs the declared consumer c (ConsumersOf) until its context ends. Each
// message's sender is checked (Bus.Trust), its payload decoded into a fresh
// E, and h called in the transaction that records the message id, so the
// effect happens once. A payload that cannot be decoded is logged and
// dropped: retrying it could never succeed.
func On[E any, P protoPtr[E]](bus Bus, c Consumer, h func(ctx context.Context, tx pgx.Tx, ev P, m Meta) error) func(context.Context) error {
	return func(ctx context.Context) error {
		if err := c.check(); err != nil {
			return err
		}
		return Consume(ctx, bus, c.Durable, c.Subject, func(ctx context.Context, tx pgx.Tx, msg jetstream.Msg) error {
			ev, m, ok := decode[E, P](ctx, bus, c.Durable, msg)
			if !ok {
				return nil
			}
			return h(ctx, tx, ev, m)
		})
	}
}

// OnEach is On for long work that must not hold a transaction (ConsumeEach):
// h is called with none open and must be idempotent on its own; the
// message's lease is renewed every leaseEvery while it runs.
func OnEach[E any, P protoPtr[E]](bus Bus, c Consumer, leaseEvery time.Duration, h func(ctx context.Context, ev P, m Meta) error) func(context.Context) error {
	return func(ctx context.Context) error {
		if err := c.check(); err != nil {
			return err
		}
		return ConsumeEach(ctx, bus, c.Durable, c.Subject, leaseEvery, func(ctx context.Context, msg jetstream.Msg) error {
			ev, m, ok := decode[E, P](ctx, bus, c.Durable, msg)
			if !ok {
				return nil
			}
			return h(ctx, ev, m)
		})
	}
}

func decode[E any, P protoPtr[E]](ctx context.Context, bus Bus, durable string, msg jetstream.Msg) (P, Meta, bool) {
	m := Meta{ID: msg.Headers().Get(jetstream.MsgIDHeader), Subject: msg.Subject()}
	if meta, err := msg.Metadata(); err == nil {
		m.Delivered = meta.NumDelivered
	}
	ev := P(new(E))
	if err := proto.Unmarshal(msg.Data(), ev); err != nil {
		bus.Log.ErrorContext(ctx, "unreadable event dropped", "consumer", durable, "subject", m.Subject, "id", m.ID, "err", err)
		return nil, m, false
	}
	return ev, m, true
}
