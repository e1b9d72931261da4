// Package events carries Uplift's domain events over NATS JetStream without
// losing or doubling any: producers write to an outbox in the transaction of
// the change, a relay publishes with the row id as the message id (JetStream
// drops replays inside its duplicate window), and consumers record each
// message id in the transaction of their own change. An event NATS will
// never take (over its 1 MiB max_payload, or refused again and again) goes
// to the dead letters (outbox_dead_letters, logged as an error and counted
// as outbox_dead_letters_total on /metrics) instead of holding back every
// event after it; while NATS is away the events wait, in order.
package events

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"google.golang.org/protobuf/proto"

	"uplift.dev/platform/tracing"
)

// StreamName is the JetStream stream that holds every Uplift event.
const StreamName = "UPLIFT"

// Subjects of the events in proto/uplift/events/v1.
const (
	SubjectUserCreated            = "uplift.users.created"
	SubjectUserDeleted            = "uplift.users.deleted"
	SubjectUserEmailChanged       = "uplift.users.email_changed"
	SubjectPasswordResetRequested = "uplift.users.password_reset_requested"
	// SubjectEmailVerificationRequested carries the link that confirms a
	// new account's address (EmailVerificationRequested).
	SubjectEmailVerificationRequested = "uplift.users.email_verification_requested"
	SubjectSignUpAttempted            = "uplift.users.sign_up_attempted"
	SubjectUserUnsubscribed           = "uplift.users.unsubscribed"
	SubjectUserRoleChanged            = "uplift.users.role_changed"
	SubjectBillingChanged             = "uplift.billing.changed"
	SubjectDigestRequested            = "uplift.digest.requested"
	SubjectEmailKindUnsubscribed      = "uplift.digest.email_kind_unsubscribed"
	SubjectCategoryUpdated            = "uplift.categories.updated"
	SubjectReviewRequested            = "uplift.categories.review_requested"
	SubjectReportUpdated              = "uplift.categories.report_updated.*" // every ReportUpdatedSubject
	SubjectStoreSignalsUpdated        = "uplift.stores.signals_updated"
	SubjectDailyReportReady           = "uplift.stores.daily_report_ready"
	SubjectShopifyShopMoved           = "uplift.stores.shop_moved"
	SubjectWeeklyReviewReady          = "uplift.categories.weekly_review_ready"
	SubjectReviewProgressed           = "uplift.review.progressed"
	SubjectReviewCompleted            = "uplift.review.completed"
	SubjectReviewFailed               = "uplift.review.failed"
	SubjectActedOnBehalf              = "uplift.audit.acted_on_behalf"
)

// ReportUpdatedSubject is the subject of categoryID's ReportUpdated: one
// per category, so the gateway's stream of one category is sent that
// category's events and no other's. The id must be one subject token;
// letters, digits, '-' and '_' only (category ids are UUIDs), so no id can
// add a token or a wildcard and name other categories' subjects.
func ReportUpdatedSubject(categoryID string) (string, error) {
	if !isPlainToken(categoryID) {
		return "", fmt.Errorf("%w: category id %.40q", ErrBadSubjectToken, categoryID)
	}
	return strings.TrimSuffix(SubjectReportUpdated, "*") + categoryID, nil
}

// ErrBadSubjectToken is why ReportUpdatedSubject refuses an id.
var ErrBadSubjectToken = errors.New("not a single subject token")

