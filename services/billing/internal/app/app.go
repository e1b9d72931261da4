// Package app holds the billing service's use cases. It reaches Stripe, the
// users service and storage through the narrow interfaces it declares here,
// so each use case is tested with small fakes.
package app

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"uplift.dev/billing/internal/domain"
	"uplift.dev/platform/clock"
)

// Profiles is what billing asks the users service: which categories a user
// owns, and whether a user exists. The caller's own token travels in ctx, so
// the users service checks access.
type Profiles interface {
	GetProfile(ctx context.Context, userID string) (categoryID, originalCategoryID string, err error)
	// UserExists reports whether the users service has the user; an id it
	// refuses as malformed is a *domain.ValidationError.
	UserExists(ctx context.Context, userID string) (bool, error)
}

// CheckoutParams is a Stripe Checkout session to start.
type CheckoutParams struct {
	CustomerID, UserID, CategoryID, Tier, PriceID, ReferralID string
	SuccessURL, CancelURL                                     string
}

// Payments is Stripe.
type Payments interface {
	CreateCustomer(ctx context.Context, userID, email string) (string, error)
	CreateCheckout(ctx context.Context, p CheckoutParams) (string, error)
	CreatePortal(ctx context.Context, customerID, returnURL string) (string, error)
	// CreateIdentityVerification starts a document-and-selfie verification
	// of the user (email prefilled when known; returnURL, when set, is where
	// Stripe's hosted page leads back to).
	CreateIdentityVerification(ctx context.Context, userID, email, returnURL string) (domain.IdentityVerification, error)
	// ParseEvent verifies the signature and extracts what billing needs;
	// domain.ErrBadSignature when verification fails.
	ParseEvent(payload []byte, signature string) (domain.PaymentEvent, error)
	// Subscription reads a subscription's current state from Stripe;
	// domain.ErrSubscriptionNotFound when Stripe has none with that id.
	Subscription(ctx context.Context, id string) (domain.Subscription, error)
}

// PendingIdentity is a local test identity verification waiting for its
// outcome.
type PendingIdentity struct {
	Token, UserID, SessionID, ReturnURL string
}

// PendingCheckout is a local test checkout waiting to be completed.
type PendingCheckout struct {
	Token, UserID, CategoryID, CustomerID, Tier, PriceID, ReferralID string
	Amount                                                           int32
	SuccessURL, CancelURL                                            string
}

// Repository stores billing. ApplyEvent and SetManual record the
// BillingChanged event of an applied change in the same transaction.
type Repository interface {
	CustomerID(ctx context.Context, userID string) (string, error) // "" when none
	// SaveCustomer stores id unless the user already has one; it returns
	// the id that is stored, so two racing checkouts share one customer.
	SaveCustomer(ctx context.Context, userID, customerID string) (string, error)
	UserByCustomer(ctx context.Context, customerID string) (string, error) // "" when unknown
	Billing(ctx context.Context, userID string) (*domain.Billing, error)   // nil when none
	// Change applies change to userID's billing under domain.Apply, in one
	// transaction. With a non-empty eventID it first records the id and
	// returns (domain.IgnoredSame, true) if it was seen before. The audit
	// entries are written in the same transaction, whatever Apply decides,
	// so a manual change is never without its record.
	Change(ctx context.Context, eventID, userID string, change domain.Change, audit ...domain.AuditEntry) (d domain.Decision, replay bool, err error)
	// RecordEvent marks a Stripe event as handled without a billing change.
	RecordEvent(ctx context.Context, eventID string) (replay bool, err error)
	// EventSeen reports whether a Stripe event was already handled.
	EventSeen(ctx context.Context, eventID string) (bool, error)
	SavePendingCheckout(ctx context.Context, p PendingCheckout) error
	PendingCheckout(ctx context.Context, token string) (PendingCheckout, error)
	// CompletePendingCheckout marks it used; domain.ErrCheckoutNotFound if it was.
	CompletePendingCheckout(ctx context.Context, token string) error
	// RecordIdentityOutcome records eventID and, unless it was seen before
	// (replay), stores o when it supersedes the user's stored outcome.
	RecordIdentityOutcome(ctx context.Context, eventID string, o domain.IdentityOutcome) (applied, replay bool, err error)
	// IdentityOutcome is the user's latest outcome, nil when none.
	IdentityOutcome(ctx context.Context, userID string) (*domain.IdentityOutcome, error)
	SavePendingIdentity(ctx context.Context, p PendingIdentity) error
	// PendingIdentity returns an unused test verification, or
	// domain.ErrCheckoutNotFound.
	PendingIdentity(ctx context.Context, token string) (PendingIdentity, error)
	// CompletePendingIdentity marks it used; domain.ErrCheckoutNotFound if it was.
	CompletePendingIdentity(ctx context.Context, token string) error
}

