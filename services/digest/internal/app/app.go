// Package app holds the digest service's mail use cases: queueing an email
// when something happens to a user, and sending what is due. It reaches
// storage, templates and SMTP only through the interfaces declared here.
package app

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"uplift.dev/digest/internal/domain"
	"uplift.dev/platform/clock"
	"uplift.dev/platform/tracing"
)

// Outbox records emails to send. Add is a no-op (false) when an email with
// the same idempotency key exists, so a repeated cause sends one email. An
// Outbox may be bound to the transaction of the event being handled.
type Outbox interface {
	Add(ctx context.Context, e domain.Email) (added bool, err error)
}

// Store is the durable outbox the sender works from.
type Store interface {
	Outbox
	// UpdateDue locks up to limit of the longest-due pending emails
	// (skipping those another sender holds), hands each to fn in turn and
	// saves what fn changed, all in one transaction that commits even when
	// ctx ends meanwhile. When fn returns false, that email and those after
	// it are left as they were. It reports how many it locked: 0 when
	// nothing is due.
	UpdateDue(ctx context.Context, now time.Time, limit int, fn func(*domain.Email) bool) (int, error)
	Eraser
	// Suppressed reports whether userID turned kind off.
	Suppressed(ctx context.Context, userID string, kind domain.Kind) (bool, error)
	// ChangeSubscription records a person's choice from an unsubscribe
	// link and, when it changed their state, publishes EmailKindUnsubscribed
	// in the same transaction. It reports whether the state changed.
	ChangeSubscription(ctx context.Context, s domain.Suppression) (bool, error)
}

// RecipientStore is what the digest service keeps of users and stores from
// their events; like Outbox it may be bound to the event's transaction.
type RecipientStore interface {
	// SetRecipient records a user's address as of at; an older address
	// never replaces a newer one, and a deleted user stays deleted.
	SetRecipient(ctx context.Context, r domain.Recipient, at time.Time) error
	// ForgetRecipient removes what is kept of a deleted user.
	ForgetRecipient(ctx context.Context, userID string) error
	// Recipient returns a known, not deleted user with an address.
	Recipient(ctx context.Context, userID string) (domain.Recipient, bool, error)
	// CategoryOwner returns the owner of a category, "" if unknown.
	CategoryOwner(ctx context.Context, categoryID string) (string, error)
	// StoreName returns a category's name from its newest snapshot, "" if
	// unknown.
	StoreName(ctx context.Context, categoryID string) (string, error)
	// ApplyStore keeps s unless a newer snapshot is stored; it returns the
	// snapshot s replaced (nil if none) and whether s was kept.
	ApplyStore(ctx context.Context, s domain.Store) (prev *domain.Store, applied bool, err error)
	// SetSuppression keeps s unless a newer choice is stored, and reports
	// whether the state changed.
	SetSuppression(ctx context.Context, s domain.Suppression) (bool, error)
}

// Metrics counts what happens to emails, by kind. Outcomes: queued, sent,
// retry (a failed attempt that will be retried), failed (given up),
// suppressed.
type Metrics interface {
	Count(kind domain.Kind, outcome string)
}

// Email outcomes counted by Metrics.
const (
	OutcomeQueued     = "queued"
	OutcomeSent       = "sent"
	OutcomeRetry      = "retry"
	OutcomeFailed     = "failed"
	OutcomeSuppressed = "suppressed"
)

type noMetrics struct{}

func (noMetrics) Count(domain.Kind, string) {}

// Eraser removes a user's emails; like Outbox it may be bound to the
// transaction of the event being handled.
type Eraser interface {
	// DeleteUser removes every email of a user, sent or not.
	DeleteUser(ctx context.Context, userID string) (int, error)
}

// EventStore is the storage an event from another service changes, bound
// to the consumer's transaction (which also records the message as
// handled), so the effect and its record commit together.
type EventStore interface {
	Outbox
	Eraser
	RecipientStore
}

// Renderer turns an email into its words.
type Renderer interface {
	Render(e domain.Email) (domain.Message, error)
}

// Mailer hands a message to the mail relay. A nil error means the relay
// accepted it.
type Mailer interface {
	Send(ctx context.Context, m domain.Message) error
}

// App is the digest service's mail use cases.
type App struct {
	store  Store
	render Renderer
	mail   Mailer
	retry  domain.RetryPolicy
	log    *slog.Logger
	now    clock.Clock
	tokens domain.TokenSigner
	stats  Metrics
}

