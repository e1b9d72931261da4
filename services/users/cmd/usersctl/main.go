// Command usersctl is the operators' tool for the roles Uplift has no screen
// for: it grants and revokes the admin claim and the uplifter flag.
//
//	usersctl grant-admin|revoke-admin|grant-uplifter|revoke-uplifter <email>
//
// It reads DATABASE_URL, FIREBASE_PROJECT_ID and FIREBASE_AUTH_EMULATOR_HOST
// like the users service, and USER to name the operator in the audit log,
// where every change is written. A granted role shows in the user's ID token
// once it is next refreshed; a revocation also ends the user's sessions, so
// the services refuse the token they hold within auth.RevocationCheckTTL.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"uplift.dev/platform/auth"
	"uplift.dev/platform/config"
	"uplift.dev/platform/postgres"
	"uplift.dev/users/internal/adapters/firebase"
	pgrepo "uplift.dev/users/internal/adapters/postgres"
	"uplift.dev/users/internal/app"
	"uplift.dev/users/internal/domain"
)

// settings are the few the CLI needs; the names match the service's.
type settings struct {
	DatabaseURL              string `env:"DATABASE_URL" required:"true" secret:"true"`
	FirebaseProjectID        string `env:"FIREBASE_PROJECT_ID" required:"true"`
	FirebaseAuthEmulatorHost string `env:"FIREBASE_AUTH_EMULATOR_HOST"`
}

const usage = `usage: usersctl <command> <email>

commands:
  grant-admin      set the "admin" claim (admin calls: list and delete users)
  revoke-admin     clear the "admin" claim
  grant-uplifter   set the "uplifter" claim and the stored isUplifter flag
                   (act on behalf of store owners)
  revoke-uplifter  clear both

environment: DATABASE_URL, FIREBASE_PROJECT_ID, FIREBASE_AUTH_EMULATOR_HOST
(for the local emulator). Other claims on the account are kept. A grant
shows once the user's token is refreshed; a revoke also signs the user out
everywhere (within 30 s), so the role is gone from the token they hold.
`

// errUsage marks a mistake in the command line, answered with the usage.
var errUsage = errors.New("bad usage")

var commands = map[string]struct {
	role domain.Role
	on   bool
}{
	"grant-admin":     {domain.RoleAdmin, true},
	"revoke-admin":    {domain.RoleAdmin, false},
	"grant-uplifter":  {domain.RoleUplifter, true},
	"revoke-uplifter": {domain.RoleUplifter, false},
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.LookupEnv, os.Stdout)
	stop()
	switch {
	case errors.Is(err, errUsage):
		fmt.Fprintf(os.Stderr, "usersctl: %v\n\n%s", err, usage)
		os.Exit(2)
	case err != nil:
		fmt.Fprintf(os.Stderr, "usersctl: %v\n", err)
		os.Exit(1)
	}
}

// operator names who ran the command in the audit log: "usersctl:" and the
// login name ($USER), or just "usersctl" when that is unknown.
func operator(lookup config.Lookup) string {
	if name, ok := lookup("USER"); ok && name != "" {
		return "usersctl:" + name
	}
	return "usersctl"
}

// run does one command; main only maps its error to an exit status.
func run(ctx context.Context, args []string, lookup config.Lookup, out io.Writer) error {
	if len(args) == 1 && (args[0] == "-h" || args[0] == "--help" || args[0] == "help") {
		_, err := io.WriteString(out, usage)
		return err
	}
	if len(args) != 2 {
		return fmt.Errorf("%w: need a command and an email", errUsage)
	}
	cmd, ok := commands[args[0]]
	if !ok {
		return fmt.Errorf("%w: unknown command %q", errUsage, args[0])
	}
	email := args[1]
	if _, err := domain.NormalizeEmail(email); err != nil {
		return fmt.Errorf("%w: %q is not a valid email", errUsage, email)
	}
	var s settings
	if err := config.Load(&s, lookup); err != nil {
		return err
	}
	fb, err := auth.NewFirebaseClient(ctx, s.FirebaseProjectID, s.FirebaseAuthEmulatorHost)
	if err != nil {
		return err
	}
	pool, err := postgres.Open(ctx, s.DatabaseURL, "users")
	if err != nil {
		return err
	}
	defer pool.Close()
	a := app.New(firebase.Identity{Client: fb}, pgrepo.Repo{Pool: pool}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	res, err := a.SetRole(ctx, operator(lookup), email, cmd.role, cmd.on)
	switch {
	case errors.Is(err, domain.ErrNotFound):
		return fmt.Errorf("no Firebase account has the email %s", email)
	case err != nil:
		return err
	}
	verb := "granted"
	if !cmd.on {
		verb = "revoked"
	}
	fmt.Fprintf(out, "%s %s for %s (uid %s)\n", cmd.role, verb, email, res.UID)
	if cmd.role == domain.RoleUplifter && !res.Stored {
		fmt.Fprintf(out, "note: %s has no stored user yet; only the claim changed\n", email)
	}
	return nil
}
