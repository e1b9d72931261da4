package domain

import (
	"errors"
	"time"

	"uplift.dev/platform/validation"
)

// Sentinel errors the gRPC port maps to statuses.
var (
	ErrPermissionDenied = errors.New("permission denied")
	ErrNotSignedIn      = errors.New("not signed in")
	ErrUnknownTier      = errors.New("unknown tier")
	ErrUnknownPrice     = errors.New("unknown price")
	ErrNotPaid          = errors.New("no paid subscription to manage")
	ErrBadSignature     = errors.New("webhook signature is missing or invalid")
	ErrCheckoutNotFound = errors.New("test checkout not found or already used")
	// ErrOnBehalf: the plan is bought and managed by the store's owner, not
	// by an uplifter viewing as them (it would be charged to the uplifter).
	ErrOnBehalf = errors.New("plans are bought by the store's owner")
	// ErrSubscriptionNotFound: Stripe has no subscription with that id.
	ErrSubscriptionNotFound = errors.New("subscription not found")
	// ErrUserNotFound: the users service has no user with that id, so there
	// is no one to bill.
	ErrUserNotFound = errors.New("user not found")
)

// ValidationError is a client's mistake in one field: the platform's one
// type (validation.Error), so every service maps it to 400 the same way.
type ValidationError = validation.Error

// Billing is a user's plan as the billing service knows it.
type Billing struct {
	UserID        string
	Tier          string
	IsManuallySet bool
	// SourceTime is when the change that produced this state happened at
	// its source (a Stripe event's created time, or the admin's action).
	SourceTime time.Time
}

// Change is a proposed new billing state for a user.
type Change struct {
	Tier          string
	IsManuallySet bool
	SourceTime    time.Time
}

// ActionSetBilling is the audit action of an admin's setBilling.
const ActionSetBilling = "set_billing"

// AuditEntry records one thing an admin did to a user's billing by hand:
// who, for whom, what, when.
type AuditEntry struct {
	// ActorID is the admin who acted.
	ActorID string
	// UserID is the user whose billing it was.
	UserID string
	// Action names what was done, e.g. ActionSetBilling.
	Action string
	// Detail is free text for the reader of the log (e.g. the tier set).
	Detail string
	At     time.Time
}

// Decision says whether a change is applied, and why not if it is not.
type Decision int

// Decisions of Apply.
const (
	Applied Decision = iota
	// IgnoredOlder: the stored state came from a newer source event.
	IgnoredOlder
	// IgnoredManual: an admin set the tier by hand; Stripe does not override it.
	IgnoredManual
	// IgnoredSame: nothing would change.
	IgnoredSame
)

// Apply decides the effect of change on current (nil when the user has no
// billing yet). Rules:
//   - A manual change (an admin's SetBilling) always wins: an admin is the
//     authority on a hand-set plan.
//   - A Stripe change never overwrites manual billing; an admin must set the
//     tier again (e.g. back to "free") before Stripe drives it.
//   - A Stripe change older than the stored state's source time is ignored,
//     so events arriving out of order never leave an older state on top.
//     Equal times apply (Stripe's created time has one-second resolution and
//     a checkout and its subscription often share it).
func Apply(current *Billing, change Change) Decision {
	if current == nil {
		return Applied
	}
	if !change.IsManuallySet {
		if current.IsManuallySet {
			return IgnoredManual
		}
		if change.SourceTime.Before(current.SourceTime) {
			return IgnoredOlder
		}
	}
	if current.Tier == change.Tier && current.IsManuallySet == change.IsManuallySet && !change.SourceTime.After(current.SourceTime) {
		return IgnoredSame
	}
	return Applied
}

// Stripe event types the service acts on.
const (
	EventCheckoutCompleted   = "checkout.session.completed"
	EventSubscriptionCreated = "customer.subscription.created"
	EventSubscriptionUpdated = "customer.subscription.updated"
	EventSubscriptionDeleted = "customer.subscription.deleted"
	EventPaymentFailed       = "invoice.payment_failed"
)

