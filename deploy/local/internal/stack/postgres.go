package stack

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
)

// startPostgres runs a project-local cluster in .local/pg, creating it on
// first use. initdb refuses to run as root, so as root the cluster belongs
// to the postgres user.
func (s *Stack) startPostgres(ctx context.Context) (string, error) {
	bin, err := pgBinDir()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(s.StateDir, "pg")
	// Not bound to ctx: the cluster is stopped after ctx (Ctrl-C) has ended.
	asUser := func(argv ...string) *exec.Cmd {
		if os.Geteuid() == 0 {
			return exec.Command("runuser", append([]string{"-u", "postgres", "--"}, argv...)...)
		}
		return exec.Command(argv[0], argv[1:]...)
	}
	if os.Geteuid() == 0 {
		_ = os.MkdirAll(s.StateDir, 0o755)
		if asUser("test", "-x", s.StateDir).Run() != nil {
			// A checkout under a private directory (mktemp -d) is not reachable
			// for the postgres user; keep the cluster beside it in /tmp instead.
			sum := sha256.Sum256([]byte(s.Root))
			dir = filepath.Join(os.TempDir(), "uplift-pg-"+hex.EncodeToString(sum[:4]))
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "PG_VERSION")); err != nil {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return "", err
		}
		if os.Geteuid() == 0 {
			if err := chownToPostgres(dir); err != nil {
				return "", err
			}
		}
		s.say("creating a local PostgreSQL cluster in %s", dir)
		if out, err := asUser(filepath.Join(bin, "initdb"), "-D", dir, "-U", "postgres", "--auth=trust", "-E", "UTF8").CombinedOutput(); err != nil {
			return "", fmt.Errorf("initdb: %v\n%s", err, out)
		}
	}
	port := strconv.Itoa(s.Ports.Postgres)
	url := "postgres://postgres@127.0.0.1:" + port + "/uplift?sslmode=disable"
	status := asUser(filepath.Join(bin, "pg_ctl"), "-D", dir, "status")
	if status.Run() != nil {
		if err := portFree("127.0.0.1:" + port); err != nil {
			return "", err
		}
		logFile := filepath.Join(s.LogDir, "postgres.log")
		if os.Geteuid() == 0 {
			_ = os.WriteFile(logFile, nil, 0o644)
			_ = chownToPostgres(logFile)
		}
		out, err := asUser(filepath.Join(bin, "pg_ctl"), "-D", dir, "-l", logFile, "-w",
			"-o", "-p "+port+" -k "+dir+" -c listen_addresses=127.0.0.1", "start").CombinedOutput()
		if err != nil {
			return "", fmt.Errorf("pg_ctl start: %v\n%s", err, out)
		}
		s.stopPG = func() {
			_ = asUser(filepath.Join(bin, "pg_ctl"), "-D", dir, "-m", "fast", "-w", "stop").Run()
		}
	}
	admin, err := pgx.Connect(ctx, strings.Replace(url, "/uplift?", "/postgres?", 1))
	if err != nil {
		return "", fmt.Errorf("local postgres: %w", err)
	}
	defer admin.Close(ctx)
	var exists bool
	if err := admin.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = 'uplift')`).Scan(&exists); err != nil {
		return "", err
	}
	if !exists {
		if _, err := admin.Exec(ctx, `CREATE DATABASE uplift`); err != nil {
			return "", err
		}
	}
	return url, nil
}

func pgBinDir() (string, error) {
	if p, err := exec.LookPath("initdb"); err == nil {
		return filepath.Dir(p), nil
	}
	matches, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	if len(matches) > 0 {
		return filepath.Dir(matches[len(matches)-1]), nil
	}
	return "", fmt.Errorf("PostgreSQL is not installed (no initdb found); install it or set DATABASE_URL")
}

func chownToPostgres(path string) error {
	u, err := user.Lookup("postgres")
	if err != nil {
		return fmt.Errorf("running as root needs a 'postgres' user to own the local cluster: %w", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	return os.Chown(path, uid, gid)
}
