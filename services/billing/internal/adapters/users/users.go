// Package users asks the users service which categories a user owns. The
// caller's bearer token is forwarded (by the grpcclient connection), so the
// users service applies its own access rules and billing trusts nothing it
// was not told by the owner.
package users

import (
	"context"
	"errors"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	usersv1 "uplift.dev/proto/gen/uplift/users/v1"

	"uplift.dev/billing/internal/app"
	"uplift.dev/billing/internal/domain"
)

// Client implements app.Profiles over gRPC.
type Client struct{ Users usersv1.UsersServiceClient }

var _ app.Profiles = Client{}

// New returns a client on conn, a grpcclient connection.
func New(conn grpc.ClientConnInterface) Client {
	return Client{Users: usersv1.NewUsersServiceClient(conn)}
}

// GetProfile returns the user's current and original category.
func (c Client) GetProfile(ctx context.Context, userID string) (string, string, error) {
	res, err := c.Users.GetProfile(ctx, &usersv1.GetProfileRequest{UserId: userID})
	switch status.Code(err) {
	case codes.OK:
		return res.GetCategoryId(), res.GetOriginalCategoryId(), nil
	case codes.PermissionDenied, codes.NotFound, codes.Unauthenticated:
		return "", "", domain.ErrPermissionDenied
	}
	return "", "", errors.Join(errors.New("users: get profile"), err)
}

// UserExists asks the users service for the user with the caller's token
// (an admin's, who may read anyone).
func (c Client) UserExists(ctx context.Context, userID string) (bool, error) {
	_, err := c.Users.GetUser(ctx, &usersv1.GetUserRequest{UserId: userID})
	switch status.Code(err) {
	case codes.OK:
		return true, nil
	case codes.NotFound:
		return false, nil
	case codes.InvalidArgument:
		// The users service's own sentence for an id it cannot hold.
		return false, &domain.ValidationError{Field: "userId", Message: status.Convert(err).Message()}
	case codes.PermissionDenied, codes.Unauthenticated:
		return false, domain.ErrPermissionDenied
	}
	return false, errors.Join(errors.New("users: get user"), err)
}
