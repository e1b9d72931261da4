// Command schemacompat checks the expand-then-contract rule of
// docs/operations.md: while a release rolls out, the previous release runs
// on the schema the new one migrated, so the previous release's database
// tests must pass on it.
//
//	schemacompat [-rev REV]
//
// It migrates a template database with this tree's `NAME migrate` for every
// service, checks REV out beside the tree (the last tag, or HEAD~1: the
// previous state of main, each merge being a release), and runs REV's tests
// of every service package that uses PostgreSQL (pgtest or servicetest) with
// PGTEST_TEMPLATE set, so each test's database is a copy of the template,
// its own migrations find nothing left to apply, and its queries meet the
// new schema. REV's harness must know PGTEST_TEMPLATE; an older one is
// replaced by this tree's pgtest. It needs DATABASE_URL (a role that may
// create databases); `make schema-compat` runs it on the local stack.
package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/jackc/pgx/v5"
)

func main() {
	rev := flag.String("rev", os.Getenv("SCHEMA_COMPAT_REV"), "the previous release (default: the last tag, else HEAD~1)")
	flag.Parse()
	if err := run(context.Background(), *rev); err != nil {
		fmt.Fprintln(os.Stderr, "schemacompat:", err)
		os.Exit(1)
	}
}

const pgtestFile = "services/platform/pgtest/pgtest.go"

func run(ctx context.Context, rev string) error {
	dbURL := os.Getenv("DATABASE_URL")
	if dbURL == "" {
		return errors.New("DATABASE_URL is not set (run it with `make schema-compat`)")
	}
	root, err := output(".", "git", "rev-parse", "--show-toplevel")
	if err != nil {
		return err
	}
	chosen := rev != ""
	if !chosen {
		if rev, err = output(root, "git", "describe", "--tags", "--abbrev=0"); err != nil {
			rev = "HEAD~1"
		}
	}
	sha, err := output(root, "git", "rev-parse", "--verify", "--quiet", rev+"^{commit}")
	if err != nil {
		if !chosen {
			fmt.Printf("schemacompat: this clone has no previous release (%s; a shallow clone?): nothing to check\n", rev)
			return nil
		}
		return fmt.Errorf("previous release %q: %w", rev, err)
	}
	services, err := servicesWithMigrations(root)
	if err != nil {
		return err
	}
	if err := exec.Command("git", "-C", root, "diff", "--quiet", sha, "--", "services/*/migrations", "services/platform/events/migrations").Run(); err == nil {
		fmt.Printf("schemacompat: no migration has changed since %s (%.12s): nothing to check\n", rev, sha)
		return nil
	}

	work, err := os.MkdirTemp("", "schemacompat-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)

	template, templateURL, drop, err := makeDatabase(ctx, dbURL)
	if err != nil {
		return err
	}
	defer drop()
	bin := filepath.Join(work, "bin")
	build := []string{"build", "-o", bin + "/"}
	for _, s := range services {
		build = append(build, "./services/"+s+"/cmd/"+s)
	}
	if err := runIn(root, nil, "go", build...); err != nil {
		return err
	}
	for _, s := range services {
		if err := runIn(root, []string{"DATABASE_URL=" + templateURL, "LOG_LEVEL=warn"}, filepath.Join(bin, s), "migrate"); err != nil {
			return fmt.Errorf("%s migrate (this tree): %w", s, err)
		}
	}
	fmt.Printf("schemacompat: %s migrated by this tree into %s\n", strings.Join(services, ", "), template)

	prev := filepath.Join(work, "prev")
	if err := runIn(root, nil, "git", "worktree", "add", "--quiet", "--detach", prev, sha); err != nil {
		return err
	}
	defer exec.Command("git", "-C", root, "worktree", "remove", "--force", prev).Run() //nolint:errcheck // a leftover is pruned by git
	old, err := os.ReadFile(filepath.Join(prev, pgtestFile))
	if err != nil {
		return err
	}
	if !bytes.Contains(old, []byte("PGTEST_TEMPLATE")) {
		mine, err := os.ReadFile(filepath.Join(root, pgtestFile))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(prev, pgtestFile), mine, 0o644); err != nil {
			return err
		}
		fmt.Printf("schemacompat: %s's pgtest knows no PGTEST_TEMPLATE; using this tree's\n", rev)
	}
	pkgs, err := databasePackages(prev, services)
	if err != nil {
		return err
	}
	fmt.Printf("schemacompat: running %d test packages of %s (%.12s) on the new schema\n", len(pkgs), rev, sha)
	if err := runIn(prev, []string{"PGTEST_TEMPLATE=" + template, "UPLIFT_REQUIRE_INFRA=1"}, "go", append([]string{"test", "-count=1"}, pkgs...)...); err != nil {
		return fmt.Errorf("the previous release (%s) fails on the schema this tree migrates: a migration changed or dropped something it uses (expand first, contract a release later: docs/operations.md): %w", rev, err)
	}
	fmt.Printf("schemacompat: %s passes on the schema this tree migrates\n", rev)
	return nil
}

