// Package categories asks the categories service whether the caller may act
// on a category, forwarding the caller's own bearer token: the categories
// service owns that rule (the owner, or an uplifter on their behalf), and
// the stores service holds no power of its own over categories.
package categories

import (
	"context"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	categoriesv1 "uplift.dev/proto/gen/uplift/categories/v1"

	"uplift.dev/stores/internal/domain"
)

// Access implements app.Access.
type Access struct {
	Client categoriesv1.CategoriesServiceClient
}

// New returns Access over conn.
func New(conn grpc.ClientConnInterface) Access {
	return Access{Client: categoriesv1.NewCategoriesServiceClient(conn)}
}

// Check reads the category's label as the caller: allowed callers get it,
// others get the categories service's own refusal.
func (a Access) Check(ctx context.Context, categoryID string) error {
	md, _ := metadata.FromIncomingContext(ctx)
	if v := md.Get("authorization"); len(v) > 0 {
		ctx = metadata.AppendToOutgoingContext(ctx, "authorization", v[0])
	}
	_, err := a.Client.GetLabel(ctx, &categoriesv1.GetLabelRequest{CategoryId: categoryID})
	switch status.Code(err) {
	case codes.OK:
		return nil
	case codes.NotFound:
		return domain.ErrNotFound
	case codes.PermissionDenied, codes.Unauthenticated:
		return domain.ErrPermissionDenied
	}
	return err
}
