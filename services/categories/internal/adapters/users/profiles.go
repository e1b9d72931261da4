// Package users reads the users service over gRPC on the caller's behalf:
// the caller's own bearer token is forwarded (by the grpcclient
// connection), so the users service applies its own rules and the
// categories service holds no extra power.
package users

import (
	"context"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	usersv1 "uplift.dev/proto/gen/uplift/users/v1"

	"uplift.dev/categories/internal/domain"
)

// Profiles implements app.Profiles.
type Profiles struct{ Client usersv1.UsersServiceClient }

// New returns Profiles over conn, a grpcclient connection.
func New(conn grpc.ClientConnInterface) Profiles {
	return Profiles{Client: usersv1.NewUsersServiceClient(conn)}
}

// OwnCategoryID returns the category the users service created for uid:
// the original one, so an uplifter acting on behalf never links someone
// else's category to themselves.
func (p Profiles) OwnCategoryID(ctx context.Context, uid string) (string, error) {
	res, err := p.Client.GetProfile(ctx, &usersv1.GetProfileRequest{UserId: uid})
	switch status.Code(err) {
	case codes.OK:
	case codes.NotFound:
		return "", domain.ErrNoProfile
	default:
		return "", err
	}
	if id := res.GetOriginalCategoryId(); id != "" {
		return id, nil
	}
	if id := res.GetCategoryId(); id != "" {
		return id, nil
	}
	return "", domain.ErrNoProfile
}
