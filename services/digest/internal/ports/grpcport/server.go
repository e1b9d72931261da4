// Package grpcport is the digest service's gRPC API: the unsubscribe calls
// reached from links in emails. Transactional mail needs none: it is driven
// by events (see eventport).
package grpcport

import (
	"context"
	"errors"
	"log/slog"
	"net/url"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	digestv1 "uplift.dev/proto/gen/uplift/digest/v1"

	"uplift.dev/digest/internal/domain"
	"uplift.dev/platform/grpcerr"
)

// PublicMethods may be called without signing in: the unsubscribe links
// in emails, which carry a signed, expiring token instead.
var PublicMethods = []string{
	digestv1.DigestService_Unsubscribe_FullMethodName,
	digestv1.DigestService_Resubscribe_FullMethodName,
}

// Subscriptions is the use case the unsubscribe calls drive.
type Subscriptions interface {
	ChangeSubscription(ctx context.Context, token string, off bool) (domain.Unsubscription, error)
}

// Server implements digestv1.DigestServiceServer.
type Server struct {
	digestv1.UnimplementedDigestServiceServer
	App Subscriptions
	// PublicAPIURL is the gateway's public address, for the resubscribe link.
	PublicAPIURL string
	Log          *slog.Logger
}

// Unsubscribe turns the token's kind of email off.
func (s *Server) Unsubscribe(ctx context.Context, req *digestv1.UnsubscribeRequest) (*digestv1.UnsubscribeResponse, error) {
	u, err := s.App.ChangeSubscription(ctx, req.GetToken(), true)
	if err != nil {
		return nil, s.toStatus(ctx, err)
	}
	return &digestv1.UnsubscribeResponse{
		Kind:           toProtoKind(u.Kind),
		Message:        "You will no longer receive the " + u.Kind.Label() + ".",
		ResubscribeUrl: s.PublicAPIURL + "/email/resubscribe?token=" + url.QueryEscape(req.GetToken()),
	}, nil
}

// Resubscribe turns the token's kind of email back on.
func (s *Server) Resubscribe(ctx context.Context, req *digestv1.ResubscribeRequest) (*digestv1.ResubscribeResponse, error) {
	u, err := s.App.ChangeSubscription(ctx, req.GetToken(), false)
	if err != nil {
		return nil, s.toStatus(ctx, err)
	}
	return &digestv1.ResubscribeResponse{
		Kind:    toProtoKind(u.Kind),
		Message: "You will receive the " + u.Kind.Label() + " again.",
	}, nil
}

func toProtoKind(k domain.Kind) digestv1.DigestKind {
	switch k {
	case domain.KindAIDigest:
		return digestv1.DigestKind_DIGEST_KIND_AI_DIGEST
	case domain.KindWeeklyReview:
		return digestv1.DigestKind_DIGEST_KIND_WEEKLY_REVIEW
	case domain.KindDailyReport:
		return digestv1.DigestKind_DIGEST_KIND_DAILY_REPORT
	}
	return digestv1.DigestKind_DIGEST_KIND_UNSPECIFIED
}

// toStatus maps the link's faults to 400 with a message for people.
func (s *Server) toStatus(ctx context.Context, err error) error {
	switch {
	case errors.Is(err, domain.ErrTokenExpired):
		return status.Error(codes.FailedPrecondition,
			"This unsubscribe link has expired. Use the link in a newer email, or change your email settings in Uplift.")
	case errors.Is(err, domain.ErrTokenInvalid):
		return status.Error(codes.InvalidArgument, "This unsubscribe link is not valid.")
	}
	return grpcerr.Internal(ctx, s.Log, err)
}
