// Package categories is app.Access through the categories service's access
// check (uplift.dev/proto/categoryaccess, which caches its answers for a
// few seconds), with its refusals as the stores service's errors: the
// categories service owns who may act on a category.
package categories

import (
	"context"
	"errors"

	"uplift.dev/proto/categoryaccess"

	"uplift.dev/stores/internal/domain"
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
