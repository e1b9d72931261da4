// Package grpcport is the users service's gRPC API: it translates requests
// to use cases and domain errors to gRPC statuses. Who may call what is
// decided in the app (see the README's table); this layer only passes on
// the verified caller.
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
	"uplift.dev/platform/clientaddr"
	"uplift.dev/platform/grpcerr"
	"uplift.dev/users/internal/app"
	"uplift.dev/users/internal/domain"
)

// PublicMethods may be called without signing in.
var PublicMethods = []string{
	usersv1.UsersService_CreateUser_FullMethodName,
	usersv1.UsersService_ResetPassword_FullMethodName,
	// Its caller has lost their second factor: the code stands in for it.
	usersv1.UsersService_UseRecoveryCode_FullMethodName,
}

// Backends are the other teams' programs that call this service directly,
// as themselves (a client certificate naming spiffe://uplift/backend/NAME),
// and what each may call; every other method is PermissionDenied to them.
// They read and change nothing a person has not: a backend is granted
// reads only (domain.Caller.CanRead).
var Backends = auth.Grants{
	// The support desk looks up the account a customer writes about.
	"support": {Methods: []string{
		usersv1.UsersService_GetUser_FullMethodName,
		usersv1.UsersService_GetProfile_FullMethodName,
	}, PerMinute: 600},
}

// RecoveryCodeRejectedMessage answers every refused recovery code: it names
// no reason that would tell whether the email has an account.
const RecoveryCodeRejectedMessage = "That recovery code does not work for this email: it may be mistyped or already used. After 5 wrong codes, recovery is paused for an hour."

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

// FinishGoogleAuth stores the Google-signed-in caller as a user.
func (s *Server) FinishGoogleAuth(ctx context.Context, req *usersv1.FinishGoogleAuthRequest) (*usersv1.FinishGoogleAuthResponse, error) {
	id, err := s.App.FinishGoogleAuth(ctx, caller(ctx), app.FinishGoogleAuthInput{
		Name: req.GetName(), IDFromGoogleAuth: req.GetIdFromGoogleAuth(),
		SuppressWelcomeEmail: req.GetSuppressWelcomeEmail(),
	})
	if err != nil {
		return nil, s.toStatus(ctx, err)
	}
	return &usersv1.FinishGoogleAuthResponse{Id: id}, nil
}

// ResetPassword asks for a reset email; it succeeds for unknown emails too.
func (s *Server) ResetPassword(ctx context.Context, req *usersv1.ResetPasswordRequest) (*usersv1.ResetPasswordResponse, error) {
	if err := s.App.ResetPassword(ctx, req.GetEmail()); err != nil {
		return nil, s.toStatus(ctx, err)
	}
	return &usersv1.ResetPasswordResponse{}, nil
}

// CreateRecoveryCodes makes the caller's new recovery codes.
func (s *Server) CreateRecoveryCodes(ctx context.Context, _ *usersv1.CreateRecoveryCodesRequest) (*usersv1.CreateRecoveryCodesResponse, error) {
	codes, err := s.App.CreateRecoveryCodes(ctx, caller(ctx))
	if err != nil {
		return nil, s.toStatus(ctx, err)
	}
	return &usersv1.CreateRecoveryCodesResponse{Codes: codes}, nil
}

// UseRecoveryCode turns two-step sign-in off with a recovery code.
func (s *Server) UseRecoveryCode(ctx context.Context, req *usersv1.UseRecoveryCodeRequest) (*usersv1.UseRecoveryCodeResponse, error) {
	if err := s.App.UseRecoveryCode(ctx, req.GetEmail(), req.GetCode(), clientaddr.FromIncoming(ctx)); err != nil {
		return nil, s.toStatus(ctx, err)
	}
	return &usersv1.UseRecoveryCodeResponse{}, nil
}

// UpdateEmail changes a user's email.
func (s *Server) UpdateEmail(ctx context.Context, req *usersv1.UpdateEmailRequest) (*usersv1.UpdateEmailResponse, error) {
	token, err := s.App.UpdateEmail(ctx, caller(ctx), req.GetUserId(), req.GetEmail())
	if err != nil {
		return nil, s.toStatus(ctx, err)
	}
	return &usersv1.UpdateEmailResponse{SignInToken: token}, nil
}

// Unsubscribe opts the caller out of email.
func (s *Server) Unsubscribe(ctx context.Context, req *usersv1.UnsubscribeRequest) (*usersv1.UnsubscribeResponse, error) {
	if err := s.App.Unsubscribe(ctx, caller(ctx), req.GetUserId()); err != nil {
		return nil, s.toStatus(ctx, err)
	}
	return &usersv1.UnsubscribeResponse{}, nil
}

// GetMetricsCategory returns the category the user views.
func (s *Server) GetMetricsCategory(ctx context.Context, req *usersv1.GetMetricsCategoryRequest) (*usersv1.GetMetricsCategoryResponse, error) {
	p, err := s.App.GetMetricsCategory(ctx, caller(ctx), req.GetUserId())
	if err != nil {
		return nil, s.toStatus(ctx, err)
	}
	return &usersv1.GetMetricsCategoryResponse{CategoryId: p.CategoryID, OriginalCategoryId: p.OriginalCategoryID}, nil
}

