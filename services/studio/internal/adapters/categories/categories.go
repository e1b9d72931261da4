// Package categories is app.Access through the categories service's access
// check (uplift.dev/proto/categoryaccess, which caches its answers for a
// few seconds), with its refusals as the studio's errors, and
// app.Catalogue: a product's photo from the store's catalogue.
package categories

import (
	"context"
	"errors"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"uplift.dev/proto/categoryaccess"
	categoriesv1 "uplift.dev/proto/gen/uplift/categories/v1"

	"uplift.dev/studio/internal/domain"
)

// Access implements app.Access.
type Access struct {
	checker *categoryaccess.Checker
}

// New returns Access over checker.
func New(checker *categoryaccess.Checker) Access {
	return Access{checker: checker}
}

// Check implements app.Access.
func (a Access) Check(ctx context.Context, categoryID string) error {
	_, err := a.checker.Check(ctx, categoryID)
	switch {
	case errors.Is(err, categoryaccess.ErrNotFound):
		return domain.ErrNotFound
	case errors.Is(err, categoryaccess.ErrPermissionDenied):
		return domain.ErrPermissionDenied
	}
	return err
}

// Catalogue implements app.Catalogue through the categories service, with
// the caller's own token, which the grpcclient connection forwards (the
// categories service decides who may).
type Catalogue struct {
	client categoriesv1.CategoriesServiceClient
}

// NewCatalogue returns Catalogue over conn, a grpcclient connection that
// accepts messages of a full-size photo (25 MB).
func NewCatalogue(conn grpc.ClientConnInterface) Catalogue {
	return Catalogue{client: categoriesv1.NewCategoriesServiceClient(conn)}
}

// ProductImage implements app.Catalogue.
func (c Catalogue) ProductImage(ctx context.Context, categoryID, productID string) (string, []byte, error) {
	res, err := c.client.GetProductImage(ctx, &categoriesv1.GetProductImageRequest{CategoryId: categoryID, ProductId: productID})
	st := status.Convert(err)
	switch st.Code() {
	case codes.OK:
		return res.GetProduct().GetName(), res.GetContent(), nil
	case codes.NotFound:
		return "", nil, &domain.MissingError{Message: st.Message()}
	case codes.FailedPrecondition, codes.InvalidArgument:
		// The categories service's message says why (no website, no
		// photo, too large, unreadable) for the owner.
		return "", nil, &domain.ValidationError{Field: "productId", Message: st.Message()}
	case codes.PermissionDenied, codes.Unauthenticated:
		return "", nil, domain.ErrPermissionDenied
	}
	return "", nil, err
}
