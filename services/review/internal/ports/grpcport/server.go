// Package grpcport is the review service's gRPC server: it converts
// between the API's messages and the app, and says why a website could not
// be read as part of the answer, since that is an outcome of reading
// someone's website, not a failure of the call.
package grpcport

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/timestamppb"

	reviewv1 "uplift.dev/proto/gen/uplift/review/v1"

	"uplift.dev/review/internal/app"
	"uplift.dev/review/internal/domain"

	review "uplift.dev/review/domain"
)

// PublicMethods are every call: only services reach the review service
// (no HTTP route, and the network policy admits categories alone), and a
// public score or a scheduled report is asked for with no signed-in
// caller to forward.
var PublicMethods = []string{
	reviewv1.ReviewService_CheckSite_FullMethodName,
	reviewv1.ReviewService_ScoreSite_FullMethodName,
	reviewv1.ReviewService_ReadCatalogue_FullMethodName,
	reviewv1.ReviewService_FetchImage_FullMethodName,
	reviewv1.ReviewService_NextOccasion_FullMethodName,
}

// Server implements reviewv1.ReviewServiceServer.
type Server struct {
	reviewv1.UnimplementedReviewServiceServer
	App *app.App
	Log *slog.Logger
}

// CheckSite implements reviewv1.ReviewServiceServer.
func (s *Server) CheckSite(ctx context.Context, req *reviewv1.CheckSiteRequest) (*reviewv1.CheckSiteResponse, error) {
	u, err := toUnreadable(s.App.CheckSite(ctx, req.GetSiteUrl()))
	if err != nil {
		return nil, s.failed(ctx, "check", err)
	}
	return &reviewv1.CheckSiteResponse{Unreadable: u}, nil
}

// ScoreSite implements reviewv1.ReviewServiceServer.
func (s *Server) ScoreSite(ctx context.Context, req *reviewv1.ScoreSiteRequest) (*reviewv1.ScoreSiteResponse, error) {
	r, err := s.App.ScoreSite(ctx, req.GetSiteUrl())
	u, err := toUnreadable(err)
	if err != nil {
		return nil, s.failed(ctx, "score", err)
	}
	if u != nil {
		return &reviewv1.ScoreSiteResponse{Unreadable: u}, nil
	}
	data, err := json.Marshal(r)
	if err != nil {
		return nil, s.failed(ctx, "score", err)
	}
	return &reviewv1.ScoreSiteResponse{ReviewJson: data}, nil
}

// ReadCatalogue implements reviewv1.ReviewServiceServer.
func (s *Server) ReadCatalogue(ctx context.Context, req *reviewv1.ReadCatalogueRequest) (*reviewv1.ReadCatalogueResponse, error) {
	products, err := s.App.ReadCatalogue(ctx, req.GetSiteUrl())
	u, err := toUnreadable(err)
	if err != nil {
		return nil, s.failed(ctx, "catalogue", err)
	}
	out := &reviewv1.ReadCatalogueResponse{Unreadable: u}
	for _, p := range products {
		out.Products = append(out.Products, &reviewv1.Product{Id: p.ID, Name: p.Name, Url: p.URL, Price: p.Price,
			Currency: p.Currency, ImageUrls: p.ImageURLs})
	}
	return out, nil
}

// FetchImage implements reviewv1.ReviewServiceServer.
func (s *Server) FetchImage(ctx context.Context, req *reviewv1.FetchImageRequest) (*reviewv1.FetchImageResponse, error) {
	if req.GetLimitBytes() <= 0 {
		return nil, status.Error(codes.InvalidArgument, "limit_bytes must be positive")
	}
	data, err := s.App.FetchImage(ctx, req.GetImageUrl(), req.GetLimitBytes())
	switch {
	case errors.Is(err, domain.ErrImageTooLarge):
		return &reviewv1.FetchImageResponse{TooLarge: true}, nil
	case err != nil && ctx.Err() != nil:
		return nil, s.failed(ctx, "image", err)
	case err != nil:
		return &reviewv1.FetchImageResponse{Failure: err.Error()}, nil
	}
	return &reviewv1.FetchImageResponse{Data: data}, nil
}

// NextOccasion implements reviewv1.ReviewServiceServer.
func (s *Server) NextOccasion(_ context.Context, req *reviewv1.NextOccasionRequest) (*reviewv1.NextOccasionResponse, error) {
	loc, err := time.LoadLocation(req.GetTimeZone())
	if err != nil {
		return nil, status.Errorf(codes.InvalidArgument, "time_zone %q: %v", req.GetTimeZone(), err)
	}
	// Unset is the service's now; either way its day in the store's zone.
	after := time.Time{}.In(loc)
	if req.GetAfterTime() != nil {
		after = req.GetAfterTime().AsTime().In(loc)
	}
	name, date, ok := s.App.NextOccasion(after, req.GetSiteUrl())
	if !ok {
		return &reviewv1.NextOccasionResponse{}, nil
	}
	return &reviewv1.NextOccasionResponse{Name: name, OccurTime: timestamppb.New(date)}, nil
}

// toUnreadable turns an unreadable site into the answer's Unreadable and
// leaves any other error (the caller's deadline, a shutdown) an error.
func toUnreadable(err error) (*reviewv1.Unreadable, error) {
	var ue *domain.UnreadableError
	if !errors.As(err, &ue) {
		return nil, err
	}
	return &reviewv1.Unreadable{Problem: toProtoProblem(ue.Problem), Reason: ue.Reason, Detail: ue.Err.Error()}, nil
}

func toProtoProblem(p review.SiteProblem) reviewv1.SiteProblem {
	switch p {
	case review.SiteNotFound:
		return reviewv1.SiteProblem_SITE_PROBLEM_NOT_FOUND
	case review.SitePrivate:
		return reviewv1.SiteProblem_SITE_PROBLEM_PRIVATE
	}
	return reviewv1.SiteProblem_SITE_PROBLEM_UNREADABLE
}

// failed is the error for a read that neither finished nor found the site
// unreadable: the caller's own deadline or cancellation as such, anything
// else logged and Unavailable (a retry may succeed).
func (s *Server) failed(ctx context.Context, what string, err error) error {
	if ctx.Err() != nil {
		return status.FromContextError(ctx.Err()).Err()
	}
	s.Log.WarnContext(ctx, what+" failed", "err", err)
	return status.Error(codes.Unavailable, what+": "+err.Error())
}
