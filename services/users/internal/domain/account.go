package domain

import (
	"strings"
	"time"
	"unicode/utf8"

	"uplift.dev/platform/validation"
)

// MaxIDLength is the platform's bound on an id, Firebase's own on a uid;
// longer ids cannot be ours.
const MaxIDLength = validation.MaxIDRunes

// PasswordResetInterval is how often one email may be sent a reset link,
// so the reset call cannot be used to flood someone's inbox.
const PasswordResetInterval = time.Minute

// ValidateID checks a user id from a request before it reaches storage, so
// an empty or absurd id is the client's mistake, not a lookup.
func ValidateID(field, id string) error {
	switch {
	case id == "":
		return &ValidationError{Field: field, Message: field + " is required."}
	case len(id) > MaxIDLength || strings.ContainsAny(id, "/\\ \t\r\n"):
		return &ValidationError{Field: field, Message: field + " is not a valid user id."}
	}
	return nil
}

// GoogleSignUp is the validated completion of a Google sign-in.
type GoogleSignUp struct {
	Email, Name string
}

// NewGoogleSignUp takes the account's email only from the caller's verified
// ID token: an address the browser puts in the request body proves nothing,
// and neither does a token whose email the provider has not verified, so
// both would let a stranger claim someone else's address. The name defaults
// to the part of the email before '@'.
func NewGoogleSignUp(c Caller, name string) (GoogleSignUp, error) {
	if c.Email == "" || !c.EmailVerified {
		return GoogleSignUp{}, ErrEmailNotVerified
	}
	email, err := NormalizeEmail(c.Email)
	if err != nil {
		return GoogleSignUp{}, err
	}
	name = strings.TrimSpace(name)
	if name == "" {
		name = DefaultName(email)
	}
	if utf8.RuneCountInString(name) > maxNameLength {
		return GoogleSignUp{}, &ValidationError{Field: "name", Message: "Name is too long."}
	}
	return GoogleSignUp{Email: email, Name: name}, nil
}

// Unsubscribe opts the user out of email at now. It reports whether
// anything changed, so a repeated click publishes nothing new.
func (u *User) Unsubscribe(now time.Time) bool {
	if u.UnsubscribedAt != nil {
		return false
	}
	u.UnsubscribedAt = &now
	return true
}

// IsOnBehalf reports whether the user currently views a category that is not
// their own: an uplifter acting for a store owner.
func (u User) IsOnBehalf() bool {
	return u.CategoryID != "" && u.CategoryID != u.OriginalCategoryID
}

// CanSwitch reports whether caller may make user u view categoryID. Only the
// user themselves switches their view; going back to their own category is
// always allowed, anything else needs the uplifter claim.
func (c Caller) CanSwitch(u User, categoryID string) error {
	if c.UID == "" || c.UID != u.ID {
		return ErrPermissionDenied
	}
	if categoryID != u.OriginalCategoryID && !c.Uplifter {
		return ErrPermissionDenied
	}
	return nil
}

// Actions written to the audit log.
const (
	ActionSwitchCategory = "switch_metrics_category"
	// ActionAdminUpdateEmail: an admin changed another user's email.
	ActionAdminUpdateEmail = "admin_update_email"
	// ActionAdminDeleteUser: an admin deleted a user.
	ActionAdminDeleteUser = "admin_delete_user"
)

// RoleAction is the audit action of granting (on) or revoking role:
// "grant_admin", "revoke_uplifter", ….
func RoleAction(role Role, on bool) string {
	if on {
		return "grant_" + string(role)
	}
	return "revoke_" + string(role)
}

// RoleChange reads back what RoleAction wrote: the role granted (on) or
// revoked, and ok false for any other action.
func (e AuditEntry) RoleChange() (role Role, on, ok bool) {
	for _, r := range []Role{RoleAdmin, RoleUplifter} {
		switch e.Action {
		case RoleAction(r, true):
			return r, true, true
		case RoleAction(r, false):
			return r, false, true
		}
	}
	return "", false, false
}

// AuditEntry records one thing a user did while acting for someone else, or
// the switch that started or ended it, or an admin's or operator's action on
// an account: who, as or to whom, what, when.
type AuditEntry struct {
	// ActorID is the user who acted (the uplifter, the admin), or
	// "usersctl:<operator>" for a role changed with usersctl.
	ActorID string
	// OnBehalfOfID is the owner of CategoryID, empty when no stored user owns
	// it; for an admin's or operator's action, the user acted on.
	OnBehalfOfID string
	// CategoryID is the category acted in.
	CategoryID string
	// Action names what was done, e.g. ActionSwitchCategory.
	Action string
	// Detail is free text for the reader of the log (e.g. the previous category).
	Detail string
	At     time.Time
}

// Role is a power an operator grants with usersctl.
type Role string

// The roles, named as their Firebase custom claims.
const (
	RoleAdmin    Role = "admin"
	RoleUplifter Role = "uplifter"
)

// AuditLogWindow is how far back an owner or an uplifter reads the audit
// log in the app: the last 90 days, what Account Settings and the
// dashboard promise.
const AuditLogWindow = 90 * 24 * time.Hour

// AuditLogLimit bounds one read of the audit log.
const AuditLogLimit = 200

// DefaultAuditRetention is how long audit rows are kept, also after the
// users and data they describe are deleted.
const DefaultAuditRetention = 400 * 24 * time.Hour

// AuditRole is which side of the log a read takes.
type AuditRole string

// Sides of the audit log.
const (
	// AuditAsSubject reads what others did on the user's behalf.
	AuditAsSubject AuditRole = "subject"
	// AuditAsActor reads what the user did on behalf of others.
	AuditAsActor AuditRole = "actor"
)

// ParseAuditRole reads the role of ListAuditLog; empty means subject.
func ParseAuditRole(s string) (AuditRole, error) {
	switch AuditRole(s) {
	case "", AuditAsSubject:
		return AuditAsSubject, nil
	case AuditAsActor:
		return AuditAsActor, nil
	}
	return "", &ValidationError{Field: "role", Message: `role must be "subject" or "actor".`}
}

// AuditQuery selects audit rows: one user's side since a time, newest first.
type AuditQuery struct {
	UserID string
	Role   AuditRole
	Since  time.Time
	Limit  int
}

// AuditRecord is an audit entry as the log's reader sees it, with the
// emails of the people in it (empty once they are deleted).
type AuditRecord struct {
	AuditEntry
	ActorEmail, OwnerEmail string
}
