package postgres_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"testing"
	"testing/fstest"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"uplift.dev/platform/pgtest"
	"uplift.dev/platform/postgres"
)

// shopMigrations are what a service's look like: a table with an identity
// column, a view over it, an index.
var shopMigrations = fstest.MapFS{
	"0001_orders.sql": {Data: []byte(`CREATE TABLE orders (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, total int NOT NULL);
		CREATE VIEW big_orders AS SELECT * FROM orders WHERE total > 100`)},
	"0002_index.sql": {Data: []byte(`CREATE INDEX orders_total ON orders (total)`)},
}

var bankMigrations = fstest.MapFS{
	"0001_accounts.sql": {Data: []byte(`CREATE TABLE accounts (id serial PRIMARY KEY, balance int NOT NULL);
		INSERT INTO accounts (balance) VALUES (1000)`)},
}

// login makes a login for schema in the database at url, with a name of
// its own (roles are the cluster's, and tests run in parallel), dropped
// when the test ends, and returns the login's URL.
func login(t *testing.T, url, schema string) (role, loginURL string) {
	t.Helper()
	ctx := context.Background()
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	role = "uplift_test_" + hex.EncodeToString(b) + "_" + schema
	admin, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	// Twice: it is what every `make run` does.
	for range 2 {
		if err := postgres.EnsureLogin(ctx, admin, schema, role); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() {
		c, err := pgx.Connect(context.Background(), url)
		if err != nil {
			return
		}
		defer c.Close(context.Background())
		_, _ = c.Exec(context.Background(), "DROP OWNED BY "+role)
		_, _ = c.Exec(context.Background(), "DROP ROLE IF EXISTS "+role)
	})
	loginURL, err = postgres.LoginURL(url, role, "")
	if err != nil {
		t.Fatal(err)
	}
	return role, loginURL
}

// openMigrated opens schema as the login at url and migrates it, as a
// service's `NAME migrate` and its server do.
func openMigrated(t *testing.T, url, schema string, set fstest.MapFS) *pgxpool.Pool {
	t.Helper()
	ctx := context.Background()
	pool, err := postgres.Open(ctx, url, schema)
	if err != nil {
		t.Fatalf("open %s: %v", schema, err)
	}
	t.Cleanup(pool.Close)
	for range 2 {
		if err := postgres.Migrate(ctx, pool, set); err != nil {
			t.Fatalf("migrate %s as its login: %v", schema, err)
		}
	}
	return pool
}

func wantDenied(t *testing.T, what string, err error) {
	t.Helper()
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) || pgErr.Code != "42501" {
		t.Errorf("%s: got %v, want permission denied (42501)", what, err)
	}
}

// Each service connects as its own login: it migrates and uses its schema,
// and every reach into another service's schema is refused.
func TestALoginUsesItsOwnSchemaOnly(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url := pgtest.URL(t)
	shopRole, shopURL := login(t, url, "shop")
	_, bankURL := login(t, url, "bank")
	shop := openMigrated(t, shopURL, "shop", shopMigrations)
	bank := openMigrated(t, bankURL, "bank", bankMigrations)

	var user string
	var n int
	if err := shop.QueryRow(ctx, `INSERT INTO orders (total) VALUES (250) RETURNING current_user`).Scan(&user); err != nil {
		t.Fatalf("the login's own table: %v", err)
	}
	if user != shopRole {
		t.Fatalf("connected as %s, want %s", user, shopRole)
	}
	if err := shop.QueryRow(ctx, `SELECT count(*) FROM big_orders`).Scan(&n); err != nil || n != 1 {
		t.Fatalf("the login's own view: %d, %v", n, err)
	}
	if err := bank.QueryRow(ctx, `SELECT balance FROM accounts`).Scan(&n); err != nil || n != 1000 {
		t.Fatalf("the other login's own table: %d, %v", n, err)
	}

	_, err := shop.Exec(ctx, `SELECT * FROM bank.accounts`)
	wantDenied(t, "reading another service's table", err)
	_, err = shop.Exec(ctx, `UPDATE bank.accounts SET balance = 0`)
	wantDenied(t, "writing another service's table", err)
	_, err = shop.Exec(ctx, `CREATE TABLE bank.planted (n int)`)
	wantDenied(t, "creating a table in another service's schema", err)
	_, err = bank.Exec(ctx, `SELECT * FROM shop.orders`)
	wantDenied(t, "the other way round", err)
	_, err = shop.Exec(ctx, `CREATE SCHEMA elsewhere`)
	wantDenied(t, "making a schema of its own", err)
	// Named in the search path, the other schema is simply not there.
	c, err := shop.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Release()
	if _, err := c.Exec(ctx, `SET search_path = bank`); err != nil {
		t.Fatal(err)
	}
	_, err = c.Exec(ctx, `SELECT * FROM accounts`)
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) || pgErr.Code != "42P01" {
		t.Errorf("the other schema on the search path: got %v, want undefined table (42P01)", err)
	}
	_, _ = c.Exec(ctx, `RESET search_path`)
}

