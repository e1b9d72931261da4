// Package categoryaccess asks the categories service whether the caller may
// act on a category, as the caller (a grpcclient connection forwards their
// bearer token): the categories service owns that rule (the owner, or an
// uplifter on their behalf), and other services hold no power of their own
// over categories.
package categoryaccess

import (
	"context"
	"errors"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	categoriesv1 "uplift.dev/proto/gen/uplift/categories/v1"
)

// Refusals; callers map them to their own domain errors.
var (
	ErrNotFound         = errors.New("category not found")
	ErrPermissionDenied = errors.New("not allowed on this category")
)

// Checker checks access through the categories service.
type Checker struct {
	Client categoriesv1.CategoriesServiceClient
}

// New returns a Checker over conn, a grpcclient connection.
func New(conn grpc.ClientConnInterface) Checker {
	return Checker{Client: categoriesv1.NewCategoriesServiceClient(conn)}
}

// Check reads the category's label as the caller: allowed callers get it,
// others get ErrNotFound or ErrPermissionDenied (any other failure as is).
func (c Checker) Check(ctx context.Context, categoryID string) error {
	_, err := c.Client.GetLabel(ctx, &categoriesv1.GetLabelRequest{CategoryId: categoryID})
	switch status.Code(err) {
	case codes.OK:
		return nil
	case codes.NotFound:
		return ErrNotFound
	case codes.PermissionDenied, codes.Unauthenticated:
		return ErrPermissionDenied
	}
	return err
}
