package service_test

import (
	"context"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	usersv1 "uplift.dev/proto/gen/uplift/users/v1"

	"uplift.dev/platform/firebasetest"
)

// TestAuthorizationMatrix calls every users RPC as each kind of caller
// against the real service and checks the status. The target of per-user
// calls is "owner"; DeleteUser runs last because the admin's call removes them.
func TestAuthorizationMatrix(t *testing.T) {
	t.Parallel()
	h := start(t)
	owner := signUp(t, h, freshEmail())
	other := signUp(t, h, freshEmail())
	uplifter := withClaims(t, signUp(t, h, freshEmail()), map[string]any{"uplifter": true})
	admin := withClaims(t, signUp(t, h, freshEmail()), map[string]any{"admin": true})
	ownCat, err := h.client.GetProfile(as(owner.token), &usersv1.GetProfileRequest{UserId: owner.id})
	if err != nil {
		t.Fatal(err)
	}
	c := h.client
	type call func(ctx context.Context) error
	rpcs := []struct {
		name string
		call call
		// want is the code for anonymous, another user, the owner, an
		// uplifter and an admin, in that order.
		want [5]codes.Code
	}{
		{"CreateUser", func(ctx context.Context) error {
			_, err := c.CreateUser(ctx, &usersv1.CreateUserRequest{Email: freshEmail(), Password: password})
			return err
		}, [5]codes.Code{codes.OK, codes.OK, codes.OK, codes.OK, codes.OK}},
		{"FinishGoogleAuth", func(ctx context.Context) error {
			_, err := c.FinishGoogleAuth(ctx, &usersv1.FinishGoogleAuthRequest{})
			return err
		}, [5]codes.Code{codes.Unauthenticated, codes.OK, codes.OK, codes.OK, codes.OK}},
		{"ResetPassword", func(ctx context.Context) error {
			_, err := c.ResetPassword(ctx, &usersv1.ResetPasswordRequest{Email: owner.email})
			return err
		}, [5]codes.Code{codes.OK, codes.OK, codes.OK, codes.OK, codes.OK}},
		// Nobody here has a second factor: a signed-in caller is told to turn
		// two-step sign-in on first (recovery_test.go has the rest).
		{"CreateRecoveryCodes", func(ctx context.Context) error {
			_, err := c.CreateRecoveryCodes(ctx, &usersv1.CreateRecoveryCodesRequest{})
			return err
		}, [5]codes.Code{codes.Unauthenticated, codes.FailedPrecondition, codes.FailedPrecondition, codes.FailedPrecondition, codes.FailedPrecondition}},
		{"UseRecoveryCode", func(ctx context.Context) error {
			_, err := c.UseRecoveryCode(ctx, &usersv1.UseRecoveryCodeRequest{Email: owner.email, Code: "0000-0000-0000-0000"})
			return err
		}, [5]codes.Code{codes.InvalidArgument, codes.InvalidArgument, codes.InvalidArgument, codes.InvalidArgument, codes.InvalidArgument}},
		{"UpdateEmail", func(ctx context.Context) error {
			email := freshEmail()
			_, err := c.UpdateEmail(ctx, &usersv1.UpdateEmailRequest{UserId: owner.id, Email: email})
			if err == nil {
				// Firebase ends the owner's session when the email changes
				// (the web reloads and signs in again): do the same.
				owner.email = email
				owner.token = firebasetest.SignInWithPassword(t, email, password)
			}
			return err
		}, [5]codes.Code{codes.Unauthenticated, codes.PermissionDenied, codes.OK, codes.PermissionDenied, codes.OK}},
		{"Unsubscribe", func(ctx context.Context) error {
			_, err := c.Unsubscribe(ctx, &usersv1.UnsubscribeRequest{UserId: owner.id})
			return err
		}, [5]codes.Code{codes.Unauthenticated, codes.PermissionDenied, codes.OK, codes.PermissionDenied, codes.PermissionDenied}},
		{"GetUser", func(ctx context.Context) error {
			_, err := c.GetUser(ctx, &usersv1.GetUserRequest{UserId: owner.id})
			return err
		}, [5]codes.Code{codes.Unauthenticated, codes.PermissionDenied, codes.OK, codes.OK, codes.OK}},
		{"GetProfile", func(ctx context.Context) error {
			_, err := c.GetProfile(ctx, &usersv1.GetProfileRequest{UserId: owner.id})
			return err
		}, [5]codes.Code{codes.Unauthenticated, codes.PermissionDenied, codes.OK, codes.OK, codes.OK}},
		{"CreateOnboarding", func(ctx context.Context) error {
			_, err := c.CreateOnboarding(ctx, &usersv1.CreateOnboardingRequest{UserId: owner.id})
			return err
		}, [5]codes.Code{codes.Unauthenticated, codes.PermissionDenied, codes.OK, codes.PermissionDenied, codes.OK}},
		{"GetMetricsCategory", func(ctx context.Context) error {
			_, err := c.GetMetricsCategory(ctx, &usersv1.GetMetricsCategoryRequest{UserId: owner.id})
			return err
		}, [5]codes.Code{codes.Unauthenticated, codes.PermissionDenied, codes.OK, codes.OK, codes.OK}},
		{"SwitchMetricsCategory", func(ctx context.Context) error {
			_, err := c.SwitchMetricsCategory(ctx, &usersv1.SwitchMetricsCategoryRequest{UserId: owner.id, CategoryId: ownCat.GetOriginalCategoryId()})
			return err
		}, [5]codes.Code{codes.Unauthenticated, codes.PermissionDenied, codes.OK, codes.PermissionDenied, codes.PermissionDenied}},
		{"ListUsers", func(ctx context.Context) error {
			_, err := c.ListUsers(ctx, &usersv1.ListUsersRequest{})
			return err
		}, [5]codes.Code{codes.Unauthenticated, codes.PermissionDenied, codes.PermissionDenied, codes.PermissionDenied, codes.OK}},
		{"ListMetricsUsers", func(ctx context.Context) error {
			_, err := c.ListMetricsUsers(ctx, &usersv1.ListMetricsUsersRequest{})
			return err
		}, [5]codes.Code{codes.Unauthenticated, codes.PermissionDenied, codes.PermissionDenied, codes.OK, codes.OK}},
		{"GetMetricsUser", func(ctx context.Context) error {
			_, err := c.GetMetricsUser(ctx, &usersv1.GetMetricsUserRequest{UserId: owner.id})
			return err
		}, [5]codes.Code{codes.Unauthenticated, codes.PermissionDenied, codes.PermissionDenied, codes.OK, codes.OK}},
		{"ListAuditLog", func(ctx context.Context) error {
			_, err := c.ListAuditLog(ctx, &usersv1.ListAuditLogRequest{UserId: owner.id})
			return err
		}, [5]codes.Code{codes.Unauthenticated, codes.PermissionDenied, codes.OK, codes.PermissionDenied, codes.OK}},
		{"DeleteUser", func(ctx context.Context) error {
			_, err := c.DeleteUser(ctx, &usersv1.DeleteUserRequest{UserId: owner.id})
			return err
		}, [5]codes.Code{codes.Unauthenticated, codes.PermissionDenied, codes.PermissionDenied, codes.PermissionDenied, codes.OK}},
	}
	roles := []struct {
		name string
		ctx  func() context.Context
	}{
		{"anonymous", func() context.Context { return as("unauthed") }},
		{"another user", func() context.Context { return as(other.token) }},
		{"the owner", func() context.Context { return as(owner.token) }},
		{"an uplifter", func() context.Context { return as(uplifter.token) }},
		{"an admin", func() context.Context { return as(admin.token) }},
	}
	covered := map[string]bool{}
	for _, rpc := range rpcs {
		covered[rpc.name] = true
		for i, role := range roles {
			t.Run(rpc.name+"/"+role.name, func(t *testing.T) {
				if got := status.Code(rpc.call(role.ctx())); got != rpc.want[i] {
					t.Fatalf("code = %v, want %v", got, rpc.want[i])
				}
			})
		}
	}
	for _, m := range usersv1.UsersService_ServiceDesc.Methods {
		if !covered[m.MethodName] {
			t.Errorf("RPC %s is missing from the matrix", m.MethodName)
		}
	}
}