// SwitchMetricsCategory changes the category the caller views.
func (s *Server) SwitchMetricsCategory(ctx context.Context, req *usersv1.SwitchMetricsCategoryRequest) (*usersv1.SwitchMetricsCategoryResponse, error) {
	p, err := s.App.SwitchMetricsCategory(ctx, caller(ctx), req.GetUserId(), req.GetCategoryId())
	if err != nil {
		return nil, s.toStatus(ctx, err)
	}
	return &usersv1.SwitchMetricsCategoryResponse{CategoryId: p.CategoryID, OriginalCategoryId: p.OriginalCategoryID}, nil
}

// ListUsers searches all users (admin).
func (s *Server) ListUsers(ctx context.Context, req *usersv1.ListUsersRequest) (*usersv1.ListUsersResponse, error) {
	p, err := s.App.ListUsers(ctx, caller(ctx), req.GetQuery(), req.GetPageSize(), req.GetPageToken())
	if err != nil {
		return nil, s.toStatus(ctx, err)
	}
	return &usersv1.ListUsersResponse{Users: toProtoUsers(p.Users), NextPageToken: p.NextPageToken}, nil
}

// ListMetricsUsers searches store owners (uplifter or admin).
func (s *Server) ListMetricsUsers(ctx context.Context, req *usersv1.ListMetricsUsersRequest) (*usersv1.ListMetricsUsersResponse, error) {
	p, err := s.App.ListMetricsUsers(ctx, caller(ctx), req.GetQuery(), req.GetPageSize(), req.GetPageToken())
	if err != nil {
		return nil, s.toStatus(ctx, err)
	}
	return &usersv1.ListMetricsUsersResponse{Users: toProtoUsers(p.Users), NextPageToken: p.NextPageToken}, nil
}

// GetMetricsUser returns one store owner (uplifter or admin).
func (s *Server) GetMetricsUser(ctx context.Context, req *usersv1.GetMetricsUserRequest) (*usersv1.GetMetricsUserResponse, error) {
	u, err := s.App.GetMetricsUser(ctx, caller(ctx), req.GetUserId())
	if err != nil {
		return nil, s.toStatus(ctx, err)
	}
	return &usersv1.GetMetricsUserResponse{User: toProtoUser(u)}, nil
}

// ListAuditLog returns one side of a user's audit log (last 90 days).
func (s *Server) ListAuditLog(ctx context.Context, req *usersv1.ListAuditLogRequest) (*usersv1.ListAuditLogResponse, error) {
	records, err := s.App.ListAuditLog(ctx, caller(ctx), req.GetUserId(), req.GetRole())
	if err != nil {
		return nil, s.toStatus(ctx, err)
	}
	resp := &usersv1.ListAuditLogResponse{Entries: make([]*usersv1.AuditLogEntry, 0, len(records))}
	for _, r := range records {
		resp.Entries = append(resp.Entries, &usersv1.AuditLogEntry{
			ActorId: r.ActorID, ActorEmail: r.ActorEmail, OwnerId: r.OnBehalfOfID, OwnerEmail: r.OwnerEmail,
			CategoryId: r.CategoryID, Action: r.Action, Detail: r.Detail, CreateTime: timestamppb.New(r.At),
		})
	}
	return resp, nil
}

// DeleteUser removes a user and, through UserDeleted, their data (admin).
func (s *Server) DeleteUser(ctx context.Context, req *usersv1.DeleteUserRequest) (*usersv1.DeleteUserResponse, error) {
	if err := s.App.DeleteUser(ctx, caller(ctx), req.GetUserId()); err != nil {
		return nil, s.toStatus(ctx, err)
	}
	return &usersv1.DeleteUserResponse{}, nil
}

func caller(ctx context.Context) domain.Caller {
	c, _ := auth.FromContext(ctx)
	return domain.Caller{UID: c.UID, Email: c.Email, EmailVerified: c.EmailVerified, Admin: c.Admin, Uplifter: c.Uplifter,
		AuthTime: c.AuthTime, Backend: c.Backend}
}

func toProtoUsers(us []domain.User) []*usersv1.User {
	out := make([]*usersv1.User, len(us))
	for i, u := range us {
		out[i] = toProtoUser(u)
	}
	return out
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
	case errors.Is(err, domain.ErrDeleteSelf):
		return status.Error(codes.FailedPrecondition, "You cannot delete your own account here.")
	case errors.Is(err, domain.ErrRecoveryCodeRejected):
		return status.Error(codes.InvalidArgument, RecoveryCodeRejectedMessage)
	case errors.Is(err, domain.ErrSignInNotFresh):
		return status.Error(codes.FailedPrecondition, "For your security, confirm your password and a current code from your authenticator app first.")
	case errors.Is(err, domain.ErrNoSecondFactor):
		return status.Error(codes.FailedPrecondition, "Recovery codes are for two-step sign-in. Turn it on first.")
	case errors.Is(err, domain.ErrEmailNotVerified):
		return status.Error(codes.FailedPrecondition, "Your Google account has no verified email address. Please use a Google account with a verified email, or sign up with email and password.")
	}
	return grpcerr.Internal(ctx, s.Log, err)
}
