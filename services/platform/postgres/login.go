package postgres

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// LoginPrefix starts the name of every service's login, so the roles of
// Uplift stand apart from a managed database's own (and from a schema
// named like the service, which the role owns).
const LoginPrefix = "uplift_"

// LoginName is the PostgreSQL role the service owning schema connects as.
func LoginName(schema string) string { return LoginPrefix + schema }

// LoginSQL is the SQL that makes role a login owning schema in the
// database it runs in, with no right on any other service's schema: the
// schema's tables are readable by their owner alone, and a schema grants
// nothing to PUBLIC. It can run any number of times. A schema an earlier
// release migrated as the administrator is handed over, with everything
// in it, so the login can migrate it on. The role gets no password here:
// SetPassword, or `ALTER ROLE … PASSWORD` by hand.
//
// The administrator running it needs CREATEROLE and the right to create
// schemas (a managed PostgreSQL's master user has both); it becomes a
// member of the role when it is not a superuser, since only a member may
// give a role what it owns.
func LoginSQL(schema, role string) (string, error) {
	if !schemaName.MatchString(schema) {
		return "", fmt.Errorf("postgres: bad schema name %q", schema)
	}
	if !schemaName.MatchString(role) {
		return "", fmt.Errorf("postgres: bad role name %q", role)
	}
	// One DO block: psql runs it as one statement, and PL/pgSQL gives the
	// "if it is not there yet" that CREATE ROLE lacks.
	return strings.NewReplacer("{schema}", schema, "{role}", role).Replace(`DO $login$
DECLARE
	obj record;
BEGIN
	-- The role is the cluster's: other databases' runs may be changing it
	-- at this moment, so it is only written when it is not as it should be
	-- (two writes of one role at once fail with "tuple concurrently updated").
	IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '{role}') THEN
		CREATE ROLE {role} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS;
	ELSIF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '{role}' AND rolcanlogin AND NOT rolsuper
	                  AND NOT rolcreatedb AND NOT rolcreaterole AND NOT rolreplication AND NOT rolbypassrls) THEN
		ALTER ROLE {role} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS;
	END IF;
	-- Open sends search_path at connect; a pooler that drops that
	-- parameter (PgBouncer's ignore_startup_parameters) still lands the
	-- login in its schema, never in public.
	IF NOT EXISTS (SELECT 1 FROM pg_db_role_setting s JOIN pg_roles r ON r.oid = s.setrole
	               WHERE r.rolname = '{role}' AND s.setdatabase = 0 AND s.setconfig = ARRAY['search_path={schema}']) THEN
		ALTER ROLE {role} SET search_path = {schema};
	END IF;
	IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user)
	   AND NOT pg_has_role(current_user, '{role}', 'MEMBER') THEN
		EXECUTE format('GRANT {role} TO %I', current_user);
	END IF;
	EXECUTE format('GRANT CONNECT, TEMPORARY ON DATABASE %I TO {role}', current_database());
	IF NOT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = '{schema}') THEN
		CREATE SCHEMA {schema} AUTHORIZATION {role};
	END IF;
	ALTER SCHEMA {schema} OWNER TO {role};
	REVOKE ALL ON SCHEMA {schema} FROM PUBLIC;
	-- Tables, views and free-standing sequences; indexes and the sequences
	-- of serial and identity columns follow their table.
	FOR obj IN
		SELECT c.relname, c.relkind FROM pg_class c
		WHERE c.relnamespace = '{schema}'::regnamespace AND c.relkind IN ('r', 'p', 'v', 'm', 'f', 'S')
		  AND pg_get_userbyid(c.relowner) <> '{role}'
		  AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid
		                  AND d.deptype IN ('a', 'i') AND d.refclassid = 'pg_class'::regclass)
	LOOP
		EXECUTE format('ALTER %s {schema}.%I OWNER TO {role}',
			CASE obj.relkind WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW' WHEN 'f' THEN 'FOREIGN TABLE'
			                 WHEN 'S' THEN 'SEQUENCE' ELSE 'TABLE' END, obj.relname);
	END LOOP;
	FOR obj IN
		SELECT p.oid::regprocedure AS fn, p.prokind FROM pg_proc p
		WHERE p.pronamespace = '{schema}'::regnamespace AND pg_get_userbyid(p.proowner) <> '{role}'
	LOOP
		EXECUTE format('ALTER %s %s OWNER TO {role}', CASE obj.prokind WHEN 'p' THEN 'PROCEDURE' ELSE 'FUNCTION' END, obj.fn);
	END LOOP;
	FOR obj IN
		SELECT t.typname FROM pg_type t
		WHERE t.typnamespace = '{schema}'::regnamespace AND t.typtype IN ('e', 'd', 'r')
		  AND pg_get_userbyid(t.typowner) <> '{role}'
	LOOP
		EXECUTE format('ALTER TYPE {schema}.%I OWNER TO {role}', obj.typname);
	END LOOP;
END
$login$;
`), nil
}