// New returns the use cases over the given adapters.
func New(store Store, render Renderer, mail Mailer, retry domain.RetryPolicy, log *slog.Logger) *App {
	return &App{store: store, render: render, mail: mail, retry: retry, log: log, now: clock.Real, stats: noMetrics{}}
}

// WithTokens sets the signer that checks unsubscribe tokens.
func (a *App) WithTokens(t domain.TokenSigner) *App { a.tokens = t; return a }

// WithMetrics sets where email outcomes are counted.
func (a *App) WithMetrics(m Metrics) *App { a.stats = m; return a }

// WithClock returns the use cases reading time from now (the service's
// clock; tests step through retries with it).
func (a *App) WithClock(now clock.Clock) *App {
	c := *a
	c.now = now
	return &c
}

// UserCreated is what the welcome email needs from the UserCreated event.
type UserCreated struct {
	UserID, Email, DisplayName string
	SuppressWelcomeEmail       bool
}

// QueueWelcome queues the welcome email for a new user in out, unless the
// sign-up asked for none (e.g. an account made on the owner's behalf).
func (a *App) QueueWelcome(ctx context.Context, out Outbox, u UserCreated) error {
	if u.SuppressWelcomeEmail {
		return nil
	}
	e, err := domain.NewWelcome(u.UserID, u.Email, u.DisplayName)
	if err != nil {
		return err
	}
	return a.add(ctx, out, e)
}

// EmailChanged is the UserEmailChanged event.
type EmailChanged struct {
	UserID, OldEmail, NewEmail string
	At                         time.Time
}

// QueueEmailChanged queues a notice to the old address, so the owner hears
// of a change they did not make, and a confirmation to the new one.
func (a *App) QueueEmailChanged(ctx context.Context, out Outbox, c EmailChanged) error {
	notice, confirmation, err := domain.NewEmailChanged(c.UserID, c.OldEmail, c.NewEmail, c.At)
	if err != nil {
		return err
	}
	if err := a.add(ctx, out, notice); err != nil {
		return err
	}
	return a.add(ctx, out, confirmation)
}

// PasswordReset is a request to email a password-reset link.
type PasswordReset struct {
	// RequestID names the request; the same id twice sends one email.
	RequestID string
	// UserID is optional; with it, deleting the user removes the row too.
	UserID string
	Email  string
	// Link is the reset link from the Firebase Admin SDK. It is a secret:
	// never logged, and removed from storage once sent.
	Link string
}

// QueuePasswordReset queues a password-reset email in out, the transaction
// of the PasswordResetRequested event that asked for it: the users service
// owns the request (it makes the link with the Admin SDK).
func (a *App) QueuePasswordReset(ctx context.Context, out Outbox, r PasswordReset) error {
	e, err := domain.NewPasswordReset(r.RequestID, r.UserID, r.Email, r.Link)
	if err != nil {
		return err
	}
	return a.add(ctx, out, e)
}

// SignUpAttempt is the SignUpAttempted event: someone signed up with the
// email of an existing account.
type SignUpAttempt struct {
	UserID, Email string
	At            time.Time
}

// QueueSignUpAttempt queues the notice to the account's address, once per
// address per domain.SignUpAttemptEvery, in out.
func (a *App) QueueSignUpAttempt(ctx context.Context, out Outbox, s SignUpAttempt) error {
	e, err := domain.NewSignUpAttempt(s.UserID, s.Email, s.At)
	if err != nil {
		return err
	}
	return a.add(ctx, out, e)
}

// EmailVerification is a request to email the link that confirms a new
// account's address.
type EmailVerification struct {
	UserID, Email string
	// Link is the verification link from the Firebase Admin SDK: like a
	// reset link, never logged and removed from storage once sent.
	Link string
}

// QueueEmailVerificationIn queues the address verification email in out,
// the transaction of the event that asked for it; the same account twice
// queues one.
func (a *App) QueueEmailVerificationIn(ctx context.Context, out Outbox, v EmailVerification) error {
	e, err := domain.NewEmailVerification(v.UserID, v.Email, v.Link)
	if err != nil {
		return err
	}
	return a.add(ctx, out, e)
}

