// Command apibench is `make bench`'s engine: it measures the product's API
// beside a bare net/http baseline doing the same work (package apibench),
// and prints make bench's one table from the parts' saved results. Run the
// API part inside `devstack exec -apps -test-keys`, which starts the stack
// and hands it the addresses and the test signing key.
//
//	apibench [-phase 3s] [-rounds 3] [-conns 32] [-save FILE]   the API (table, or its lines as JSON)
//	apibench -report DIR   the one table from DIR/api.json, DIR/go.txt (the
//	                       Go benchmarks' output) and DIR/web.json; exit 1
//	                       when a Go benchmark failed
//	apibench -bare ADDR    serve the bare baseline (started by apibench itself)
//
// gateway/cmd/apibench/make-bench.sh runs the parts (make bench).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"uplift.dev/gateway/internal/apibench"
	"uplift.dev/platform/auth"
	"uplift.dev/platform/auth/testkeys"
	"uplift.dev/platform/postgres"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "apibench:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context) error {
	bare := flag.String("bare", "", "serve the bare baseline on this address")
	// 3 s, not 4: side by side on 26 Nov the ratios came out 0.37, 0.80 and
	// 0.62 against 4 s's 0.30, 0.99 and 0.60, inside what 4 s gives from
	// run to run, and make bench 38 s shorter (docs/performance.md, "make bench's duration").
	phase := flag.Duration("phase", 3*time.Second, "length of each load phase")
	rounds := flag.Int("rounds", 3, "rounds (product and baseline alternate); the table shows medians")
	conns := flag.Int("conns", 32, "concurrent connections (as wrk -c)")
	users := flag.Int("users", 8, "signed-up owners the writes spread over")
	save := flag.String("save", "", "write the API lines to this file (JSON) instead of printing the table")
	report := flag.String("report", "", "print the one table from the parts' results in this directory")
	only := flag.Int("measures", 0, "run only the first N API measures (0: all), e.g. 1 to profile the read path")
	flag.Parse()
	if *bare != "" {
		return serveBare(ctx, *bare)
	}
	if *report != "" {
		return printReport(*report)
	}

	keys, err := testkeys.ReadKeyFile(os.Getenv("UPLIFT_TEST_SIGNING_KEY"))
	if err != nil {
		return fmt.Errorf("the test signing key (run inside `devstack exec -apps -test-keys`): %w", err)
	}
	addr, err := freeAddr()
	if err != nil {
		return err
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	bareCmd := exec.CommandContext(ctx, self, "-bare", addr)
	bareCmd.Stderr = os.Stderr
	if err := bareCmd.Start(); err != nil {
		return err
	}
	defer func() { _ = bareCmd.Process.Signal(os.Interrupt); _ = bareCmd.Wait() }()
	if err := waitUp(ctx, "http://"+addr+"/internal/users/x"); err != nil {
		return err
	}

	// Read before any load: the stack has been up and idle since it started
	// (make-bench.sh starts the load once the Go benchmarks are linked).
	idle := apibench.IdleMemory(os.Getenv("UPLIFT_STACK_PIDS"))
	fmt.Printf("%s: %s\n", idle.Measure, idle.Product)

	start := time.Now()
	fmt.Println("API: product (gateway → services) and bare baseline, alternating, medians of", *rounds)
	rows, err := apibench.Run(ctx, apibench.Settings{
		GatewayURL: os.Getenv("UPLIFT_GATEWAY_URL"), BareURL: "http://" + addr,
		ProjectID: os.Getenv("FIREBASE_PROJECT_ID"), Keys: keys, PidDir: os.Getenv("UPLIFT_STACK_PIDS"),
		BarePid: bareCmd.Process.Pid, Conns: *conns, Phase: *phase, Rounds: *rounds, Users: *users, Log: os.Stdout,
		Measures: *only,
	})
	if err != nil {
		return err
	}
	lines := append(apibench.APILines(rows), idle)
	fmt.Printf("API measured in %s\n", time.Since(start).Round(time.Second))
	if *save != "" {
		b, err := json.Marshal(lines)
		if err != nil {
			return err
		}
		return os.WriteFile(*save, b, 0o644)
	}
	apibench.Print(os.Stdout, lines)
	return nil
}

// printReport prints the one table from what make-bench.sh's parts left in
// dir; a part that did not run leaves its file out and its rows missing.
func printReport(dir string) error {
	readLines := func(name string) []apibench.Line {
		var lines []apibench.Line
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err == nil {
			err = json.Unmarshal(b, &lines)
		}
		if err != nil {
			fmt.Printf("(no %s rows: %v)\n", name, err)
		}
		return lines
	}
	api, web := readLines("api.json"), readLines("web.json")
	goOut, err := os.ReadFile(filepath.Join(dir, "go.txt"))
	if err != nil {
		fmt.Printf("(no Go benchmark rows: %v)\n", err)
	}
	if failed := apibench.Report(os.Stdout, api, goOut, web); failed > 0 {
		return fmt.Errorf("%d Go benchmarks failed", failed)
	}
	return nil
}

// serveBare runs the baseline: the services' token check (the same
// verifier behind the same claims cache) and the same queries, on net/http.
func serveBare(ctx context.Context, addr string) error {
	project, emulator := os.Getenv("FIREBASE_PROJECT_ID"), os.Getenv("FIREBASE_AUTH_EMULATOR_HOST")
	fb, err := auth.NewFirebaseClient(ctx, project, emulator)
	if err != nil {
		return err
	}
	certs := os.Getenv(auth.TestCertsURLEnv)
	v, err := auth.NewTestCertsVerifier(project, emulator, certs, fb)
	if err != nil {
		return err
	}
	dbURL := os.Getenv("DATABASE_URL")
	users, err := postgres.Open(ctx, dbURL, "users")
	if err != nil {
		return err
	}
	defer users.Close()
	categories, err := postgres.Open(ctx, dbURL, "categories")
	if err != nil {
		return err
	}
	defer categories.Close()
	b := &apibench.Bare{Users: users, Categories: categories, Verifier: auth.NewCache(v, auth.RevocationCheckTTL, auth.CacheSize, nil)}
	srv := &http.Server{Addr: addr, Handler: b.Handler(), ReadHeaderTimeout: 5 * time.Second}
	go func() { <-ctx.Done(); _ = srv.Close() }()
	if err := srv.ListenAndServe(); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

func freeAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return l.Addr().String(), nil
}

func waitUp(ctx context.Context, url string) error {
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if resp, err := http.Get(url); err == nil {
			resp.Body.Close()
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
	return errors.New("the bare baseline did not start")
}