// App is the billing use cases.
type App struct {
	tiers    domain.Tiers
	repo     Repository
	payments Payments
	profiles Profiles
	log      *slog.Logger
	// testCheckoutURL, when set, is the base of the local test checkout
	// page; CreateStripeCheckout then points the browser there, and
	// CreateIdentityVerification to its identity verification page.
	testCheckoutURL string
	// returnOrigins are the web app's origins: the only places checkout and
	// portal return URLs may lead (none configured means none accepted).
	returnOrigins domain.Origins
	now           clock.Clock
}

// New returns the billing use cases over their dependencies.
func New(tiers domain.Tiers, repo Repository, payments Payments, profiles Profiles, log *slog.Logger, returnOrigins domain.Origins) *App {
	return &App{tiers: tiers, repo: repo, payments: payments, profiles: profiles, log: log, returnOrigins: returnOrigins, now: clock.Real}
}

// WithClock returns the use cases reading time from now (the service's clock).
func (a *App) WithClock(now clock.Clock) *App {
	c := *a
	c.now = now
	return &c
}

// WithTestCheckout returns the use cases sending checkouts and identity
// verifications to the local test checkout page at url (a test stack only).
func (a *App) WithTestCheckout(url string) *App {
	c := *a
	c.testCheckoutURL = url
	return &c
}

// Tiers are the configured subscription tiers.
func (a *App) Tiers() domain.Tiers { return a.tiers }

// CheckoutInput is the checkout request as received.
type CheckoutInput struct {
	CategoryID, PriceID, CustomerEmail, SuccessURL, CancelURL, ReferralID string
	FreeTrial, ForMetricsProduct                                          bool
}

// CreateCheckout starts a subscription checkout for the caller's own
// business and returns where the browser goes.
func (a *App) CreateCheckout(ctx context.Context, c domain.Caller, in CheckoutInput) (string, error) {
	if c.UID == "" {
		return "", domain.ErrNotSignedIn
	}
	tier, ok := a.tiers.ByPriceID(in.PriceID)
	if !ok {
		return "", &domain.ValidationError{Field: "priceId", Message: fmt.Sprintf("priceId %q is not the price of any plan.", in.PriceID)}
	}
	if in.FreeTrial {
		return "", &domain.ValidationError{Field: "freeTrial", Message: "Free trials are not offered; send freeTrial false."}
	}
	if err := a.returnOrigins.CheckReturnURL("successUrl", in.SuccessURL); err != nil {
		return "", err
	}
	if err := a.returnOrigins.CheckReturnURL("cancelUrl", in.CancelURL); err != nil {
		return "", err
	}
	if err := a.checkOwnCategory(ctx, c, in.CategoryID); err != nil {
		return "", err
	}
	referral := strings.TrimSpace(in.ReferralID)
	if referral == "" {
		referral = fmt.Sprintf("checkout_%d", a.now().UnixMilli())
	}
	email := strings.TrimSpace(in.CustomerEmail)
	if email == "" {
		email = c.Email
	}
	customer, err := a.customer(ctx, c.UID, email)
	if err != nil {
		return "", err
	}
	params := CheckoutParams{CustomerID: customer, UserID: c.UID, CategoryID: in.CategoryID, Tier: tier,
		PriceID: in.PriceID, ReferralID: referral, SuccessURL: in.SuccessURL, CancelURL: in.CancelURL}
	stripeURL, err := a.payments.CreateCheckout(ctx, params)
	if err != nil {
		return "", err
	}
	if a.testCheckoutURL == "" {
		return stripeURL, nil
	}
	token, err := newToken()
	if err != nil {
		return "", err
	}
	if err := a.repo.SavePendingCheckout(ctx, PendingCheckout{Token: token, UserID: c.UID, CategoryID: in.CategoryID,
		CustomerID: customer, Tier: tier, PriceID: in.PriceID, ReferralID: referral,
		Amount: a.tiers[tier].Prices.Monthly.Amount, SuccessURL: in.SuccessURL, CancelURL: in.CancelURL}); err != nil {
		return "", err
	}
	return strings.TrimRight(a.testCheckoutURL, "/") + "/test-checkout/" + token, nil
}

