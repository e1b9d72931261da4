package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"uplift.dev/platform/pgtest"
)

// TestDBRolesKeepsPasswordsAndWritesASecretPerService: run twice, the
// Secrets are the same; each holds its own login's URL, on the host given,
// and that URL signs in as the service's login.
func TestDBRolesKeepsPasswordsAndWritesASecretPerService(t *testing.T) {
	ctx := context.Background()
	url := pgtest.URL(t)
	dir := t.TempDir()
	if err := dbRoles(ctx, url, dir, "", "uplift", io.Discard); err != nil {
		t.Fatal(err)
	}
	first, err := os.ReadFile(filepath.Join(dir, "db-logins.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := dbRoles(ctx, url, dir, "", "uplift", io.Discard); err != nil {
		t.Fatal(err)
	}
	second, _ := os.ReadFile(filepath.Join(dir, "db-logins.yaml"))
	if string(first) != string(second) {
		t.Fatal("a second run changed the Secrets")
	}
	urls := regexp.MustCompile(`name: db-login-(\w+)\n(?:.*\n)*?  DATABASE_URL: "([^"]+)"`).FindAllStringSubmatch(string(second), -1)
	if len(urls) != 7 {
		t.Fatalf("%d Secrets, want one per service:\n%s", len(urls), second)
	}
	for _, m := range urls {
		c, err := pgx.Connect(ctx, m[2])
		if err != nil {
			t.Fatalf("%s: %v", m[1], err)
		}
		var user string
		err = c.QueryRow(ctx, `SELECT current_user`).Scan(&user)
		c.Close(ctx)
		if err != nil || user != "uplift_"+m[1] {
			t.Errorf("db-login-%s signs in as %q (%v)", m[1], user, err)
		}
		if !strings.Contains(m[2], ":"+strings.TrimSpace(read(t, filepath.Join(dir, m[1]+".password")))+"@") {
			t.Errorf("db-login-%s does not carry its kept password", m[1])
		}
	}
	if err := dbRoles(ctx, url, dir, "postgres:5432", "uplift", io.Discard); err != nil {
		t.Fatal(err)
	}
	if third := read(t, filepath.Join(dir, "db-logins.yaml")); strings.Count(third, "@postgres:5432/") != 7 {
		t.Errorf("-host did not reach every Secret:\n%s", third)
	}
}

// TestDBRolesSQLRunsAsIs: the printed script, run twice on an empty
// database as psql would, makes every login.
func TestDBRolesSQLRunsAsIs(t *testing.T) {
	ctx := context.Background()
	url := pgtest.URL(t)
	var b strings.Builder
	if err := printLoginSQL(&b); err != nil {
		t.Fatal(err)
	}
	c, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	for range 2 {
		if _, err := c.Exec(ctx, b.String()); err != nil {
			t.Fatal(err)
		}
	}
	var owned int
	if err := c.QueryRow(ctx, `SELECT count(*) FROM pg_namespace WHERE pg_get_userbyid(nspowner) = 'uplift_' || nspname`).Scan(&owned); err != nil || owned != 7 {
		t.Fatalf("%d schemas owned by their login (%v), want 7", owned, err)
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