func (a *App) add(ctx context.Context, out Outbox, e domain.Email) error {
	added, err := out.Add(ctx, e)
	if err != nil {
		return fmt.Errorf("queue %s email: %w", e.Kind, err)
	}
	if added {
		a.stats.Count(e.Kind, OutcomeQueued)
	}
	a.log.InfoContext(ctx, "email queued", "kind", e.Kind, "user", e.UserID, "new", added)
	return nil
}

// ForgetUser removes a deleted user's emails, so nothing of theirs (not even
// an unsent welcome) is left behind.
func (a *App) ForgetUser(ctx context.Context, in Eraser, userID string) error {
	n, err := in.DeleteUser(ctx, userID)
	if err != nil {
		return fmt.Errorf("forget user: %w", err)
	}
	a.log.InfoContext(ctx, "user's emails removed", "user", userID, "count", n)
	return nil
}

// maxPerRound bounds one SendDue call, so a store that failed to move a row
// on can never spin the sender forever; a bigger backlog waits a poll.
const maxPerRound = 500

// SendBatch is how many due emails one transaction claims, sends one after
// another and marks: a transaction per email cost more than the email
// (DailyReportsFastSink), and a batch bounds what a crash sends twice.
const SendBatch = 10

// SendDue sends due emails until none is due (a failed one is rescheduled
// into the future) or maxPerRound were tried, and reports how many were
// sent.
//
// Emails are claimed SendBatch at a time, sent one after another and marked
// in one transaction: the rows stay locked (FOR UPDATE) while the relay
// talks, and "sent" commits only after the relay accepted the messages. A
// crash, or a failed commit, after the relay accepted some leaves their
// rows pending, and they are sent again: delivery is at least once, with
// the same Message-ID on both copies, at most SendBatch of them. Nothing is
// sent twice otherwise: the key is unique and a sent row is never picked
// again. When ctx ends the batch stops at the email it is on and commits
// what it sent.
func (a *App) SendDue(ctx context.Context) (int, error) {
	sent := 0
	for tried := 0; tried < maxPerRound && ctx.Err() == nil; {
		n, err := a.store.UpdateDue(ctx, a.now(), SendBatch, func(e *domain.Email) bool {
			if ctx.Err() != nil {
				return false
			}
			if a.sendOne(ctx, e) {
				sent++
			}
			return true
		})
		if err != nil {
			return sent, fmt.Errorf("send due: %w", err)
		}
		if n == 0 {
			break
		}
		tried += n
	}
	return sent, nil
}

// sendOne attempts e and records the outcome on it. It works in the trace
// of the request or event that queued e, so the send's span and log lines
// are found with it.
func (a *App) sendOne(ctx context.Context, e *domain.Email) bool {
	ctx = tracing.WithTraceParent(ctx, e.TraceParent)
	if e.Kind.Unsubscribable() {
		off, err := a.store.Suppressed(ctx, e.UserID, e.Kind)
		if err != nil {
			// Not knowing is not sending: the row waits for the next round.
			e.MarkFailed(a.now(), err, domain.RetryPolicy{Base: a.retry.Base, Max: a.retry.Max})
			a.log.WarnContext(ctx, "email suppression check failed; will retry", "id", e.ID, "err", err)
			return false
		}
		if off {
			e.MarkSuppressed()
			a.stats.Count(e.Kind, OutcomeSuppressed)
			a.log.InfoContext(ctx, "email suppressed: its kind is turned off", "id", e.ID, "kind", e.Kind, "user", e.UserID)
			return false
		}
	}
	msg, err := a.render.Render(*e)
	if err == nil {
		err = a.mail.Send(ctx, msg)
	}
	now := a.now()
	if err != nil {
		e.MarkFailed(now, err, a.retry)
		level, what, outcome := slog.LevelWarn, "email send failed; will retry", OutcomeRetry
		if e.Status == domain.StatusFailed {
			level, what, outcome = slog.LevelError, "email send failed; giving up", OutcomeFailed
		}
		a.stats.Count(e.Kind, outcome)
		a.log.Log(ctx, level, what, "id", e.ID, "kind", e.Kind, "attempts", e.Attempts,
			"next_attempt_at", e.NextAttemptAt, "err", e.LastError)
		return false
	}
	e.MarkSent(now)
	a.stats.Count(e.Kind, OutcomeSent)
	a.log.InfoContext(ctx, "email sent", "id", e.ID, "kind", e.Kind, "attempts", e.Attempts)
	return true
}