// CreatePortal returns a Stripe customer portal URL for a paying user.
func (a *App) CreatePortal(ctx context.Context, c domain.Caller, categoryID, redirectURL string) (string, error) {
	if c.UID == "" {
		return "", domain.ErrNotSignedIn
	}
	if err := a.returnOrigins.CheckReturnURL("redirectUrl", redirectURL); err != nil {
		return "", err
	}
	if err := a.checkOwnCategory(ctx, c, categoryID); err != nil {
		return "", err
	}
	b, err := a.repo.Billing(ctx, c.UID)
	if err != nil {
		return "", err
	}
	customer, err := a.repo.CustomerID(ctx, c.UID)
	if err != nil {
		return "", err
	}
	if b == nil || !domain.IsPaid(b.Tier) || customer == "" {
		return "", domain.ErrNotPaid
	}
	return a.payments.CreatePortal(ctx, customer, redirectURL)
}

// StartIdentityVerification starts a Stripe Identity verification of the
// caller themself: an uplifter acting on behalf of an owner still verifies
// only their own identity.
//
// returnURL, when set, must be a page of the web app. On the local test
// stack (TestCheckoutURL set) the session is made through the Stripe mock,
// which hosts no verification page, and the browser is sent to the test
// checkout's stand-in for it instead, which reports an outcome through the
// real webhook path.
func (a *App) StartIdentityVerification(ctx context.Context, c domain.Caller, returnURL string) (domain.IdentityVerification, error) {
	if c.UID == "" {
		return domain.IdentityVerification{}, domain.ErrNotSignedIn
	}
	if returnURL != "" {
		if err := a.returnOrigins.CheckReturnURL("returnUrl", returnURL); err != nil {
			return domain.IdentityVerification{}, err
		}
	}
	v, err := a.payments.CreateIdentityVerification(ctx, c.UID, c.Email, returnURL)
	if err != nil {
		return domain.IdentityVerification{}, err
	}
	if a.testCheckoutURL != "" {
		token, err := newToken()
		if err != nil {
			return domain.IdentityVerification{}, err
		}
		if err := a.repo.SavePendingIdentity(ctx, PendingIdentity{Token: token, UserID: c.UID, SessionID: v.ID, ReturnURL: returnURL}); err != nil {
			return domain.IdentityVerification{}, err
		}
		return domain.IdentityVerification{ID: v.ID, URL: a.testCheckoutURL + "/test-identity/" + token}, nil
	}
	if v.ClientSecret == "" && v.URL == "" {
		return domain.IdentityVerification{}, domain.ErrIdentityUnavailable
	}
	return v, nil
}

// PendingIdentity returns an unused local test verification for its page,
// or domain.ErrCheckoutNotFound.
func (a *App) PendingIdentity(ctx context.Context, token string) (PendingIdentity, error) {
	return a.repo.PendingIdentity(ctx, token)
}

// CompletePendingIdentity marks a local test verification used, once,
// before its page sends the outcome's webhook event.
func (a *App) CompletePendingIdentity(ctx context.Context, token string) error {
	return a.repo.CompletePendingIdentity(ctx, token)
}

