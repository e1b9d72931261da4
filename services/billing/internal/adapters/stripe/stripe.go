// Package stripe is the billing service's Stripe adapter: customers,
// Checkout and portal sessions through stripe-go, and verification of
// webhook events with the endpoint's signing secret.
package stripe

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	stripego "github.com/stripe/stripe-go/v85"
	"github.com/stripe/stripe-go/v85/webhook"

	"uplift.dev/billing/internal/app"
	"uplift.dev/billing/internal/domain"
)

// Client implements app.Payments.
type Client struct {
	sc            *stripego.Client
	webhookSecret string
}

var _ app.Payments = (*Client)(nil)

// New returns a client for key. apiBase, when set, replaces Stripe's API
// address (stripe-mock locally and in tests).
func New(key, apiBase, webhookSecret string) (*Client, error) {
	if !strings.HasPrefix(key, "sk_") {
		return nil, errors.New("STRIPE_SECRET_KEY must be a Stripe secret key starting with sk_")
	}
	cfg := &stripego.BackendConfig{}
	if apiBase != "" {
		cfg.URL = stripego.String(strings.TrimRight(apiBase, "/"))
		retries := int64(0)
		cfg.MaxNetworkRetries = &retries
	}
	b := stripego.NewBackendsWithConfig(cfg)
	return &Client{sc: stripego.NewClient(key, stripego.WithBackends(b)), webhookSecret: webhookSecret}, nil
}

// CreateCustomer makes the user's Stripe customer, tagged with the user id.
func (c *Client) CreateCustomer(ctx context.Context, userID, email string) (string, error) {
	p := &stripego.CustomerCreateParams{Metadata: map[string]string{"userId": userID}}
	if email != "" {
		p.Email = stripego.String(email)
	}
	cu, err := c.sc.V1Customers.Create(ctx, p)
	if err != nil {
		return "", fmt.Errorf("stripe: create customer: %w", err)
	}
	return cu.ID, nil
}

// CreateCheckout starts a subscription Checkout session. The user id is the
// client_reference_id and, with category, tier and referral, metadata of
// both the session and the subscription, so every later event names the user.
func (c *Client) CreateCheckout(ctx context.Context, p app.CheckoutParams) (string, error) {
	meta := map[string]string{"userId": p.UserID, "categoryId": p.CategoryID, "tier": p.Tier, "referralId": p.ReferralID}
	s, err := c.sc.V1CheckoutSessions.Create(ctx, &stripego.CheckoutSessionCreateParams{
		Mode:              stripego.String(string(stripego.CheckoutSessionModeSubscription)),
		Customer:          stripego.String(p.CustomerID),
		ClientReferenceID: stripego.String(p.UserID),
		SuccessURL:        stripego.String(p.SuccessURL),
		CancelURL:         stripego.String(p.CancelURL),
		LineItems: []*stripego.CheckoutSessionCreateLineItemParams{
			{Price: stripego.String(p.PriceID), Quantity: stripego.Int64(1)},
		},
		Metadata:         meta,
		SubscriptionData: &stripego.CheckoutSessionCreateSubscriptionDataParams{Metadata: meta},
	})
	if err != nil {
		return "", fmt.Errorf("stripe: create checkout session: %w", err)
	}
	return s.URL, nil
}

// CreatePortal opens a customer portal session.
func (c *Client) CreatePortal(ctx context.Context, customerID, returnURL string) (string, error) {
	s, err := c.sc.V1BillingPortalSessions.Create(ctx, &stripego.BillingPortalSessionCreateParams{
		Customer: stripego.String(customerID), ReturnURL: stripego.String(returnURL),
	})
	if err != nil {
		return "", fmt.Errorf("stripe: create portal session: %w", err)
	}
	return s.URL, nil
}

// CreateIdentityVerification starts a Stripe Identity session: an identity
// document with a matching selfie, tagged with the user id (the client
// reference and metadata) so the dashboard and later events name the user.
func (c *Client) CreateIdentityVerification(ctx context.Context, userID, email, returnURL string) (domain.IdentityVerification, error) {
	p := &stripego.IdentityVerificationSessionCreateParams{
		Type:              stripego.String(string(stripego.IdentityVerificationSessionTypeDocument)),
		ClientReferenceID: stripego.String(userID),
		Metadata:          map[string]string{"userId": userID},
		Options: &stripego.IdentityVerificationSessionCreateOptionsParams{
			Document: &stripego.IdentityVerificationSessionCreateOptionsDocumentParams{RequireMatchingSelfie: stripego.Bool(true)},
		},
	}
	if email != "" {
		p.ProvidedDetails = &stripego.IdentityVerificationSessionCreateProvidedDetailsParams{Email: stripego.String(email)}
	}
	if returnURL != "" {
		p.ReturnURL = stripego.String(returnURL)
	}
	vs, err := c.sc.V1IdentityVerificationSessions.Create(ctx, p)
	if err != nil {
		return domain.IdentityVerification{}, fmt.Errorf("stripe: create identity verification session: %w", err)
	}
	return domain.IdentityVerification{ID: vs.ID, ClientSecret: vs.ClientSecret, URL: vs.URL}, nil
}

