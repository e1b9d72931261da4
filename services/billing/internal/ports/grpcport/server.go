// Package grpcport is the billing service's gRPC API: it translates requests
// to use cases and domain errors to gRPC statuses, in one place.
package grpcport

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	billingv1 "uplift.dev/proto/gen/uplift/billing/v1"

	"uplift.dev/billing/internal/app"
	"uplift.dev/billing/internal/domain"
	"uplift.dev/platform/auth"
	"uplift.dev/platform/grpcerr"
)

// PublicMethods may be called without signing in: the tiers are public, and
// a webhook carries Stripe's signature instead of a user's token.
var PublicMethods = []string{
	billingv1.BillingService_ListSubscriptionTiers_FullMethodName,
	billingv1.BillingService_HandleStripeWebhook_FullMethodName,
}

// Server implements billingv1.BillingServiceServer.
type Server struct {
	billingv1.UnimplementedBillingServiceServer
	App *app.App
	Log *slog.Logger
}

// ListSubscriptionTiers returns the configured tiers.
func (s *Server) ListSubscriptionTiers(context.Context, *billingv1.ListSubscriptionTiersRequest) (*billingv1.ListSubscriptionTiersResponse, error) {
	out := &billingv1.ListSubscriptionTiersResponse{Tiers: map[string]*billingv1.SubscriptionTier{}}
	for id, t := range s.App.Tiers() {
		out.Tiers[id] = &billingv1.SubscriptionTier{
			Name: t.Name, SortOrder: t.SortOrder, Hidden: t.Hidden,
			Prices:   &billingv1.Prices{Monthly: &billingv1.Price{Amount: t.Prices.Monthly.Amount, StripeId: t.Prices.Monthly.StripeID}},
			Included: t.Included, ComingSoon: t.ComingSoon,
		}
	}
	return out, nil
}

// CreateStripeCheckout starts a checkout for the caller.
func (s *Server) CreateStripeCheckout(ctx context.Context, r *billingv1.CreateStripeCheckoutRequest) (*billingv1.CreateStripeCheckoutResponse, error) {
	u, err := s.App.CreateCheckout(ctx, caller(ctx), app.CheckoutInput{
		CategoryID: r.GetCategoryId(), PriceID: r.GetPriceId(), CustomerEmail: r.GetCustomerEmail(),
		SuccessURL: r.GetSuccessUrl(), CancelURL: r.GetCancelUrl(), ReferralID: r.GetReferralId(),
		FreeTrial: r.GetFreeTrial(), ForMetricsProduct: r.GetForMetricsProduct(),
	})
	if err != nil {
		return nil, s.toStatus(ctx, err)
	}
	return &billingv1.CreateStripeCheckoutResponse{Url: u}, nil
}

// CreateStripeCustomerPortal opens the portal for a paying caller.
func (s *Server) CreateStripeCustomerPortal(ctx context.Context, r *billingv1.CreateStripeCustomerPortalRequest) (*billingv1.CreateStripeCustomerPortalResponse, error) {
	u, err := s.App.CreatePortal(ctx, caller(ctx), r.GetCategoryId(), r.GetRedirectUrl())
	if err != nil {
		return nil, s.toStatus(ctx, err)
	}
	return &billingv1.CreateStripeCustomerPortalResponse{Url: u}, nil
}

// SetBilling sets a tier by hand (admin).
func (s *Server) SetBilling(ctx context.Context, r *billingv1.SetBillingRequest) (*billingv1.SetBillingResponse, error) {
	b, err := s.App.SetBilling(ctx, caller(ctx), r.GetUserId(), r.GetTier())
	if err != nil {
		return nil, s.toStatus(ctx, err)
	}
	return &billingv1.SetBillingResponse{Tier: b.Tier, IsManuallySet: b.IsManuallySet}, nil
}

// CreateIdentityVerification starts a Stripe Identity verification of the caller.
func (s *Server) CreateIdentityVerification(ctx context.Context, r *billingv1.CreateIdentityVerificationRequest) (*billingv1.CreateIdentityVerificationResponse, error) {
	v, err := s.App.StartIdentityVerification(ctx, caller(ctx), r.GetReturnUrl())
	if err != nil {
		return nil, s.toStatus(ctx, err)
	}
	return &billingv1.CreateIdentityVerificationResponse{Id: v.ID, ClientSecret: v.ClientSecret, Url: v.URL}, nil
}

// GetIdentityVerification is the caller's latest recorded verification outcome.
func (s *Server) GetIdentityVerification(ctx context.Context, _ *billingv1.GetIdentityVerificationRequest) (*billingv1.GetIdentityVerificationResponse, error) {
	o, err := s.App.IdentityOutcome(ctx, caller(ctx))
	if err != nil {
		return nil, s.toStatus(ctx, err)
	}
	if o == nil {
		return &billingv1.GetIdentityVerificationResponse{}, nil
	}
	return &billingv1.GetIdentityVerificationResponse{Status: o.Status, UpdateTime: o.At.Format(time.RFC3339)}, nil
}

// HandleStripeWebhook applies a signed Stripe event.
func (s *Server) HandleStripeWebhook(ctx context.Context, r *billingv1.HandleStripeWebhookRequest) (*billingv1.HandleStripeWebhookResponse, error) {
	if err := s.App.HandleWebhook(ctx, r.GetPayload(), r.GetSignature()); err != nil {
		return nil, s.toStatus(ctx, err)
	}
	return &billingv1.HandleStripeWebhookResponse{}, nil
}

func caller(ctx context.Context) domain.Caller {
	c, _ := auth.FromContext(ctx)
	return domain.Caller{UID: c.UID, Email: c.Email, Admin: c.Admin, Uplifter: c.Uplifter}
}

// toStatus is the one mapping from domain errors to gRPC statuses.
func (s *Server) toStatus(ctx context.Context, err error) error {
	var ve *domain.ValidationError
	switch {
	case errors.As(err, &ve):
		return grpcerr.InvalidField(ve.Field, ve.Message)
	case errors.Is(err, domain.ErrBadSignature):
		return grpcerr.InvalidField("signature", "The Stripe-Signature header is missing or does not match.")
	case errors.Is(err, domain.ErrNotSignedIn):
		return status.Error(codes.Unauthenticated, "Please sign in to continue.")
	case errors.Is(err, domain.ErrPermissionDenied):
		return status.Error(codes.PermissionDenied, "You do not have access to this account's billing.")
	case errors.Is(err, domain.ErrOnBehalf):
		return status.Error(codes.FailedPrecondition, "Only the store's owner can buy or change its plan. Exit on-behalf mode to manage your own.")
	case errors.Is(err, domain.ErrIdentityUnavailable):
		// Not a 5xx: retrying will not help while Stripe (stripe-mock) makes such sessions.
		return status.Error(codes.FailedPrecondition, "Identity verification is not available right now. Please try again later.")
	case errors.Is(err, domain.ErrNotPaid):
		return status.Error(codes.FailedPrecondition, "There is no paid subscription to manage. Upgrade first.")
	case errors.Is(err, domain.ErrCheckoutNotFound):
		return status.Error(codes.NotFound, "This test checkout does not exist or was already used.")
	case errors.Is(err, domain.ErrUserNotFound):
		return status.Error(codes.NotFound, "No user exists with that userId.")
	}
	return grpcerr.Internal(ctx, s.Log, err)
}