// SetBilling sets a user's tier by hand; admins only. Each call is written
// to the audit log with the change. The user must exist in the users
// service: billing keeps plans by user id alone, and a plan for an id no one
// has would be billed to no one (ErrUserNotFound).
func (a *App) SetBilling(ctx context.Context, c domain.Caller, userID, tier string) (domain.Billing, error) {
	if !c.Admin {
		return domain.Billing{}, domain.ErrPermissionDenied
	}
	if strings.TrimSpace(userID) == "" {
		return domain.Billing{}, &domain.ValidationError{Field: "userId", Message: "userId is required."}
	}
	if _, ok := a.tiers[tier]; !ok {
		return domain.Billing{}, &domain.ValidationError{Field: "tier", Message: fmt.Sprintf("tier %q does not exist.", tier)}
	}
	exists, err := a.profiles.UserExists(ctx, userID)
	if err != nil {
		return domain.Billing{}, err
	}
	if !exists {
		return domain.Billing{}, domain.ErrUserNotFound
	}
	change := domain.Change{Tier: tier, IsManuallySet: true, SourceTime: a.now()}
	entry := domain.AuditEntry{ActorID: c.UID, UserID: userID, Action: domain.ActionSetBilling,
		Detail: "tier " + tier, At: change.SourceTime}
	if _, _, err := a.repo.Change(ctx, "", userID, change, entry); err != nil {
		return domain.Billing{}, err
	}
	return domain.Billing{UserID: userID, Tier: tier, IsManuallySet: true, SourceTime: change.SourceTime}, nil
}

// HandleWebhook verifies and applies one Stripe event, at most once.
func (a *App) HandleWebhook(ctx context.Context, payload []byte, signature string) error {
	ev, err := a.payments.ParseEvent(payload, signature)
	if err != nil {
		return err
	}
	log := a.log.With("event", ev.ID, "type", ev.Type)
	// A delivery of an event already handled (Stripe's retries, or anyone
	// replaying a signed body) is acknowledged here, before any read from
	// Stripe, so replays cost one lookup of our own and no Stripe API
	// call. Deliveries racing the first one may still read; the id is
	// recorded in the change's transaction, which applies it once.
	if seen, err := a.repo.EventSeen(ctx, ev.ID); err != nil || seen {
		if seen {
			log.DebugContext(ctx, "stripe event replayed; already handled")
		}
		return err
	}
	if status, ok := domain.IdentityStatusFor(ev.Type); ok {
		return a.recordIdentity(ctx, log, ev, status)
	}
	if ev.NeedsCurrent() {
		// Stripe's advice: an event says something changed; what it is now
		// is the subscription's current state, fetched on every event.
		sub, err := a.payments.Subscription(ctx, ev.SubscriptionID)
		if errors.Is(err, domain.ErrSubscriptionNotFound) {
			log.WarnContext(ctx, "stripe event names a subscription Stripe does not have", "subscription", ev.SubscriptionID)
			_, err := a.repo.RecordEvent(ctx, ev.ID)
			return err
		}
		if err != nil {
			return err // Stripe retries the webhook; nothing was recorded
		}
		ev = ev.WithCurrent(sub)
	}
	tier, ok, err := domain.TierFor(ev, a.tiers)
	if errors.Is(err, domain.ErrUnknownPrice) {
		// Acknowledged so Stripe stops retrying; a price we do not sell is an
		// operator's problem, not one a retry fixes.
		log.WarnContext(ctx, "stripe event names a price of no configured tier", "price", ev.PriceID)
		ok = false
	} else if err != nil {
		return err
	}
	userID := ev.UserID
	if userID == "" && ev.CustomerID != "" {
		if userID, err = a.repo.UserByCustomer(ctx, ev.CustomerID); err != nil {
			return err
		}
	}
	if !ok || userID == "" {
		if ok {
			log.WarnContext(ctx, "stripe event for an unknown customer", "customer", ev.CustomerID)
		}
		_, err := a.repo.RecordEvent(ctx, ev.ID)
		return err
	}
	if ev.CustomerID != "" {
		if _, err := a.repo.SaveCustomer(ctx, userID, ev.CustomerID); err != nil {
			return err
		}
	}
	d, replay, err := a.repo.Change(ctx, ev.ID, userID, domain.Change{Tier: tier, SourceTime: ev.Created})
	if err != nil {
		return err
	}
	log.InfoContext(ctx, "stripe event handled", "user", userID, "tier", tier, "decision", int(d), "replay", replay)
	return nil
}

