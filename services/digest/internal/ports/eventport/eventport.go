// Package eventport is the digest service's NATS side: durable consumers
// that turn users' events into queued emails, each in the transaction that
// records the event as handled, so a redelivered event queues nothing new.
package eventport

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/nats-io/nats.go/jetstream"
	"google.golang.org/protobuf/proto"

	eventsv1 "uplift.dev/proto/gen/uplift/events/v1"

	"uplift.dev/digest/internal/app"
	"uplift.dev/digest/internal/domain"
	"uplift.dev/platform/events"
)

// Durable consumer names; JetStream remembers each one's position.
const (
	WelcomeDurable      = "digest-welcome"
	EmailChangedDurable = "digest-email-changed"
	UserDeletedDurable  = "digest-user-deleted"
	ResetDurable        = "digest-password-reset"
)

// TxStore is the outbox bound to one transaction.
type TxStore interface {
	app.Outbox
	app.Eraser
}

// Consumers feeds user events to the mail use cases.
type Consumers struct {
	JS   jetstream.JetStream
	Pool *pgxpool.Pool
	App  *app.App
	// InTx binds the outbox to the transaction of the event being handled.
	InTx func(pgx.Tx) TxStore
	Log  *slog.Logger
}

// Workers are the consumers to run beside the gRPC server.
func (c Consumers) Workers() []func(context.Context) error {
	return []func(context.Context) error{
		func(ctx context.Context) error {
			return events.Consume(ctx, c.JS, c.Pool, c.Log, WelcomeDurable, events.SubjectUserCreated, c.HandleUserCreated)
		},
		func(ctx context.Context) error {
			return events.Consume(ctx, c.JS, c.Pool, c.Log, EmailChangedDurable, events.SubjectUserEmailChanged, c.HandleEmailChanged)
		},
		func(ctx context.Context) error {
			return events.Consume(ctx, c.JS, c.Pool, c.Log, UserDeletedDurable, events.SubjectUserDeleted, c.HandleUserDeleted)
		},
		func(ctx context.Context) error {
			return events.Consume(ctx, c.JS, c.Pool, c.Log, ResetDurable, events.SubjectPasswordResetRequested, c.HandlePasswordReset)
		},
	}
}

// HandleUserCreated queues the welcome email.
func (c Consumers) HandleUserCreated(ctx context.Context, tx pgx.Tx, msg jetstream.Msg) error {
	var ev eventsv1.UserCreated
	if err := proto.Unmarshal(msg.Data(), &ev); err != nil {
		return c.drop(ctx, msg, err)
	}
	err := c.App.QueueWelcome(ctx, c.InTx(tx), app.UserCreated{
		UserID: ev.GetUserId(), Email: ev.GetEmail(), DisplayName: ev.GetDisplayName(),
		SuppressWelcomeEmail: ev.GetSuppressWelcomeEmail(),
	})
	return c.result(ctx, msg, err)
}

// HandleEmailChanged queues the notice to the old address and the
// confirmation to the new one.
func (c Consumers) HandleEmailChanged(ctx context.Context, tx pgx.Tx, msg jetstream.Msg) error {
	var ev eventsv1.UserEmailChanged
	if err := proto.Unmarshal(msg.Data(), &ev); err != nil {
		return c.drop(ctx, msg, err)
	}
	ch := app.EmailChanged{UserID: ev.GetUserId(), OldEmail: ev.GetOldEmail(), NewEmail: ev.GetNewEmail()}
	if ev.GetOccurTime() != nil {
		ch.At = ev.GetOccurTime().AsTime()
	}
	return c.result(ctx, msg, c.App.QueueEmailChanged(ctx, c.InTx(tx), ch))
}

// HandleUserDeleted removes the user's emails.
func (c Consumers) HandleUserDeleted(ctx context.Context, tx pgx.Tx, msg jetstream.Msg) error {
	var ev eventsv1.UserDeleted
	if err := proto.Unmarshal(msg.Data(), &ev); err != nil {
		return c.drop(ctx, msg, err)
	}
	return c.result(ctx, msg, c.App.ForgetUser(ctx, c.InTx(tx), ev.GetUserId()))
}

// HandlePasswordReset queues the reset email. The request is named by the
// event's message id (the producer's outbox row), or else by a hash of the
// link, whose one-time code is unique per request.
func (c Consumers) HandlePasswordReset(ctx context.Context, tx pgx.Tx, msg jetstream.Msg) error {
	var ev eventsv1.PasswordResetRequested
	if err := proto.Unmarshal(msg.Data(), &ev); err != nil {
		return c.drop(ctx, msg, err)
	}
	id := msg.Headers().Get(jetstream.MsgIDHeader)
	if id == "" {
		sum := sha256.Sum256([]byte(ev.GetLink()))
		id = "link-" + hex.EncodeToString(sum[:16])
	}
	return c.result(ctx, msg, c.App.QueuePasswordResetIn(ctx, c.InTx(tx),
		app.PasswordReset{RequestID: id, Email: ev.GetEmail(), Link: ev.GetLink()}))
}

// result drops an event that can never become an email (retrying would
// not help) and returns other errors for redelivery.
func (c Consumers) result(ctx context.Context, msg jetstream.Msg, err error) error {
	if errors.Is(err, domain.ErrInvalidAddress) || errors.Is(err, domain.ErrMissingID) || errors.Is(err, domain.ErrInvalidLink) {
		return c.drop(ctx, msg, err)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", msg.Subject(), err)
	}
	return nil
}

func (c Consumers) drop(ctx context.Context, msg jetstream.Msg, err error) error {
	c.Log.ErrorContext(ctx, "unusable event dropped", "subject", msg.Subject(), "err", err)
	return nil
}