// PaymentEvent is what the service needs from a verified Stripe event.
type PaymentEvent struct {
	ID      string
	Type    string
	Created time.Time
	// UserID comes from client_reference_id or metadata.userId; empty when
	// the event does not carry it (the customer id is then used).
	UserID     string
	CustomerID string
	// PriceID is the subscribed price, when the event names one.
	PriceID string
	// MetadataTier is metadata.tier, set by our checkout.
	MetadataTier string
	// Status is the subscription status, or the checkout's payment status.
	Status string
	// SubscriptionID is the subscription the event is about (a
	// subscription event's object, a checkout's subscription); empty when
	// there is none (the local test checkout).
	SubscriptionID string
	// SessionID is an identity verification session event's session.
	SessionID string
}

// Subscription is a subscription's state as Stripe holds it now.
type Subscription struct {
	ID, Status, CustomerID, PriceID string
	// UserID and Tier are metadata.userId and metadata.tier, set by our checkout.
	UserID, Tier string
}

// WithCurrent is ev judged by its subscription's current state instead of
// the state the event carried. Stripe delivers events out of order and more
// than once, and created times have one-second resolution, so a stale
// "active" can arrive after, and in the same second as, the cancellation;
// the subscription as Stripe holds it now is the one truth. A checkout is
// then judged as its subscription: a checkout whose subscription has since
// ended does not bring the plan back.
func (ev PaymentEvent) WithCurrent(sub Subscription) PaymentEvent {
	if ev.Type == EventCheckoutCompleted {
		ev.Type = EventSubscriptionUpdated
	}
	ev.Status, ev.PriceID = sub.Status, sub.PriceID
	if sub.Tier != "" {
		ev.MetadataTier = sub.Tier
	}
	if ev.UserID == "" {
		ev.UserID = sub.UserID
	}
	if ev.CustomerID == "" {
		ev.CustomerID = sub.CustomerID
	}
	return ev
}

// NeedsCurrent says whether an event's outcome depends on its
// subscription's current state. A deletion does not: a deleted subscription
// is canceled for good, whatever order its events come in.
func (ev PaymentEvent) NeedsCurrent() bool {
	if ev.SubscriptionID == "" {
		return false
	}
	switch ev.Type {
	case EventCheckoutCompleted, EventSubscriptionCreated, EventSubscriptionUpdated:
		return true
	}
	return false
}

// TierFor maps an event to the tier it implies. ok is false for events that
// do not change billing (unknown types, an incomplete subscription).
//   - checkout completed: the purchased tier (from the price, else metadata).
//   - subscription created/updated: active, trialing or past_due keep the
//     subscribed tier (Stripe is still retrying a past_due payment);
//     canceled, unpaid and incomplete_expired mean "free".
//   - subscription deleted: "free".
//   - invoice.payment_failed: no change by itself; the subscription.updated
//     that follows (past_due, later unpaid or canceled) carries the outcome.
//     It is still recorded so a replay is recognised.
func TierFor(ev PaymentEvent, tiers Tiers) (tier string, ok bool, err error) {
	paid := func() (string, bool, error) {
		if t, found := tiers.ByPriceID(ev.PriceID); found {
			return t, true, nil
		}
		if _, found := tiers[ev.MetadataTier]; found && ev.MetadataTier != "" {
			return ev.MetadataTier, true, nil
		}
		return "", false, ErrUnknownPrice
	}
	switch ev.Type {
	case EventCheckoutCompleted:
		if ev.Status == "unpaid" {
			return "", false, nil
		}
		return paid()
	case EventSubscriptionCreated, EventSubscriptionUpdated:
		switch ev.Status {
		case "active", "trialing", "past_due":
			return paid()
		case "canceled", "unpaid", "incomplete_expired":
			return FreeTier, true, nil
		}
		return "", false, nil
	case EventSubscriptionDeleted:
		return FreeTier, true, nil
	}
	return "", false, nil
}