// object is the part of a checkout session, subscription, invoice or
// identity verification session that billing reads. Parsed by hand so an endpoint on another API version
// still works: these fields have been stable for years.
type object struct {
	ID                string `json:"id"`
	Object            string `json:"object"`
	ClientReferenceID string `json:"client_reference_id"`
	// Subscription is a checkout session's subscription (an id or an
	// expanded object).
	Subscription  json.RawMessage   `json:"subscription"`
	Customer      json.RawMessage   `json:"customer"`
	Metadata      map[string]string `json:"metadata"`
	Status        string            `json:"status"`
	PaymentStatus string            `json:"payment_status"`
	Items         struct {
		Data []struct {
			Price struct {
				ID string `json:"id"`
			} `json:"price"`
		} `json:"data"`
	} `json:"items"`
	// Invoices carry the subscription's metadata in parent details.
	Parent struct {
		SubscriptionDetails struct {
			Metadata map[string]string `json:"metadata"`
		} `json:"subscription_details"`
	} `json:"parent"`
}

// ParseEvent verifies the Stripe-Signature header (within stripe-go's
// default five-minute tolerance) and extracts a domain.PaymentEvent. API
// version mismatches are tolerated because object is parsed by hand.
func (c *Client) ParseEvent(payload []byte, signature string) (domain.PaymentEvent, error) {
	if c.webhookSecret == "" || signature == "" {
		return domain.PaymentEvent{}, domain.ErrBadSignature
	}
	ev, err := webhook.ConstructEventWithOptions(payload, signature, c.webhookSecret,
		webhook.ConstructEventOptions{IgnoreAPIVersionMismatch: true})
	if err != nil {
		if errors.Is(err, webhook.ErrNotSigned) || errors.Is(err, webhook.ErrInvalidHeader) ||
			errors.Is(err, webhook.ErrNoValidSignature) || errors.Is(err, webhook.ErrTooOld) {
			return domain.PaymentEvent{}, domain.ErrBadSignature
		}
		return domain.PaymentEvent{}, &domain.ValidationError{Field: "payload", Message: "The webhook body is not a Stripe event."}
	}
	var o object
	if ev.Data != nil && len(ev.Data.Raw) > 0 {
		if err := json.Unmarshal(ev.Data.Raw, &o); err != nil {
			return domain.PaymentEvent{}, &domain.ValidationError{Field: "payload", Message: "The webhook event's object is malformed."}
		}
	}
	meta := o.Metadata
	if len(meta) == 0 {
		meta = o.Parent.SubscriptionDetails.Metadata
	}
	out := domain.PaymentEvent{
		ID: ev.ID, Type: string(ev.Type), Created: time.Unix(ev.Created, 0).UTC(),
		UserID: o.ClientReferenceID, CustomerID: idOf(o.Customer),
		MetadataTier: meta["tier"], Status: o.Status,
	}
	if out.UserID == "" {
		out.UserID = meta["userId"]
	}
	if len(o.Items.Data) > 0 {
		out.PriceID = o.Items.Data[0].Price.ID
	}
	switch {
	case out.Type == domain.EventCheckoutCompleted:
		out.Status = o.PaymentStatus
		out.SubscriptionID = idOf(o.Subscription)
	case o.Object == "subscription":
		out.SubscriptionID = o.ID
	case o.Object == "identity.verification_session":
		out.SessionID = o.ID
	}
	return out, nil
}

// Subscription reads a subscription as Stripe holds it now.
func (c *Client) Subscription(ctx context.Context, id string) (domain.Subscription, error) {
	sub, err := c.sc.V1Subscriptions.Retrieve(ctx, id, nil)
	if err != nil {
		var se *stripego.Error
		if errors.As(err, &se) && se.HTTPStatusCode == 404 {
			return domain.Subscription{}, domain.ErrSubscriptionNotFound
		}
		return domain.Subscription{}, fmt.Errorf("stripe: retrieve subscription: %w", err)
	}
	out := domain.Subscription{ID: sub.ID, Status: string(sub.Status),
		UserID: sub.Metadata["userId"], Tier: sub.Metadata["tier"]}
	if sub.Customer != nil {
		out.CustomerID = sub.Customer.ID
	}
	if sub.Items != nil && len(sub.Items.Data) > 0 && sub.Items.Data[0].Price != nil {
		out.PriceID = sub.Items.Data[0].Price.ID
	}
	return out, nil
}

// idOf reads a reference that is an id or an expanded object.
func idOf(raw json.RawMessage) string {
	var id string
	if json.Unmarshal(raw, &id) == nil {
		return id
	}
	var obj struct {
		ID string `json:"id"`
	}
	_ = json.Unmarshal(raw, &obj)
	return obj.ID
}