// recordIdentity stores an identity verification's outcome for the user our
// session was made for (its client reference, else metadata.userId).
func (a *App) recordIdentity(ctx context.Context, log *slog.Logger, ev domain.PaymentEvent, status string) error {
	if ev.UserID == "" || ev.SessionID == "" {
		log.WarnContext(ctx, "identity event without our user or session", "session", ev.SessionID)
		_, err := a.repo.RecordEvent(ctx, ev.ID)
		return err
	}
	applied, replay, err := a.repo.RecordIdentityOutcome(ctx, ev.ID,
		domain.IdentityOutcome{UserID: ev.UserID, SessionID: ev.SessionID, Status: status, At: ev.Created})
	if err != nil {
		return err
	}
	log.InfoContext(ctx, "identity event handled", "user", ev.UserID, "status", status, "applied", applied, "replay", replay)
	return nil
}

// IdentityOutcome is the caller's own latest verification outcome (nil:
// none recorded).
func (a *App) IdentityOutcome(ctx context.Context, c domain.Caller) (*domain.IdentityOutcome, error) {
	if c.UID == "" {
		return nil, domain.ErrNotSignedIn
	}
	return a.repo.IdentityOutcome(ctx, c.UID)
}

// PendingCheckout returns an unused local test checkout for its page, or
// domain.ErrCheckoutNotFound.
func (a *App) PendingCheckout(ctx context.Context, token string) (PendingCheckout, error) {
	return a.repo.PendingCheckout(ctx, token)
}

// CompletePendingCheckout marks a local test checkout used, once
// (domain.ErrCheckoutNotFound the second time), before its page sends the
// checkout's webhook event.
func (a *App) CompletePendingCheckout(ctx context.Context, token string) error {
	return a.repo.CompletePendingCheckout(ctx, token)
}

// checkOwnCategory lets a caller buy or manage a plan only for their own
// business. A plan belongs to a user, so a checkout or portal opened while
// viewing as someone (an uplifter's current category differs from their
// original one) would charge and change the uplifter's own account while the
// owner stays where they were: that is refused with ErrOnBehalf.
func (a *App) checkOwnCategory(ctx context.Context, c domain.Caller, categoryID string) error {
	if strings.TrimSpace(categoryID) == "" {
		return &domain.ValidationError{Field: "categoryId", Message: "categoryId is required."}
	}
	cat, orig, err := a.profiles.GetProfile(ctx, c.UID)
	if err != nil {
		return err
	}
	own := orig
	if own == "" {
		own = cat
	}
	switch categoryID {
	case own:
		return nil
	case cat:
		return domain.ErrOnBehalf
	}
	if c.Uplifter {
		return domain.ErrOnBehalf
	}
	return domain.ErrPermissionDenied
}

func (a *App) customer(ctx context.Context, userID, email string) (string, error) {
	id, err := a.repo.CustomerID(ctx, userID)
	if err != nil || id != "" {
		return id, err
	}
	id, err = a.payments.CreateCustomer(ctx, userID, email)
	if err != nil {
		return "", err
	}
	return a.repo.SaveCustomer(ctx, userID, id)
}

// newToken is 24 random bytes: unguessable, so a test checkout link cannot
// be found by trying.
func newToken() (string, error) {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// ErrNoUser is a UserDeleted without a user id: it can never apply.
var ErrNoUser = errors.New("event names no user")

// EventStore is the storage an event from another service changes: it
// removes a user's billing data inside the consumer's
// transaction (which also records the message as handled).
type EventStore interface {
	// DeleteUserData deletes the rows keyed by userID: its Stripe customer
	// link, plan and unfinished test checkouts.
	DeleteUserData(ctx context.Context, userID string) error
}

// ForgetUser deletes a deleted user's billing data, so nothing of theirs
// is left here. The Stripe customer itself stays in Stripe, where invoices
// must be kept.
func (a *App) ForgetUser(ctx context.Context, s EventStore, userID string) error {
	if userID == "" {
		return ErrNoUser
	}
	return s.DeleteUserData(ctx, userID)
}
