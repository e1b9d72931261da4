// Package categories is app.Access through the categories service
// (platform/categoryaccess), with its refusals as the stores service's
// errors: the categories service owns who may act on a category.
package categories

import (
	"context"
	"errors"

	"google.golang.org/grpc"

	"uplift.dev/platform/categoryaccess"
	"uplift.dev/stores/internal/domain"
)

// Access implements app.Access.
type Access struct {
	checker categoryaccess.Checker
}

// New returns Access over conn.
func New(conn grpc.ClientConnInterface) Access {
	return Access{checker: categoryaccess.New(conn)}
}

// Check implements app.Access.
func (a Access) Check(ctx context.Context, categoryID string) error {
	err := a.checker.Check(ctx, categoryID)
	switch {
	case errors.Is(err, categoryaccess.ErrNotFound):
		return domain.ErrNotFound
	case errors.Is(err, categoryaccess.ErrPermissionDenied):
		return domain.ErrPermissionDenied
	}
	return err
}