// isPlainToken bounds the length too: an id of a megabyte would otherwise
// go into NATS's protocol line.
func isPlainToken(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for _, c := range []byte(s) {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

//go:embed migrations/*.sql
var migrations embed.FS

// Migrations is the outbox and processed-message schema every service that
// produces or consumes events applies with its own migrations.
func Migrations() fs.FS {
	sub, _ := fs.Sub(migrations, "migrations")
	return sub
}

// Connect dials NATS and finds the Uplift stream. A service does not make
// or change the stream: that is the admin's (natsauth.SetUp, run by the
// local stack and the cluster's nats-setup Job), so no service can change
// its retention or duplicate window. opts add the service's credentials
// and TLS (Signer.NATSOption, nats.RootCAs).
func Connect(ctx context.Context, url, clientName string, opts ...nats.Option) (*nats.Conn, jetstream.JetStream, error) {
	opts = append([]nats.Option{nats.Name(clientName), nats.MaxReconnects(-1), nats.RetryOnFailedConnect(true)}, opts...)
	nc, err := nats.Connect(url, opts...)
	if err != nil {
		return nil, nil, fmt.Errorf("nats: connect %s: %w", url, err)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		return nil, nil, fmt.Errorf("nats: jetstream: %w", err)
	}
	if _, err := js.Stream(ctx, StreamName); err != nil {
		nc.Close()
		return nil, nil, fmt.Errorf("nats: stream %s (made by the admin: devstack, or the nats-setup Job): %w", StreamName, err)
	}
	return nc, js, nil
}

// StreamMaxAge is how long the stream keeps an event.
const StreamMaxAge = 14 * 24 * time.Hour

// EnsureStream makes the Uplift stream with its duplicate window, or
// brings an existing one to these settings; replicas is how many servers
// of a JetStream cluster keep it (1 on a single server). Only the admin
// identity may (natsauth.SetUp). A stream already as wanted is left alone:
// an update racing a service's consumer creation is a data race inside
// nats-server (CI's -race run caught one when every service updated it).
func EnsureStream(ctx context.Context, js jetstream.JetStream, replicas int) error {
	want := jetstream.StreamConfig{
		Name:       StreamName,
		Subjects:   []string{"uplift.>"},
		Storage:    jetstream.FileStorage,
		Duplicates: 10 * time.Minute,
		MaxAge:     StreamMaxAge,
		Replicas:   max(replicas, 1),
	}
	s, err := js.Stream(ctx, StreamName)
	switch {
	case errors.Is(err, jetstream.ErrStreamNotFound):
		_, err = js.CreateStream(ctx, want)
	case err == nil:
		have := s.CachedInfo().Config
		if have.Duplicates != want.Duplicates || have.MaxAge != want.MaxAge || have.Replicas != want.Replicas ||
			!slices.Equal(have.Subjects, want.Subjects) || have.Storage != want.Storage {
			have.Subjects, have.Storage, have.Duplicates, have.MaxAge, have.Replicas =
				want.Subjects, want.Storage, want.Duplicates, want.MaxAge, want.Replicas
			_, err = js.UpdateStream(ctx, have)
		}
	}
	if err != nil {
		return fmt.Errorf("nats: stream %s: %w", StreamName, err)
	}
	return nil
}

// Enqueue records msg for publication on subject as part of tx, with the
// traceparent of ctx's span. It becomes visible to the relay only if tx
// commits.
func Enqueue(ctx context.Context, tx pgx.Tx, subject string, msg proto.Message) error {
	payload, err := proto.Marshal(msg)
	if err != nil {
		return fmt.Errorf("outbox: marshal: %w", err)
	}
	// The traceparent of the span in ctx (the request or event being
	// handled) goes with the row, so the trace continues at the consumers.
	var traceparent *string
	if tp := tracing.TraceParent(ctx); tp != "" {
		traceparent = &tp
	}
	if _, err := tx.Exec(ctx, `INSERT INTO outbox (id, subject, payload, traceparent) VALUES ($1, $2, $3, $4)`,
		uuid.New(), subject, payload, traceparent); err != nil {
		return fmt.Errorf("outbox: insert: %w", err)
	}
	// Wakes the relay at commit instead of at its next poll.
	if _, err := tx.Exec(ctx, `SELECT pg_notify('outbox_' || current_schema(), '')`); err != nil {
		return fmt.Errorf("outbox: notify: %w", err)
	}
	return nil
}

// Bus is what a service's consumers need from the event bus: JetStream, the
// database their effects go to, a log, and whom to believe.
type Bus struct {
	JS   jetstream.JetStream
	Pool *pgxpool.Pool
	Log  *slog.Logger
	// Trust checks each event's sender before any handler sees it; nil
	// believes every event (a test's plain NATS only: a service outside
	// local mode refuses to start without it).
	Trust *Trust
	// Metrics counts the events given up on (consumer_dead_letters); nil
	// counts nothing.
	Metrics *ConsumerMetrics
	// MaxDeliveries is how many failed deliveries of one event a consumer
	// makes before the dead letters, RetryBase the first wait between
	// them (doubling up to 5 min); 0 means DefaultMaxDeliveries and 2 s.
	MaxDeliveries int
	RetryBase     time.Duration
}

// trusted reports whether msg comes from a service that may publish its
// subject. An event that does not is terminated (never redelivered) and
// logged: it is a forgery or a misconfiguration, not a passing failure.
func (b Bus) trusted(durable string, msg jetstream.Msg) bool {
	id := msg.Headers().Get(jetstream.MsgIDHeader)
	if _, err := b.Trust.Check(msg.Subject(), id, msg.Headers(), msg.Data()); err != nil {
		b.Log.Error("event refused", "consumer", durable, "subject", msg.Subject(), "id", id, "err", err)
		_ = msg.Term()
		return false
	}
	return true
}

// Handler applies one event inside tx; returning an error rolls it back and
// asks for redelivery.
type Handler func(ctx context.Context, tx pgx.Tx, msg jetstream.Msg) error

// Consume runs a durable consumer named durable for subject until ctx ends.
// Each message is handled at most once per consumer, even when JetStream
// delivers it again after a crash or a lost ack; a message whose sender the
// bus does not trust is never handled; one that fails MaxDeliveries times
// goes to consumer_dead_letters.
func Consume(ctx context.Context, bus Bus, durable, subject string, h Handler) error {
	js, pool := bus.JS, bus.Pool
	cons, err := js.CreateOrUpdateConsumer(ctx, StreamName, jetstream.ConsumerConfig{
		Durable:       durable,
		FilterSubject: subject,
		AckPolicy:     jetstream.AckExplicitPolicy,
		MaxDeliver:    -1,
		BackOff:       nil,
		AckWait:       30 * time.Second,
	})
	if err != nil {
		return fmt.Errorf("consume %s: %w", durable, err)
	}
	cc, err := cons.Consume(func(msg jetstream.Msg) {
		if !bus.trusted(durable, msg) {
			return
		}
		id := messageID(msg)
		ctx, span := startConsume(ctx, durable, id, msg)
		defer span.End()
		err := HandleOnce(ctx, pool, durable, id, func(tx pgx.Tx) error { return h(ctx, tx, msg) })
		if err != nil {
			endFailed(span, err)
			bus.failed(ctx, durable, id, msg, err)
			return
		}
		_ = msg.Ack()
	})
	if err != nil {
		return fmt.Errorf("consume %s: %w", durable, err)
	}
	<-ctx.Done()
	cc.Stop()
	return nil
}

// messageID is the event's outbox id (the Nats-Msg-Id the relay sets), or
// for a message published some other way its stream sequence.
func messageID(msg jetstream.Msg) string {
	if id := msg.Headers().Get(jetstream.MsgIDHeader); id != "" {
		return id
	}
	if meta, _ := msg.Metadata(); meta != nil {
		return fmt.Sprintf("seq-%d", meta.Sequence.Stream)
	}
	return ""
}

// RetryLater is an error a ConsumeEach handler returns to have its message
// delivered again after Delay, without a warning in the log: the work is
// held elsewhere for now (e.g. another replica's run).
type RetryLater struct {
	Delay time.Duration
	Err   error
}

func (e *RetryLater) Error() string { return e.Err.Error() }
func (e *RetryLater) Unwrap() error { return e.Err }

// ConsumeEach runs a durable consumer like Consume, but calls h with no
// transaction open: for long work (reading a website for minutes) that must
// not hold a database transaction, and whose handler is idempotent on its
// own (it claims the work and records the result in short transactions of
// its own). While h runs the message's lease is renewed every leaseEvery,
// so JetStream does not deliver it again meanwhile.
func ConsumeEach(ctx context.Context, bus Bus, durable, subject string,
	leaseEvery time.Duration, h func(ctx context.Context, msg jetstream.Msg) error) error {
	js, log := bus.JS, bus.Log
	cons, err := js.CreateOrUpdateConsumer(ctx, StreamName, jetstream.ConsumerConfig{
		Durable:       durable,
		FilterSubject: subject,
		AckPolicy:     jetstream.AckExplicitPolicy,
		MaxDeliver:    -1,
		AckWait:       30 * time.Second,
	})
	if err != nil {
		return fmt.Errorf("consume %s: %w", durable, err)
	}
	if leaseEvery <= 0 {
		leaseEvery = 10 * time.Second
	}
	// One message at a time, none held in a buffer meanwhile: a replica busy
	// with a long job leaves the next to another replica.
	cc, err := cons.Consume(func(msg jetstream.Msg) {
		if !bus.trusted(durable, msg) {
			return
		}
		ctx, span := startConsume(ctx, durable, messageID(msg), msg)
		defer span.End()
		stop := make(chan struct{})
		go func() {
			t := time.NewTicker(leaseEvery)
			defer t.Stop()
			for {
				select {
				case <-stop:
					return
				case <-t.C:
					_ = msg.InProgress()
				}
			}
		}()
		err := h(ctx, msg)
		close(stop)
		var later *RetryLater
		switch {
		case errors.As(err, &later):
			log.Info("event held elsewhere; will retry", "consumer", durable, "subject", msg.Subject(), "err", err)
			_ = msg.NakWithDelay(later.Delay)
		case err != nil:
			endFailed(span, err)
			bus.failed(ctx, durable, messageID(msg), msg, err)
		default:
			_ = msg.Ack()
		}
	}, jetstream.PullMaxMessages(1))
	if err != nil {
		return fmt.Errorf("consume %s: %w", durable, err)
	}
	<-ctx.Done()
	cc.Stop()
	return nil
}

// HandleOnce runs fn in a transaction that also records (consumer, id); if
// the id was recorded before, fn is skipped.
func HandleOnce(ctx context.Context, pool *pgxpool.Pool, consumer, id string, fn func(pgx.Tx) error) error {
	return pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `INSERT INTO processed_messages (consumer, message_id) VALUES ($1, $2)
			ON CONFLICT DO NOTHING`, consumer, id)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return nil
		}
		return fn(tx)
	})
}
