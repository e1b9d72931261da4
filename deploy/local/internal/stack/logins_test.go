package stack

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"uplift.dev/platform/natsauth"
	"uplift.dev/platform/pgtest"
)

// lastValue is the value a program sees for key in env: the last one.
func lastValue(env []string, key string) string {
	v := ""
	for _, kv := range env {
		if k, val, ok := strings.Cut(kv, "="); ok && k == key {
			v = val
		}
	}
	return v
}

// Every program connects as its own service's login: each service's
// server, the studio worker as studio and the review worker as review. The
// logins are made on a database of the test's own, as `make run` makes
// them: each owns its schema, reads no other's, and making them again
// changes nothing.
func TestEachProgramConnectsAsItsOwnLogin(t *testing.T) {
	ctx := context.Background()
	url := pgtest.URL(t)
	s, err := New(t.TempDir(), 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s.natsKeys, err = natsauth.NewKeyring(natsauth.Programs()...); err != nil {
		t.Fatal(err)
	}
	s.env = []string{"DATABASE_URL=" + url}
	for range 2 {
		if err := s.makeLogins(ctx, url); err != nil {
			t.Fatal(err)
		}
	}
	programs := map[string][]string{"studioworker": s.studioWorkerEnv(0), "reviewworker": append(s.Env(), s.reviewWorkerEnv(0)...)}
	for _, name := range ServiceNames {
		programs[name] = s.serverEnv(name, 0)
	}
	want := map[string]string{"studioworker": "studio", "reviewworker": "review"}
	for name, env := range programs {
		service := cmp.Or(want[name], name)
		c, err := pgx.Connect(ctx, lastValue(env, "DATABASE_URL"))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var user string
		err = c.QueryRow(ctx, `SELECT current_user`).Scan(&user)
		c.Close(ctx)
		if err != nil || user != "uplift_"+service {
			t.Errorf("%s connects as %q (%v), want uplift_%s", name, user, err, service)
		}
	}
	// Each login makes a table in its schema; no other login reads it.
	for _, name := range ServiceNames {
		c, err := pgx.Connect(ctx, s.dbURLs[name])
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.Exec(ctx, `CREATE TABLE `+name+`.probe (n int); INSERT INTO `+name+`.probe VALUES (1)`); err != nil {
			t.Errorf("%s in its own schema: %v", name, err)
		}
		c.Close(ctx)
	}
	for _, name := range ServiceNames {
		c, err := pgx.Connect(ctx, s.dbURLs[name])
		if err != nil {
			t.Fatal(err)
		}
		for _, other := range ServiceNames {
			_, err := c.Exec(ctx, `SELECT n FROM `+other+`.probe`)
			var pgErr *pgconn.PgError
			denied := errors.As(err, &pgErr) && pgErr.Code == "42501"
			if other == name && err != nil {
				t.Errorf("%s reading its own table: %v", name, err)
			}
			if other != name && !denied {
				t.Errorf("%s reading %s's table: %v, want permission denied", name, other, err)
			}
		}
		c.Close(ctx)
	}
	if !slices.Contains(s.Env(), "DATABASE_URL="+url) {
		t.Error("the stack's own environment (the tests') lost the administrator's DATABASE_URL")
	}
}
