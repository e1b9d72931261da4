package app

import (
	"context"

	"uplift.dev/users/internal/domain"
)

// Page is one page of a user search.
type Page struct {
	Users []domain.User
	// NextPageToken is empty on the last page.
	NextPageToken string
}

// ListUsers searches all users by email or name prefix; admins only.
func (a *App) ListUsers(ctx context.Context, caller domain.Caller, query string, pageSize int32, pageToken string) (Page, error) {
	if caller.UID == "" || !caller.Admin {
		return Page{}, domain.ErrPermissionDenied
	}
	return a.search(ctx, query, pageSize, pageToken, false)
}

// ListMetricsUsers searches the store owners an uplifter can act for (users
// linked to a category); uplifters and admins only.
func (a *App) ListMetricsUsers(ctx context.Context, caller domain.Caller, query string, pageSize int32, pageToken string) (Page, error) {
	if caller.UID == "" || !(caller.Uplifter || caller.Admin) {
		return Page{}, domain.ErrPermissionDenied
	}
	return a.search(ctx, query, pageSize, pageToken, true)
}

// GetMetricsUser returns one store owner; uplifters and admins only.
func (a *App) GetMetricsUser(ctx context.Context, caller domain.Caller, id string) (domain.User, error) {
	if err := domain.ValidateID("userId", id); err != nil {
		return domain.User{}, err
	}
	if caller.UID == "" || !(caller.Uplifter || caller.Admin) {
		return domain.User{}, domain.ErrPermissionDenied
	}
	return a.repo.Get(ctx, id)
}

func (a *App) search(ctx context.Context, query string, pageSize int32, pageToken string, withProfile bool) (Page, error) {
	s, err := domain.NewSearch(query, pageSize, pageToken)
	if err != nil {
		return Page{}, err
	}
	s.WithProfileOnly = withProfile
	users, err := a.repo.Search(ctx, s)
	if err != nil {
		return Page{}, err
	}
	p := Page{Users: users}
	if len(users) > s.PageSize {
		p.Users = users[:s.PageSize]
		p.NextPageToken = s.NextToken(p.Users[len(p.Users)-1])
	}
	return p, nil
}