// servicesWithMigrations are the folders of services/ with a migrations
// folder and a binary of the same name: the schemas' owners.
func servicesWithMigrations(root string) ([]string, error) {
	dirs, err := filepath.Glob(filepath.Join(root, "services", "*", "migrations"))
	if err != nil {
		return nil, err
	}
	var out []string
	for _, d := range dirs {
		name := filepath.Base(filepath.Dir(d))
		if _, err := os.Stat(filepath.Join(root, "services", name, "cmd", name, "main.go")); err == nil {
			out = append(out, name)
		}
	}
	if len(out) == 0 {
		return nil, errors.New("no service with migrations under services/")
	}
	return out, nil
}

// databasePackages are the packages of the services (in the tree at dir)
// whose tests make a database with pgtest, directly or through servicetest.
func databasePackages(dir string, services []string) ([]string, error) {
	args := []string{"list", "-f", `{{.ImportPath}} {{join .TestImports " "}} {{join .XTestImports " "}}`}
	for _, s := range services {
		args = append(args, "./services/"+s+"/...")
	}
	list, err := output(dir, "go", args...)
	if err != nil {
		return nil, err
	}
	var pkgs []string
	for _, line := range strings.Split(list, "\n") {
		fields := strings.Fields(line)
		for _, imp := range fields[min(1, len(fields)):] {
			if imp == "uplift.dev/platform/pgtest" || imp == "uplift.dev/platform/servicetest" {
				pkgs = append(pkgs, fields[0])
				break
			}
		}
	}
	if len(pkgs) == 0 {
		return nil, errors.New("no service test uses a database: the package walk is broken")
	}
	return pkgs, nil
}

// makeDatabase creates an empty database on the server of dbURL and
// returns its name, its URL and how to drop it.
func makeDatabase(ctx context.Context, dbURL string) (string, string, func(), error) {
	admin, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		return "", "", nil, fmt.Errorf("connect: %w", err)
	}
	defer admin.Close(ctx)
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	name := "uplift_compat_" + hex.EncodeToString(b)
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		return "", "", nil, fmt.Errorf("create the template: %w", err)
	}
	u, err := url.Parse(dbURL)
	if err != nil {
		return "", "", nil, err
	}
	u.Path = "/" + name
	drop := func() {
		c, err := pgx.Connect(context.Background(), dbURL)
		if err != nil {
			return
		}
		defer c.Close(context.Background())
		_, _ = c.Exec(context.Background(), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
	}
	return name, u.String(), drop, nil
}

func output(dir, name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("%s %s: %w %s", name, strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return strings.TrimSpace(string(out)), nil
}

func runIn(dir string, env []string, name string, args ...string) error {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s %s: %w", name, strings.Join(args, " "), err)
	}
	return nil
}
