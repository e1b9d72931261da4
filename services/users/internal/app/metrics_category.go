package app

import (
	"context"
	"errors"

	"github.com/google/uuid"

	"uplift.dev/users/internal/domain"
)

// GetMetricsCategory returns which category user id views and which is
// their own; anyone who may read the user may read it.
func (a *App) GetMetricsCategory(ctx context.Context, caller domain.Caller, id string) (Profile, error) {
	return a.GetProfile(ctx, caller, id)
}

// SwitchMetricsCategory makes user id view categoryID. Going back to their
// own category is always allowed; any other needs the uplifter claim. Every
// switch into, between or out of someone else's category is audited in the
// same transaction, naming the category's owner when a stored user owns it.
func (a *App) SwitchMetricsCategory(ctx context.Context, caller domain.Caller, id, categoryID string) (Profile, error) {
	if err := domain.ValidateID("userId", id); err != nil {
		return Profile{}, err
	}
	if categoryID == "" {
		return Profile{}, &domain.ValidationError{Field: "categoryId", Message: "categoryId is required."}
	}
	if err := uuid.Validate(categoryID); err != nil {
		return Profile{}, &domain.ValidationError{Field: "categoryId", Message: "categoryId is not a valid id."}
	}
	if caller.UID != id {
		return Profile{}, domain.ErrPermissionDenied
	}
	owner := ""
	if o, err := a.repo.OwnerOfCategory(ctx, categoryID); err == nil {
		owner = o.ID
	} else if !errors.Is(err, domain.ErrNotFound) {
		return Profile{}, err
	}
	now := a.now()
	u, err := a.update(ctx, id, func(u *domain.User) ([]domain.AuditEntry, error) {
		if err := caller.CanSwitch(*u, categoryID); err != nil {
			return nil, err
		}
		from := u.CategoryID
		u.CategoryID = categoryID
		if from == u.OriginalCategoryID && categoryID == u.OriginalCategoryID {
			return nil, nil
		}
		return []domain.AuditEntry{{ActorID: u.ID, OnBehalfOfID: owner, CategoryID: categoryID,
			Action: domain.ActionSwitchCategory, Detail: "from " + from, At: now}}, nil
	})
	if err != nil {
		return Profile{}, err
	}
	return Profile{u.CategoryID, u.OriginalCategoryID}, nil
}

// Audit records that the caller did action in categoryID, naming the
// category's owner when known. It is the one way entries are written, so
// every entry has the same who, as whom, what and when.
func (a *App) Audit(ctx context.Context, caller domain.Caller, categoryID, action, detail string) error {
	owner := ""
	if o, err := a.repo.OwnerOfCategory(ctx, categoryID); err == nil {
		owner = o.ID
	} else if !errors.Is(err, domain.ErrNotFound) {
		return err
	}
	return a.repo.Audit(ctx, domain.AuditEntry{ActorID: caller.UID, OnBehalfOfID: owner,
		CategoryID: categoryID, Action: action, Detail: detail, At: a.now()})
}
