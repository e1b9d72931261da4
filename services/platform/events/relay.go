package events

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/prometheus/client_golang/prometheus"

	"uplift.dev/platform/postgres"
)

// Publisher is the part of JetStream the relay needs.
type Publisher interface {
	PublishMsg(ctx context.Context, msg *nats.Msg, opts ...jetstream.PublishOpt) (*jetstream.PubAck, error)
}

// How long the relay keeps trying a row JetStream refuses before it moves
// the row to the dead letters (Relay.MaxRefusals, Relay.RefusingFor).
const (
	DefaultMaxRefusals = 5
	DefaultRefusingFor = time.Minute
)

// Relay moves outbox rows to JetStream, in order. A row NATS will never
// take goes to the dead letters (outbox_dead_letters) with an error in the
// log and a count on /metrics, so one bad event cannot hold back every
// event after it; while NATS is away every row waits, in order.
type Relay struct {
	Pool *pgxpool.Pool
	JS   Publisher
	Log  *slog.Logger
	// Poll is how long the relay waits for a notification before looking anyway.
	Poll time.Duration
	// Signer signs each event as this service's; nil publishes unsigned
	// events, which only a test's plain NATS (Trust nil) accepts.
	Signer *Signer
	// Metrics counts the dead letters; nil counts nothing.
	Metrics *RelayMetrics
	// A row JetStream refuses (it answered, with an error) is tried again,
	// holding the rows after it, until it was refused MaxRefusals times
	// over at least RefusingFor; zero means DefaultMaxRefusals and
	// DefaultRefusingFor. A row that can never be published (larger than
	// the server takes) goes at once.
	MaxRefusals int
	RefusingFor time.Duration
}

// RelayMetrics are the relay's counters on the service's /metrics.
type RelayMetrics struct {
	deadLetters *prometheus.CounterVec
}

// NewRelayMetrics registers the relay's counters with reg:
// outbox_dead_letters_total{subject}, where subject is the event's subject
// pattern (events.Publishers' key). Any increase is worth an alert: an
// event was not delivered and waits in outbox_dead_letters.
func NewRelayMetrics(reg prometheus.Registerer) *RelayMetrics {
	m := &RelayMetrics{deadLetters: prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "outbox_dead_letters_total",
		Help: "Outbox events NATS would not take, moved to outbox_dead_letters instead of being published.",
	}, []string{"subject"})}
	// Every series from zero, so an alert on an increase sees the first one.
	for pattern := range Publishers {
		m.deadLetters.WithLabelValues(pattern)
	}
	reg.MustRegister(m.deadLetters)
	return m
}

// Run relays until ctx ends. A failed publish leaves the row for the next
// round, so nothing is lost while NATS is away.
func (r *Relay) Run(ctx context.Context) error {
	return postgres.RunOnNotify(ctx, r.Pool, "outbox_", r.Poll, func(ctx context.Context) error {
		for {
			sent, dead, err := r.relayBatch(ctx)
			if err != nil || sent+dead == 0 {
				return err
			}
		}
	}, func(err error) { r.Log.Warn("outbox relay round failed; will retry", "err", err) })
}

// RelayOnce publishes up to one batch of pending events and reports how many
// went out. Rows are locked so several replicas can relay side by side.
func (r *Relay) RelayOnce(ctx context.Context) (int, error) {
	sent, _, err := r.relayBatch(ctx)
	return sent, err
}

type outboxRow struct {
	id          uuid.UUID
	subject     string
	payload     []byte
	traceparent *string
}