// A deployment that ran before the logins existed has schemas the
// administrator made and migrated; making the login hands them over, so
// the login migrates on and reads what was there.
func TestALoginTakesOverASchemaTheAdministratorMigrated(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url := pgtest.URL(t)
	before, err := postgres.Open(ctx, url, "shop")
	if err != nil {
		t.Fatal(err)
	}
	if err := postgres.Migrate(ctx, before, shopMigrations); err != nil {
		t.Fatal(err)
	}
	if _, err := before.Exec(ctx, `INSERT INTO orders (total) VALUES (300)`); err != nil {
		t.Fatal(err)
	}
	before.Close()

	role, loginURL := login(t, url, "shop")
	next := fstest.MapFS{"0003_note.sql": {Data: []byte(`ALTER TABLE orders ADD COLUMN note text NOT NULL DEFAULT ''`)}}
	for name, f := range shopMigrations {
		next[name] = f
	}
	pool := openMigrated(t, loginURL, "shop", next)
	var n int
	if err := pool.QueryRow(ctx, `INSERT INTO orders (total, note) VALUES (500, 'after') RETURNING (SELECT count(*) FROM big_orders)`).Scan(&n); err != nil {
		t.Fatalf("after the handover: %v", err)
	}
	if n != 1 {
		t.Errorf("big_orders saw %d rows before the insert, want 1", n)
	}
	var owners []string
	rows, err := pool.Query(ctx, `SELECT DISTINCT pg_get_userbyid(relowner) FROM pg_class WHERE relnamespace = 'shop'::regnamespace`)
	if err != nil {
		t.Fatal(err)
	}
	if owners, err = pgx.CollectRows(rows, pgx.RowTo[string]); err != nil {
		t.Fatal(err)
	}
	if len(owners) != 1 || owners[0] != role {
		t.Errorf("the schema's objects are owned by %v, want %s alone", owners, role)
	}
}

func TestLoginURLKeepsAllButTheUser(t *testing.T) {
	got, err := postgres.LoginURL("postgres://admin:secret@db.example:5432/uplift?sslmode=require&pool_max_conns=3", "uplift_users", "p@ss/word")
	if err != nil {
		t.Fatal(err)
	}
	if want := "postgres://uplift_users:p%40ss%2Fword@db.example:5432/uplift?sslmode=require&pool_max_conns=3"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if _, err := postgres.LoginSQL("users; DROP TABLE x", "uplift_users"); err == nil {
		t.Error("a bad schema name was accepted")
	}
	if _, err := postgres.LoginSQL("users", "Uplift-Users"); err == nil {
		t.Error("a bad role name was accepted")
	}
}

// Stacks and tests on one cluster make the same login on their own
// databases at once: roles are the cluster's, so they race, and every one
// of them must still get the login.
func TestOneLoginMadeOnManyDatabasesAtOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	role := "uplift_test_" + hex.EncodeToString(b) + "_shop"
	// Each maker makes seven logins, as a stack does, so that the others'
	// transactions on the shared role keep coming while one retries.
	others := make([]string, 6)
	for i := range others {
		others[i] = fmt.Sprintf("%s_%d", role, i)
	}
	urls := make([]string, 4)
	for i := range urls {
		urls[i] = pgtest.URL(t)
	}
	t.Cleanup(func() {
		for _, u := range urls {
			if c, err := pgx.Connect(context.Background(), u); err == nil {
				for _, r := range append([]string{role}, others...) {
					_, _ = c.Exec(context.Background(), "DROP OWNED BY "+r)
				}
				c.Close(context.Background())
			}
		}
		if c, err := pgx.Connect(context.Background(), urls[0]); err == nil {
			for _, r := range append([]string{role}, others...) {
				_, _ = c.Exec(context.Background(), "DROP ROLE IF EXISTS "+r)
			}
			c.Close(context.Background())
		}
	})
	errs := make(chan error, 2*len(urls))
	for range 2 {
		for _, u := range urls {
			go func() {
				c, err := pgx.Connect(ctx, u)
				if err == nil {
					if err = postgres.EnsureLogin(ctx, c, "shop", role); err == nil {
						for i, r := range others {
							if err = postgres.EnsureLogin(ctx, c, fmt.Sprintf("shop_%d", i), r); err != nil {
								break
							}
						}
					}
					c.Close(ctx)
				}
				errs <- err
			}()
		}
	}
	for range cap(errs) {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	for _, u := range urls {
		loginURL, _ := postgres.LoginURL(u, role, "")
		openMigrated(t, loginURL, "shop", shopMigrations)
	}
}
