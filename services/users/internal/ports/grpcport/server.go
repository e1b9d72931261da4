// Package grpcport is the users service's gRPC API: it translates requests
// to use cases and domain errors to gRPC statuses. Calls whose behaviour is
// not built yet answer Unimplemented through the embedded base.
package grpcport

import (
	"context"
	"errors"
	"log/slog"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/timestamppb"

	usersv1 "uplift.dev/proto/gen/uplift/users/v1"

	"uplift.dev/platform/auth"
	"uplift.dev/platform/grpcerr"
	"uplift.dev/users/internal/app"
	"uplift.dev/users/internal/domain"
)

// PublicMethods may be called without signing in.
var PublicMethods = []string{
	usersv1.UsersService_CreateUser_FullMethodName,
	usersv1.UsersService_ResetPassword_FullMethodName,
}

// Server implements usersv1.UsersServiceServer.
type Server struct {
	usersv1.UnimplementedUsersServiceServer
	App *app.App
	Log *slog.Logger
}

// CreateUser is sign-up.
func (s *Server) CreateUser(ctx context.Context, req *usersv1.CreateUserRequest) (*usersv1.CreateUserResponse, error) {
	res, err := s.App.CreateUser(ctx, app.CreateUserInput{
		Email: req.GetEmail(), Password: req.GetPassword(), Name: req.GetName(),
		Source: req.GetMetricsSignUpSource(), SuppressWelcomeEmail: req.GetSuppressWelcomeEmail(),
	})
	if err != nil {
		return nil, s.toStatus(ctx, err)
	}
	return &usersv1.CreateUserResponse{Id: res.ID, SignInToken: res.SignInToken}, nil
}

// GetUser returns a user the caller may read.
func (s *Server) GetUser(ctx context.Context, req *usersv1.GetUserRequest) (*usersv1.GetUserResponse, error) {
	u, err := s.App.GetUser(ctx, caller(ctx), req.GetUserId())
	if err != nil {
		return nil, s.toStatus(ctx, err)
	}
	return &usersv1.GetUserResponse{User: toProtoUser(u)}, nil
}

// GetProfile returns the caller's profile.
func (s *Server) GetProfile(ctx context.Context, req *usersv1.GetProfileRequest) (*usersv1.GetProfileResponse, error) {
	p, err := s.App.GetProfile(ctx, caller(ctx), req.GetUserId())
	if err != nil {
		return nil, s.toStatus(ctx, err)
	}
	return &usersv1.GetProfileResponse{CategoryId: p.CategoryID, OriginalCategoryId: p.OriginalCategoryID}, nil
}

// CreateOnboarding gives the caller a profile.
func (s *Server) CreateOnboarding(ctx context.Context, req *usersv1.CreateOnboardingRequest) (*usersv1.CreateOnboardingResponse, error) {
	p, err := s.App.CreateOnboarding(ctx, caller(ctx), req.GetUserId(), req.GetCategoryId())
	if err != nil {
		return nil, s.toStatus(ctx, err)
	}
	return &usersv1.CreateOnboardingResponse{CategoryId: p.CategoryID, OriginalCategoryId: p.OriginalCategoryID}, nil
}

func caller(ctx context.Context) domain.Caller {
	c, _ := auth.FromContext(ctx)
	return domain.Caller{UID: c.UID, Admin: c.Admin, Uplifter: c.Uplifter}
}

func toProtoUser(u domain.User) *usersv1.User {
	p := &usersv1.User{
		Id: u.ID, DisplayName: u.DisplayName, Email: u.Email, CategoryId: u.CategoryID,
		OriginalCategoryId: u.OriginalCategoryID, IsUplifter: u.IsUplifter,
		CreateTime: timestamppb.New(u.CreatedAt),
	}
	if u.Billing != nil {
		p.BillingInfo = &usersv1.BillingInfo{Tier: u.Billing.Tier, IsManuallySet: u.Billing.IsManuallySet}
	}
	return p
}

// toStatus is the one mapping from domain errors to gRPC statuses.
func (s *Server) toStatus(ctx context.Context, err error) error {
	var ve *domain.ValidationError
	switch {
	case errors.As(err, &ve):
		return grpcerr.InvalidField(ve.Field, ve.Message)
	case errors.Is(err, domain.ErrEmailTaken):
		return status.Error(codes.AlreadyExists, "An account with this email already exists.")
	case errors.Is(err, domain.ErrNotFound):
		return status.Error(codes.NotFound, "User not found.")
	case errors.Is(err, domain.ErrPermissionDenied):
		return status.Error(codes.PermissionDenied, "You do not have access to this user.")
	}
	return grpcerr.Internal(ctx, s.Log, err)
}
