package stack

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"

	"github.com/jackc/pgx/v5"

	"uplift.dev/platform/postgres"
)

// Login is one service's PostgreSQL login on a database.
type Login struct {
	Service, Role string
	// URL is the administrator's DATABASE_URL signed in as Role instead.
	URL string
}

// Logins makes (or finds) every service's login on the database at
// adminURL, each owning its service's schema and nothing of another's
// (postgres.LoginSQL), and returns them in ServiceNames order. With
// password set, each login gets it: "" leaves passwords as they are (the
// local clusters trust loopback, so none is needed).
func Logins(ctx context.Context, adminURL string, password func(service string) (string, error)) ([]Login, error) {
	admin, err := pgx.Connect(ctx, adminURL)
	if err != nil {
		return nil, fmt.Errorf("database logins: %w", err)
	}
	defer admin.Close(ctx)
	out := make([]Login, 0, len(ServiceNames))
	for _, name := range ServiceNames {
		l := Login{Service: name, Role: postgres.LoginName(name)}
		if err := postgres.EnsureLogin(ctx, admin, name, l.Role); err != nil {
			return nil, fmt.Errorf("database logins (DATABASE_URL must be an administrator's, with CREATEROLE): %w", err)
		}
		pw := ""
		if password != nil {
			if pw, err = password(name); err != nil {
				return nil, err
			}
			if pw != "" {
				if err := postgres.SetPassword(ctx, admin, l.Role, pw); err != nil {
					return nil, err
				}
			}
		}
		if l.URL, err = postgres.LoginURL(adminURL, l.Role, pw); err != nil {
			return nil, err
		}
		out = append(out, l)
	}
	return out, nil
}

// makeLogins gives every service of the stack its own login. A DATABASE_URL
// with a password means PostgreSQL checks passwords there: each login then
// gets a new random one for this run, never written down.
func (s *Stack) makeLogins(ctx context.Context, adminURL string) error {
	var password func(string) (string, error)
	if u, err := url.Parse(adminURL); err == nil && u.User != nil {
		if _, ok := u.User.Password(); ok {
			password = func(string) (string, error) {
				b := make([]byte, 24)
				_, err := rand.Read(b)
				return hex.EncodeToString(b), err
			}
		}
	}
	logins, err := Logins(ctx, adminURL, password)
	if err != nil {
		return err
	}
	s.dbURLs = map[string]string{}
	for _, l := range logins {
		s.dbURLs[l.Service] = l.URL
	}
	return nil
}

// databaseURL is the DATABASE_URL of a service's programs (its server, its
// `NAME migrate`, its worker): its own login.
func (s *Stack) databaseURL(service string) string {
	return "DATABASE_URL=" + s.dbURLs[service]
}
