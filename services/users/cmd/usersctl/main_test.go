package main

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	fbauth "firebase.google.com/go/v4/auth"
	"github.com/google/uuid"

	"uplift.dev/platform/events"
	"uplift.dev/platform/firebasetest"
	"uplift.dev/platform/pgtest"
	"uplift.dev/platform/postgres"
	"uplift.dev/users/migrations"
)

// TestGrantAndRevokeRoles runs the command against the Auth emulator and a
// migrated users schema, as an operator would.
func TestGrantAndRevokeRoles(t *testing.T) {
	ctx := context.Background()
	host := firebasetest.Host(t)
	dbURL := pgtest.URL(t)
	pool, err := postgres.Open(ctx, dbURL, "users")
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	if err := postgres.Migrate(ctx, pool, events.Migrations(), migrations.FS); err != nil {
		t.Fatal(err)
	}
	fb := firebasetest.Client(t)
	email := "op-" + uuid.NewString()[:8] + "@example.com"
	rec, err := fb.CreateUser(ctx, (&fbauth.UserToCreate{}).Email(email).Password("secret12"))
	if err != nil {
		t.Fatal(err)
	}
	if err := fb.SetCustomUserClaims(ctx, rec.UID, map[string]any{"beta": true}); err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(ctx, `INSERT INTO users (id, email, display_name) VALUES ($1, $2, 'op')`, rec.UID, email); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"DATABASE_URL": dbURL, "FIREBASE_PROJECT_ID": firebasetest.ProjectID(), "FIREBASE_AUTH_EMULATOR_HOST": host,
		"USER": "alice"}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	do := func(args ...string) (string, error) {
		var out bytes.Buffer
		err := run(ctx, args, lookup, &out)
		return out.String(), err
	}
	state := func() (map[string]any, bool) {
		t.Helper()
		u, err := fb.GetUser(ctx, rec.UID)
		if err != nil {
			t.Fatal(err)
		}
		var stored bool
		if err := pool.QueryRow(ctx, `SELECT is_uplifter FROM users WHERE id = $1`, rec.UID).Scan(&stored); err != nil {
			t.Fatal(err)
		}
		return u.CustomClaims, stored
	}
	for _, step := range []struct {
		cmd                      string
		admin, uplifter, flagged bool
	}{
		{"grant-uplifter", false, true, true},
		{"grant-admin", true, true, true},
		{"revoke-uplifter", true, false, false},
		{"revoke-admin", false, false, false},
	} {
		out, err := do(step.cmd, strings.ToUpper(email))
		if err != nil || !strings.Contains(out, rec.UID) {
			t.Fatalf("%s: %q %v", step.cmd, out, err)
		}
		claims, stored := state()
		if claims["admin"] == true != step.admin || claims["uplifter"] == true != step.uplifter || stored != step.flagged || claims["beta"] != true {
			t.Fatalf("after %s: claims %v, stored %v", step.cmd, claims, stored)
		}
	}

	// Every change is in the audit log: the operator, the account, what.
	rows, err := pool.Query(ctx, `SELECT actor_id, coalesce(on_behalf_of_id, ''), action FROM audit_log ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	var audit []string
	for rows.Next() {
		var actor, subject, action string
		if err := rows.Scan(&actor, &subject, &action); err != nil {
			t.Fatal(err)
		}
		audit = append(audit, actor+" "+subject+" "+action)
	}
	rows.Close()
	want := []string{
		"usersctl:alice " + rec.UID + " grant_uplifter", "usersctl:alice " + rec.UID + " grant_admin",
		"usersctl:alice " + rec.UID + " revoke_uplifter", "usersctl:alice " + rec.UID + " revoke_admin",
	}
	if !slices.Equal(audit, want) {
		t.Fatalf("audit_log %q, want %q", audit, want)
	}

	if _, err := do("grant-admin", "nobody-"+uuid.NewString()[:8]+"@example.com"); err == nil || !strings.Contains(err.Error(), "no Firebase account") {
		t.Fatalf("unknown email: %v", err)
	}
	for _, args := range [][]string{{}, {"grant-admin"}, {"make-admin", email}, {"grant-admin", "not-an-email"}} {
		if _, err := do(args...); !errors.Is(err, errUsage) {
			t.Errorf("%v: %v, want usage error", args, err)
		}
	}
	env = map[string]string{}
	if _, err := do("grant-admin", email); err == nil || !strings.Contains(err.Error(), "DATABASE_URL") {
		t.Fatalf("missing settings: %v", err)
	}
}
