package domain

import "time"

// Event is a change of a user that other services hear of. The app says
// which a change implies (ChangeEvents); the repository records them in
// the transaction of the change, so one is never without the other.
type Event interface{ userEvent() }

// EmailChanged: the user's sign-in email changed (UserEmailChanged).
type EmailChanged struct {
	UserID, OldEmail, NewEmail string
	At                         time.Time
}

// Unsubscribed: the user turned Uplift's emails off (UserUnsubscribed).
type Unsubscribed struct {
	UserID, Email, CategoryID string
	At                        time.Time
}

// RoleChanged: an operator granted or revoked a role (UserRoleChanged), so
// the services that cache who may act on a category forget the user.
type RoleChanged struct {
	UserID  string
	Role    Role
	Granted bool
	At      time.Time
}

func (EmailChanged) userEvent() {}
func (Unsubscribed) userEvent() {}
func (RoleChanged) userEvent()  {}

// Change is what saving a changed user writes beside the row: the audit
// entries of the action and the events the change implies.
type Change struct {
	Audit  []AuditEntry
	Events []Event
}

// ChangeEvents are the events going from before to after implies, dated
// at: a new email, and a first unsubscribe (repeating one tells nobody).
func ChangeEvents(before, after User, at time.Time) []Event {
	var out []Event
	if before.Email != after.Email {
		out = append(out, EmailChanged{UserID: after.ID, OldEmail: before.Email, NewEmail: after.Email, At: at})
	}
	if before.UnsubscribedAt == nil && after.UnsubscribedAt != nil {
		out = append(out, Unsubscribed{UserID: after.ID, Email: after.Email, CategoryID: after.OriginalCategoryID, At: at})
	}
	return out
}

// AuditEvents are the events audit entries imply: a role changes only with
// its audit row, so each role entry is announced.
func AuditEvents(entries []AuditEntry) []Event {
	var out []Event
	for _, e := range entries {
		if role, on, ok := e.RoleChange(); ok {
			out = append(out, RoleChanged{UserID: e.OnBehalfOfID, Role: role, Granted: on, At: e.At})
		}
	}
	return out
}
