package app

import (
	"context"
	"errors"
	"fmt"

	"uplift.dev/users/internal/domain"
)

// SetRoleResult says what SetRole changed.
type SetRoleResult struct {
	UID string
	// Stored is false when the uplifter flag could not be stored because the
	// account has no stored user yet (it signed up outside Uplift's calls).
	Stored bool
}

// SetRole grants (on) or revokes an operator role for the account with
// email: the Firebase custom claim that the services check, and for
// uplifters also the stored isUplifter flag the web shows. It is for the
// usersctl command, run by an operator, so it takes no caller: actor names
// the operator in the audit log ("usersctl:alice"), where every change is
// written (with the stored flag, in its transaction) and announced
// (UserRoleChanged), so the services that cache who may act on a category
// forget what they knew of the user.
//
// Revoking a role also ends the account's sessions. The role travels in the
// ID token, which Firebase refreshes only hourly, so a revoked uplifter kept
// acting for owners with the token they held; with the sessions revoked,
// every service refuses that token at its next revocation check (within
// auth.RevocationCheckTTL, 30 s) and the person signs in again, getting a
// token without the role.
func (a *App) SetRole(ctx context.Context, actor, email string, role domain.Role, on bool) (SetRoleResult, error) {
	email, err := domain.NormalizeEmail(email)
	if err != nil {
		return SetRoleResult{}, err
	}
	if role != domain.RoleAdmin && role != domain.RoleUplifter {
		return SetRoleResult{}, &domain.ValidationError{Field: "role", Message: fmt.Sprintf("unknown role %q", role)}
	}
	uid, err := a.identity.SetRole(ctx, email, role, on)
	if err != nil {
		return SetRoleResult{}, err
	}
	if !on {
		if err := a.identity.RevokeSessions(ctx, uid); err != nil {
			// Run again: clearing the claim and revoking repeat safely.
			return SetRoleResult{UID: uid}, fmt.Errorf("claim cleared but the sessions not ended: %w", err)
		}
	}
	res := SetRoleResult{UID: uid, Stored: role == domain.RoleUplifter}
	entry := domain.AuditEntry{ActorID: actor, OnBehalfOfID: uid, Action: domain.RoleAction(role, on), At: a.now()}
	if role == domain.RoleUplifter {
		_, err := a.update(ctx, uid, func(u *domain.User) ([]domain.AuditEntry, error) {
			u.IsUplifter = on
			entry.CategoryID = u.OriginalCategoryID
			return []domain.AuditEntry{entry}, nil
		})
		switch {
		case errors.Is(err, domain.ErrNotFound):
			res.Stored = false
		case err != nil:
			return res, fmt.Errorf("claim set but stored flag not: %w", err)
		default:
			return res, nil
		}
	} else if u, err := a.repo.Get(ctx, uid); err == nil {
		entry.CategoryID = u.OriginalCategoryID
	}
	// The claim lives in Firebase: the entry and its event are written on their own.
	audit := []domain.AuditEntry{entry}
	if err := a.repo.Record(ctx, domain.Change{Audit: audit, Events: domain.AuditEvents(audit)}); err != nil {
		return res, fmt.Errorf("claim set but not audited: %w", err)
	}
	return res, nil
}
