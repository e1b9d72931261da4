package app

import (
	"context"
	"errors"
	"slices"
	"testing"

	"uplift.dev/users/internal/domain"
)

// TestRevokingARoleEndsTheSessions: a revoked role
// must not live on in the tokens the person holds, so every revocation
// ends the account's sessions; a grant leaves them alone.
func TestRevokingARoleEndsTheSessions(t *testing.T) {
	ctx := context.Background()
	for _, role := range []domain.Role{domain.RoleAdmin, domain.RoleUplifter} {
		t.Run(string(role), func(t *testing.T) {
			a, id, repo := newApp()
			id.users["up@example.com"] = "uid-up"
			repo.users["uid-up"] = domain.User{ID: "uid-up", Email: "up@example.com"}
			if _, err := a.SetRole(ctx, "usersctl:op", "up@example.com", role, true); err != nil {
				t.Fatal(err)
			}
			if len(id.revoked) != 0 {
				t.Fatalf("a grant ended the sessions of %v", id.revoked)
			}
			if _, err := a.SetRole(ctx, "usersctl:op", "up@example.com", role, false); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(id.revoked, []string{"uid-up"}) {
				t.Fatalf("sessions ended: %v, want uid-up's", id.revoked)
			}

			// A revocation whose sessions could not be ended is a failure
			// the operator sees (and repeats), not a success.
			id.revokeErr = errors.New("firebase down")
			audited := len(repo.audit)
			if _, err := a.SetRole(ctx, "usersctl:op", "up@example.com", role, false); err == nil || !errors.Is(err, id.revokeErr) {
				t.Fatalf("err = %v, want the revocation's failure", err)
			}
			if len(repo.audit) != audited {
				t.Fatal("a revocation that did not end the sessions was audited as done")
			}
		})
	}
}

// TestEveryRoleChangeIsAnnounced: the services that cache who may act on a
// category forget a user when UserRoleChanged arrives, so the app says it
// for every grant and revocation of either role, whichever store keeps the
// role (the uplifter flag with the user's row, the admin claim only in
// Firebase).
func TestEveryRoleChangeIsAnnounced(t *testing.T) {
	ctx := context.Background()
	for _, role := range []domain.Role{domain.RoleAdmin, domain.RoleUplifter} {
		t.Run(string(role), func(t *testing.T) {
			a, id, repo := newApp()
			id.users["up@example.com"] = "uid-up"
			repo.users["uid-up"] = domain.User{ID: "uid-up", Email: "up@example.com"}
			for _, on := range []bool{true, false} {
				if _, err := a.SetRole(ctx, "usersctl:op", "up@example.com", role, on); err != nil {
					t.Fatal(err)
				}
			}
			var got []domain.RoleChanged
			for _, ev := range repo.events {
				if rc, ok := ev.(domain.RoleChanged); ok {
					got = append(got, rc)
				}
			}
			if len(got) != 2 || got[0].UserID != "uid-up" || got[0].Role != role || !got[0].Granted || got[1].Granted {
				t.Fatalf("role events = %+v, want a grant then a revocation of %s for uid-up", got, role)
			}
		})
	}
}
