// Command devstack runs Uplift locally on its real parts.
//
//	devstack run                 start everything and wait for Ctrl-C
//	devstack exec [-apps] -- CMD start the parts (and with -apps the whole
//	                             product), run CMD with their addresses in
//	                             its environment, stop everything, exit as CMD;
//	                             -test-keys: services trust tokens signed by
//	                             a local key (make bench)
//	devstack nats-keys [-jwt] DIR  write the NATS keys of a cluster into DIR
//	                             (outside the repository), keeping those
//	                             already there: deploy/README.md
//	devstack db-roles [-sql] [-secrets DIR [-host H:P]]
//	                             make each service's database login on
//	                             DATABASE_URL (an administrator's), or print
//	                             the SQL; -secrets keeps passwords in DIR and
//	                             writes their Secrets: docs/operations.md
//
// UPLIFT_PORT_OFFSET=N (10, 20, … 90) moves every port by N, so that several
// stacks can run side by side, e.g. one per git worktree.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"uplift.dev/devstack/internal/stack"
)

func main() {
	code, err := run()
	if err != nil {
		fmt.Fprintln(os.Stderr, "devstack:", err)
		if code == 0 {
			code = 1
		}
	}
	os.Exit(code)
}

func run() (int, error) {
	if len(os.Args) < 2 {
		return 2, errors.New("usage: devstack run | devstack exec [-apps] [-traces] [-copies N] -- command [args...] | devstack nats-keys [-jwt] DIR | devstack db-roles [-sql] [-secrets DIR]")
	}
	if os.Args[1] == "nats-keys" {
		return natsKeysCommand(os.Args[2:])
	}
	if os.Args[1] == "db-roles" {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		return dbRolesCommand(ctx, os.Args[2:])
	}
	if os.Args[1] == stack.NATSNodeCommand && len(os.Args) == 3 {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		return 0, stack.RunNATSNode(ctx, os.Args[2])
	}
	root, err := repoRoot()
	if err != nil {
		return 1, err
	}
	say := func(format string, args ...any) { fmt.Printf("  "+format+"\n", args...) }
	offset := 0
	if v := os.Getenv(stack.PortOffsetEnv); v != "" {
		if offset, err = strconv.Atoi(v); err != nil {
			return 2, fmt.Errorf("%s=%q is not a number", stack.PortOffsetEnv, v)
		}
	}
	s, err := stack.New(root, offset, say)
	if err != nil {
		return 2, fmt.Errorf("%s: %w", stack.PortOffsetEnv, err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	defer s.Stop()

	switch os.Args[1] {
	case "run":
		start := time.Now()
		fmt.Println("Starting Uplift (logs in .local/logs):")
		s.Traces = true
		if err := s.StartInfra(ctx); err != nil {
			return 1, err
		}
		infra := time.Since(start)
		// Jaeger starts beside the product (its first build takes
		// minutes); its address is printed when it answers.
		s.StartTracesBeside(ctx)
		if err := s.StartApps(ctx); err != nil {
			return 1, err
		}
		fmt.Printf("\nUplift is running (started in %s: infrastructure %s, services and web %s). Open http://localhost:%d\nPress Ctrl-C to stop.\n",
			time.Since(start).Round(100*time.Millisecond), infra.Round(100*time.Millisecond), (time.Since(start) - infra).Round(100*time.Millisecond), s.Ports.Web)
		// A service that dies is restarted with backoff (and said so here
		// and in its log); only Ctrl-C stops the stack.
		<-ctx.Done()
		fmt.Println("\nStopping…")
		return 0, nil
	case "exec":
		fs := flag.NewFlagSet("exec", flag.ContinueOnError)
		apps := fs.Bool("apps", false, "also start the services, gateway and web")
		keys := fs.Bool("test-keys", false, "with -apps: services trust ID tokens signed by a local test key (the benchmark's)")
		copies := fs.Int("copies", 1, "with -apps: copies of each service, worker and the gateway, copy i on 127.0.0.i (make scale-test)")
		traces := fs.Bool("traces", false, "start the trace store (Jaeger, from .bin/jaeger) first and have every program send it its spans; UPLIFT_TRACES_URL is its query API (make test-tracing)")
		natsNodes := fs.Int("nats-nodes", 1, "NATS as a cluster of this many nodes, each a process of its own, JetStream replicating the stream on all (make scale-test)")
		if err := fs.Parse(os.Args[2:]); err != nil {
			return 2, err
		}
		argv := fs.Args()
		if len(argv) == 0 {
			return 2, errors.New("exec needs a command after --")
		}
		fmt.Println("Starting the local stack for:", argv)
		s.ForTests = true
		s.Copies = *copies
		s.NATSNodes = *natsNodes
		s.Traces = *traces
		if err := s.StartInfra(ctx); err != nil {
			return 1, err
		}
		if *traces {
			if err := s.StartTraces(ctx); err != nil {
				return 1, err
			}
		}
		if *keys {
			if err := s.UseTestKeys(); err != nil {
				return 1, err
			}
		}
		if *apps {
			if err := s.StartApps(ctx); err != nil {
				return 1, err
			}
		}
		cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
		cmd.Env = append(os.Environ(), s.Env()...)
		cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
		err := cmd.Run()
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return exit.ExitCode(), nil
		}
		if err != nil {
			return 1, err
		}
		return 0, nil
	default:
		return 2, fmt.Errorf("unknown command %q", os.Args[1])
	}
}

// repoRoot is the directory holding go.work, found from the working directory up.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.work")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("run devstack from inside the Uplift repository")
		}
		dir = parent
	}
}