// relayBatch publishes up to 100 rows in order, stopping at the first that
// must wait; dead is how many went to the dead letters.
func (r *Relay) relayBatch(ctx context.Context) (sent, dead int, err error) {
	err = pgx.BeginFunc(ctx, r.Pool, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `SELECT id, subject, payload, traceparent FROM outbox
			WHERE published_at IS NULL ORDER BY created_at LIMIT 100 FOR UPDATE SKIP LOCKED`)
		if err != nil {
			return err
		}
		batch, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (outboxRow, error) {
			var x outboxRow
			return x, row.Scan(&x.id, &x.subject, &x.payload, &x.traceparent)
		})
		if err != nil {
			return err
		}
		for _, x := range batch {
			msg := &nats.Msg{Subject: x.subject, Data: x.payload, Header: nats.Header{}}
			if r.Signer != nil {
				if err := r.Signer.Sign(msg, x.id.String()); err != nil {
					return err
				}
			}
			span := startPublish(ctx, deref(x.traceparent), x.id.String(), msg)
			_, perr := r.JS.PublishMsg(ctx, msg, jetstream.WithMsgID(x.id.String()))
			if perr != nil {
				endFailed(span, perr)
			}
			span.End()
			if perr == nil {
				if _, err := tx.Exec(ctx, `UPDATE outbox SET published_at = now() WHERE id = $1`, x.id); err != nil {
					return err
				}
				sent++
				continue
			}
			switch judge(perr) {
			case mustWait:
				return nil // what was published is stamped; the rest waits, in order
			case refused:
				gaveUp, err := r.countRefusal(ctx, tx, x.id)
				if err != nil {
					return err
				}
				if !gaveUp {
					r.Log.Warn("outbox event refused by NATS; will retry, holding the events after it",
						"subject", x.subject, "id", x.id, "err", perr)
					return nil
				}
			}
			if err := r.deadLetter(ctx, tx, x, perr); err != nil {
				return err
			}
			dead++
		}
		return nil
	})
	return sent, dead, err
}

// verdict is what a failed publish means for its row.
type verdict int

const (
	// mustWait: NATS is away or slow (a timeout, no stream answering, a
	// lost connection). The row and all after it wait; nothing is counted,
	// so an outage of any length dead-letters nothing.
	mustWait verdict = iota
	// refused: JetStream answered with an error. It may pass (a stream
	// being moved, out of space), so the row is tried again a while.
	refused
	// undeliverable: no retry can publish it (larger than the server's
	// max_payload or the stream's message size, a malformed subject).
	undeliverable
)

func judge(err error) verdict {
	var api *jetstream.APIError
	switch {
	case errors.Is(err, nats.ErrMaxPayload), errors.Is(err, nats.ErrBadSubject):
		return undeliverable
	case errors.As(err, &api) && api.ErrorCode == jetstream.JSErrCodeStreamMessageExceedsMaximum:
		return undeliverable
	case errors.As(err, &api):
		return refused
	}
	return mustWait
}

// countRefusal records one more refusal of row id and reports whether the
// relay has tried it long enough.
func (r *Relay) countRefusal(ctx context.Context, tx pgx.Tx, id uuid.UUID) (bool, error) {
	maxRefusals, refusingFor := r.MaxRefusals, r.RefusingFor
	if maxRefusals <= 0 {
		maxRefusals = DefaultMaxRefusals
	}
	if refusingFor <= 0 {
		refusingFor = DefaultRefusingFor
	}
	var gaveUp bool
	err := tx.QueryRow(ctx, `UPDATE outbox SET attempts = attempts + 1, first_failed_at = coalesce(first_failed_at, now())
		WHERE id = $1
		RETURNING attempts >= $2 AND first_failed_at <= now() - $3 * interval '1 second'`,
		id, maxRefusals, refusingFor.Seconds()).Scan(&gaveUp)
	return gaveUp, err
}

// deadLetter moves row x to outbox_dead_letters, with why, and raises the
// alert: an error in the log and the counter on /metrics.
func (r *Relay) deadLetter(ctx context.Context, tx pgx.Tx, x outboxRow, cause error) error {
	var attempts int
	if err := tx.QueryRow(ctx, `
		WITH moved AS (DELETE FROM outbox WHERE id = $1 RETURNING id, subject, payload, created_at, attempts)
		INSERT INTO outbox_dead_letters (id, subject, payload, created_at, attempts, error)
		SELECT id, subject, payload, created_at, greatest(attempts, 1), $2 FROM moved
		ON CONFLICT (id) DO UPDATE SET payload = excluded.payload, attempts = excluded.attempts,
			error = excluded.error, failed_at = now()
		RETURNING attempts`, x.id, cause.Error()).Scan(&attempts); err != nil {
		return err
	}
	r.Log.Error("outbox event dead-lettered: NATS will not take it, so it moved to outbox_dead_letters and the events after it go on",
		"subject", x.subject, "id", x.id, "bytes", len(x.payload), "attempts", attempts, "err", cause)
	if r.Metrics != nil {
		r.Metrics.deadLetters.WithLabelValues(subjectPattern(x.subject)).Inc()
	}
	return nil
}

// subjectPattern is the key of Publishers that subject is one of, so the
// counter has one series per kind of event, not one per category.
func subjectPattern(subject string) string {
	for pattern := range Publishers {
		if matches(pattern, subject) {
			return pattern
		}
	}
	return "other"
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