// TestBadInputIsTheClientsMistake sends empty, huge, malformed and unknown
// values to every call that takes them: each answers InvalidArgument or
// NotFound with a message, never Internal.
func TestBadInputIsTheClientsMistake(t *testing.T) {
	t.Parallel()
	h := start(t)
	owner := signUp(t, h, freshEmail())
	admin := withClaims(t, signUp(t, h, freshEmail()), map[string]any{"admin": true, "uplifter": true})
	c := h.client
	huge := strings.Repeat("x", 10000)
	ownerCtx, adminCtx := as(owner.token), as(admin.token)
	tests := []struct {
		name string
		err  func() error
		code codes.Code
		msg  string
	}{
		{"CreateUser huge name", func() error {
			_, err := c.CreateUser(context.Background(), &usersv1.CreateUserRequest{Email: freshEmail(), Password: password, Name: huge})
			return err
		}, codes.InvalidArgument, "name is too long"},
		{"CreateUser huge password", func() error {
			_, err := c.CreateUser(context.Background(), &usersv1.CreateUserRequest{Email: freshEmail(), Password: huge})
			return err
		}, codes.InvalidArgument, "password is too long"},
		{"FinishGoogleAuth huge google id", func() error {
			_, err := c.FinishGoogleAuth(ownerCtx, &usersv1.FinishGoogleAuthRequest{IdFromGoogleAuth: huge})
			return err
		}, codes.InvalidArgument, "idFromGoogleAuth is too long"},
		{"ResetPassword empty", func() error {
			_, err := c.ResetPassword(context.Background(), &usersv1.ResetPasswordRequest{})
			return err
		}, codes.InvalidArgument, "valid email"},
		{"ResetPassword huge", func() error {
			_, err := c.ResetPassword(context.Background(), &usersv1.ResetPasswordRequest{Email: huge + "@x.co"})
			return err
		}, codes.InvalidArgument, "email is too long"},
		{"UpdateEmail unknown user", func() error {
			_, err := c.UpdateEmail(adminCtx, &usersv1.UpdateEmailRequest{UserId: "nobody", Email: freshEmail()})
			return err
		}, codes.NotFound, "User not found."},
		{"UpdateEmail huge id", func() error {
			_, err := c.UpdateEmail(adminCtx, &usersv1.UpdateEmailRequest{UserId: huge, Email: freshEmail()})
			return err
		}, codes.InvalidArgument, "userId is too long"},
		{"Unsubscribe empty id", func() error {
			_, err := c.Unsubscribe(ownerCtx, &usersv1.UnsubscribeRequest{})
			return err
		}, codes.InvalidArgument, "userId is required."},
		{"GetUser unknown", func() error {
			_, err := c.GetUser(adminCtx, &usersv1.GetUserRequest{UserId: "nobody"})
			return err
		}, codes.NotFound, "User not found."},
		{"GetUser path-like id", func() error {
			_, err := c.GetUser(adminCtx, &usersv1.GetUserRequest{UserId: "../etc"})
			return err
		}, codes.InvalidArgument, "userId is not a valid user id."},
		{"GetProfile empty", func() error {
			_, err := c.GetProfile(ownerCtx, &usersv1.GetProfileRequest{})
			return err
		}, codes.InvalidArgument, "userId is required."},
		{"CreateOnboarding bad category", func() error {
			_, err := c.CreateOnboarding(ownerCtx, &usersv1.CreateOnboardingRequest{UserId: owner.id, CategoryId: huge})
			return err
		}, codes.InvalidArgument, "categoryId is too long"},
		{"CreateOnboarding unknown user", func() error {
			_, err := c.CreateOnboarding(adminCtx, &usersv1.CreateOnboardingRequest{UserId: "nobody"})
			return err
		}, codes.NotFound, "User not found."},
		{"GetMetricsCategory unknown", func() error {
			_, err := c.GetMetricsCategory(adminCtx, &usersv1.GetMetricsCategoryRequest{UserId: "nobody"})
			return err
		}, codes.NotFound, "User not found."},
		{"SwitchMetricsCategory empty id", func() error {
			_, err := c.SwitchMetricsCategory(ownerCtx, &usersv1.SwitchMetricsCategoryRequest{CategoryId: "11111111-1111-4111-8111-111111111111"})
			return err
		}, codes.InvalidArgument, "userId is required."},
		{"ListUsers bad token", func() error {
			_, err := c.ListUsers(adminCtx, &usersv1.ListUsersRequest{PageToken: huge})
			return err
		}, codes.InvalidArgument, "pageToken is too long"},
		{"ListMetricsUsers bad token", func() error {
			_, err := c.ListMetricsUsers(adminCtx, &usersv1.ListMetricsUsersRequest{PageToken: "eyJ4IjoxfQ"})
			return err
		}, codes.InvalidArgument, "pageToken is not valid"},
		{"ListMetricsUsers huge query", func() error {
			_, err := c.ListMetricsUsers(adminCtx, &usersv1.ListMetricsUsersRequest{Query: huge})
			return err
		}, codes.InvalidArgument, "query is too long"},
		{"GetMetricsUser empty", func() error {
			_, err := c.GetMetricsUser(adminCtx, &usersv1.GetMetricsUserRequest{})
			return err
		}, codes.InvalidArgument, "userId is required."},
		{"DeleteUser unknown", func() error {
			_, err := c.DeleteUser(adminCtx, &usersv1.DeleteUserRequest{UserId: "nobody"})
			return err
		}, codes.NotFound, "User not found."},
		{"DeleteUser huge id", func() error {
			_, err := c.DeleteUser(adminCtx, &usersv1.DeleteUserRequest{UserId: huge})
			return err
		}, codes.InvalidArgument, "userId is too long"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wantCode(t, tt.err(), tt.code, tt.msg)
		})
	}
}
