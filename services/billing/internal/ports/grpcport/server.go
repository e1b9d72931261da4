// Package grpcport is the billing service's gRPC API. Tiers, Stripe checkout and portal, and webhooks are built in a later issue.
package grpcport

import (
	billingv1 "uplift.dev/proto/gen/uplift/billing/v1"
)

// PublicMethods may be called without signing in.
var PublicMethods = []string{billingv1.BillingService_ListSubscriptionTiers_FullMethodName}

// Server implements billingv1.BillingServiceServer. Every call answers
// Unimplemented (HTTP 501) until its behaviour is built; none fakes success.
type Server struct {
	billingv1.UnimplementedBillingServiceServer
}
