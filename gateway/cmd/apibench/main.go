// Command apibench is `make bench`: it measures the product's API beside a
// bare net/http baseline doing the same work (package apibench), runs the
// repository's Go benchmarks (product beside baseline), and prints one
// table of both. Run it inside `devstack exec -apps -test-keys`, which
// starts the stack and hands it the addresses and the test signing key.
//
//	apibench [-phase 4s] [-rounds 3] [-conns 32] [-save FILE] [-gobench-log FILE] [PKG...]
//	apibench -go-after FILE [-gobench-log FILE] PKG...
//	apibench -bare ADDR    serve the bare baseline (started by apibench itself)
//
// make bench runs the API on a stack with the whole product (-save), then
// the Go benchmarks on a stack of infrastructure only (-go-after), whose
// own consumers must not race the product's services for their events.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
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
	phase := flag.Duration("phase", 4*time.Second, "length of each load phase")
	rounds := flag.Int("rounds", 3, "rounds (product and baseline alternate); the table shows medians")
	conns := flag.Int("conns", 32, "concurrent connections (as wrk -c)")
	users := flag.Int("users", 8, "signed-up owners the writes spread over")
	goLog := flag.String("gobench-log", "", "where the Go benchmarks' own output goes (default: discarded)")
	apiOnly := flag.Bool("api-only", false, "skip the Go benchmarks")
	save := flag.String("save", "", "write the API lines to this file (JSON) instead of printing the table")
	goOnly := flag.String("go-after", "", "skip the API: read its lines from this file (-save), run the Go benchmarks, print the one table")
	only := flag.Int("measures", 0, "run only the first N API measures (0: all), e.g. 1 to profile the read path")
	flag.Parse()
	if *bare != "" {
		return serveBare(ctx, *bare)
	}
	if *goOnly != "" {
		b, err := os.ReadFile(*goOnly)
		if err != nil {
			return fmt.Errorf("the API lines (run apibench -save first): %w", err)
		}
		var lines []apibench.Line
		if err := json.Unmarshal(b, &lines); err != nil {
			return err
		}
		return goBenchmarks(ctx, lines, *goLog, time.Now())
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
	lines := apibench.APILines(rows)
	fmt.Printf("API measured in %s\n", time.Since(start).Round(time.Second))
	if *save != "" {
		b, err := json.Marshal(lines)
		if err != nil {
			return err
		}
		return os.WriteFile(*save, b, 0o644)
	}
	if *apiOnly || flag.NArg() == 0 {
		return printTable(lines, start)
	}
	return goBenchmarks(ctx, lines, *goLog, start)
}

// goBenchmarks runs `go test -bench` on the packages named on the command
// line and prints the one table: the API lines, then the benchmarks'.
func goBenchmarks(ctx context.Context, lines []apibench.Line, goLog string, start time.Time) error {
	fmt.Println("Go benchmarks:", flag.Args())
	var out bytes.Buffer
	var w io.Writer = &out
	if goLog != "" {
		if err := os.MkdirAll(filepath.Dir(goLog), 0o755); err != nil {
			return err
		}
		f, err := os.Create(goLog)
		if err != nil {
			return err
		}
		defer f.Close()
		w = io.MultiWriter(&out, f)
	}
	cmd := exec.CommandContext(ctx, "go", append([]string{"test", "-run=^$", "-bench=.", "-benchmem"}, flag.Args()...)...)
	cmd.Stdout, cmd.Stderr = w, w
	if err := cmd.Run(); err != nil {
		os.Stdout.Write(out.Bytes())
		return fmt.Errorf("go benchmarks: %w", err)
	}
	return printTable(append(lines, apibench.GoBenchLines(&out)...), start)
}

func printTable(lines []apibench.Line, start time.Time) error {
	fmt.Println()
	apibench.Print(os.Stdout, lines)
	fmt.Printf("\nRatio: product ÷ baseline throughput (for p99 rows, baseline ÷ product), for API rows the median of each round's ratio; peak memory is peak RSS of the gateway and the service for API rows, peak Go heap otherwise. This part took %s.\n",
		time.Since(start).Round(time.Second))
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