// EnsureLogin runs LoginSQL for schema and role on admin's database.
func EnsureLogin(ctx context.Context, admin *pgx.Conn, schema, role string) error {
	sql, err := LoginSQL(schema, role)
	if err != nil {
		return err
	}
	// Two stacks (or tests) making the same login at once on two databases
	// of one cluster race on the role, which is the cluster's, while an
	// advisory lock is only its database's: the loser of CREATE ROLE or of
	// an ALTER ROLE gets a duplicate or a concurrent update, and a second
	// try finds the role made.
	// Runs on one database at once (two stacks on one) wait for each other.
	// The other run holds the role's row until it commits, so the tries
	// wait longer each time (50 ms, 100 ms, … 2.25 s in all): five tries
	// at once all lost to a stack making its seven logins beside them.
	locked := `SELECT pg_advisory_xact_lock(hashtext('uplift.login.` + role + `'));` + "\n" + sql
	for try := 1; ; try++ {
		_, err = admin.Exec(ctx, locked)
		var pgErr *pgconn.PgError
		raced := errors.As(err, &pgErr) && (pgErr.Code == "42710" || pgErr.Code == "23505" ||
			(pgErr.Code == "XX000" && strings.Contains(pgErr.Message, "concurrently")))
		if !raced || try == loginTries {
			break
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("login %s for schema %s: %w", role, schema, ctx.Err())
		case <-time.After(time.Duration(try) * 50 * time.Millisecond):
		}
	}
	if err != nil {
		return fmt.Errorf("login %s for schema %s: %w", role, schema, err)
	}
	return nil
}

// loginTries bounds EnsureLogin's tries when another run races it.
const loginTries = 10

// SetPassword gives role password (where PostgreSQL checks passwords; a
// trust login ignores it).
func SetPassword(ctx context.Context, admin *pgx.Conn, role, password string) error {
	if !schemaName.MatchString(role) {
		return fmt.Errorf("postgres: bad role name %q", role)
	}
	lit, err := admin.PgConn().EscapeString(password)
	if err != nil {
		return err
	}
	// ALTER ROLE takes no bind parameters.
	if _, err := admin.Exec(ctx, "ALTER ROLE "+role+" PASSWORD '"+lit+"'"); err != nil {
		return fmt.Errorf("login %s: password: %w", role, err)
	}
	return nil
}

// LoginURL is adminURL (a postgres:// URL) signed in as role with
// password instead (none when empty): same host, database and options.
func LoginURL(adminURL, role, password string) (string, error) {
	u, err := url.Parse(adminURL)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		return "", fmt.Errorf("postgres: DATABASE_URL must be a postgres:// URL")
	}
	if password == "" {
		u.User = url.User(role)
	} else {
		u.User = url.UserPassword(role, password)
	}
	return u.String(), nil
}
