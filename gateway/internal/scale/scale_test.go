// Package scale is the scale-out proof, run by `make scale-test` against a
// stack of its own with two copies of every service, worker and the gateway
// and a three-node NATS cluster (devstack exec -apps -copies 2 -nats-nodes 3).
// A steady load of sign-ups and reads goes through both gateways, as a load
// balancer would send it, while the test rolls every program one copy at a
// time and kills a NATS node; it then counts what each copy served, what
// failed and what the events did.
package scale

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"uplift.dev/gateway/internal/stacktest"
)

// programs are rolled in this order; each has UPLIFT_METRICS_<NAME>.
var programs = []string{"users", "review", "categories", "billing", "digest", "stores", "studio", "gateway"}

func TestScaleOut(t *testing.T) {
	if os.Getenv("UPLIFT_SCALE") == "" {
		t.Skip("the scale-out proof: `make scale-test` runs it against a stack of its own")
	}
	base := stacktest.FromEnv(t)
	gateways := strings.Split(os.Getenv("UPLIFT_GATEWAY_URLS"), ",")
	copies, _ := strconv.Atoi(os.Getenv("UPLIFT_COPIES"))
	if copies < 2 || len(gateways) != copies {
		t.Fatalf("want a stack with copies (UPLIFT_COPIES=%q, gateways %v)", os.Getenv("UPLIFT_COPIES"), gateways)
	}
	lb := newBalancer(gateways)
	defer lb.stop()
	var owners []stacktest.User
	for range 4 {
		owners = append(owners, base.SignUp(t))
	}
	l := &load{lb: lb, owners: owners}
	ctx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for w := range 6 {
		wg.Go(func() { l.run(ctx, w) })
	}

	// Steady: how the calls spread over the copies.
	before := handledByCopy(t)
	time.Sleep(20 * time.Second)
	after := handledByCopy(t)
	share := map[string][]int{}
	for _, p := range programs {
		for i := range copies {
			share[p] = append(share[p], after[p][i]-before[p][i])
		}
	}

	// Rolling: each program, one copy at a time.
	rolled := map[string]time.Duration{}
	failedBefore := l.failed.Load()
	for _, p := range programs {
		start := time.Now()
		for i := range copies {
			roll(t, p, i)
		}
		rolled[p] = time.Since(start)
	}
	rollFailures := l.failed.Load() - failedBefore

	// A NATS node killed and back.
	failedBefore = l.failed.Load()
	killNATSNode(t, 1)
	time.Sleep(10 * time.Second)
	natsFailures := l.failed.Load() - failedBefore

	stop()
	wg.Wait()
	lost, doubled := eventsKept(t, base, l.signedUp())

	var b strings.Builder
	fmt.Fprintf(&b, "| program | calls per copy (steady 20 s) | within 25 %% of even | rolled (both copies) |\n|---|---|---|---|\n")
	for _, p := range programs {
		fmt.Fprintf(&b, "| %s | %v | %v | %.1f s |\n", p, share[p], fair(share[p]), rolled[p].Seconds())
	}
	fmt.Fprintf(&b, "\nrequests %d, failed %d (%d while rolling, %d with a NATS node down); sign-ups %d: events lost %d, duplicated %d\n",
		l.total.Load(), l.failed.Load(), rollFailures, natsFailures, len(l.signedUp()), lost, doubled)
	t.Log("\n" + b.String())
	if path := os.Getenv("SCALE_REPORT"); path != "" {
		_ = os.WriteFile(path, []byte(b.String()), 0o644)
	}
	for _, p := range programs {
		if !fair(share[p]) {
			t.Errorf("%s: calls per copy %v, want each within 25 %% of even", p, share[p])
		}
	}
	for _, f := range l.failures() {
		t.Errorf("failed: %s", f)
	}
	if lost != 0 || doubled != 0 {
		t.Errorf("events: %d sign-ups without their business, %d with two", lost, doubled)
	}
}

// fair says whether every copy served within 25 % of an even share. A
// program the load did not reach (none at all) is not judged.
func fair(calls []int) bool {
	total := 0
	for _, n := range calls {
		total += n
	}
	if total == 0 {
		return true
	}
	even := float64(total) / float64(len(calls))
	for _, n := range calls {
		if float64(n) < 0.75*even || float64(n) > 1.25*even {
			return false
		}
	}
	return true
}

// balancer sends each request to the next gateway that is ready, as a
// load balancer does, under the one name the gateways serve: it checks each gateway's /healthz every 200 ms and
// leaves out one that is draining or down, and a request refused before it
// reached a gateway (connection refused) goes to another.
type balancer struct {
	urls  []string
	host  string // the public name, sent to every gateway as a balancer forwards it
	ready []atomic.Bool
	next  atomic.Uint64
	done  chan struct{}
	http  *http.Client
}

func newBalancer(urls []string) *balancer {
	b := &balancer{urls: urls, host: strings.TrimPrefix(urls[0], "http://"), ready: make([]atomic.Bool, len(urls)), done: make(chan struct{}),
		http: &http.Client{Timeout: 30 * time.Second}}
	probe := &http.Client{Timeout: time.Second}
	check := func() {
		for i, u := range b.urls {
			resp, err := probe.Get(u + "/healthz")
			b.ready[i].Store(err == nil && resp.StatusCode == http.StatusOK)
			if err == nil {
				resp.Body.Close()
			}
		}
	}
	check()
	go func() {
		tick := time.NewTicker(200 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-b.done:
				return
			case <-tick.C:
				check()
			}
		}
	}()
	return b
}

func (b *balancer) stop() { close(b.done) }

// do sends one request; it returns the status, or an error when no gateway
// took it.
func (b *balancer) do(method, path, token string, body []byte) (int, []byte, error) {
	var last error
	for range 2 * len(b.urls) {
		i := int(b.next.Add(1) % uint64(len(b.urls)))
		if !b.ready[i].Load() {
			continue
		}
		req, err := http.NewRequest(method, b.urls[i]+path, bytes.NewReader(body))
		if err != nil {
			return 0, nil, err
		}
		req.Host = b.host
		req.Header.Set("Authorization", "Bearer "+token)
		if body != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		resp, err := b.http.Do(req)
		if err != nil {
			if neverReached(err) {
				last = err
				continue
			}
			return 0, nil, err
		}
		out, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		resp.Body.Close()
		return resp.StatusCode, out, err
	}
	return 0, nil, fmt.Errorf("no gateway took the request: %v", last)
}

// neverReached says a request failed while connecting, so no gateway
// saw it and another may take it.
func neverReached(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}

// load is the steady traffic: reads that reach every service and, every
// tenth request, a sign-up (whose event makes the business).
type load struct {
	lb     *balancer
	owners []stacktest.User
	total  atomic.Int64
	failed atomic.Int64
	mu     sync.Mutex
	errs   []string
	users  []string
}

func (l *load) run(ctx context.Context, worker int) {
	for n := 0; ctx.Err() == nil; n++ {
		o := l.owners[(worker+n)%len(l.owners)]
		cat := "/internal/categories/" + o.CategoryID
		var method, path, want string
		switch n % 10 {
		case 0:
			l.signUp()
			continue
		case 1, 2:
			method, path, want = http.MethodGet, "/internal/users/"+o.ID, "200"
		case 3, 4:
			method, path, want = http.MethodGet, cat+"/label", "200"
		case 5:
			method, path, want = http.MethodGet, cat+"/connections", "200"
		case 6:
			method, path, want = http.MethodGet, cat+"/studio/plan", "200"
		case 7:
			method, path, want = http.MethodGet, "/internal/billing/metricsSubscriptionTiers", "200 403"
		case 8:
			method, path, want = http.MethodGet, "/email/unsubscribe?token=not-a-token", "200 400"
		case 9:
			method, path, want = http.MethodGet, cat+"/business-data/insights", "200"
		}
		code, _, err := l.lb.do(method, path, o.Token, nil)
		l.count(method+" "+path, code, err, want)
	}
}

func (l *load) count(what string, code int, err error, want string) {
	l.total.Add(1)
	if err == nil && slices.Contains(strings.Fields(want), strconv.Itoa(code)) {
		return
	}
	l.failed.Add(1)
	l.mu.Lock()
	defer l.mu.Unlock()
	l.errs = append(l.errs, fmt.Sprintf("%s %s: %d %v", time.Now().Format("15:04:05.000"), what, code, err))
}

// signUp makes an account (the gateway's POST /internal/users), whose
// UserCreated event categories must turn into exactly one business.
func (l *load) signUp() {
	email := fmt.Sprintf("scale-%d-%d@example.com", time.Now().UnixNano(), l.total.Load())
	body := []byte(`{"email":"` + email + `","password":"scale-test-password","suppressWelcomeEmail":true}`)
	code, resp, err := l.lb.do(http.MethodPost, "/internal/users", "unauthed", body)
	l.count("POST /internal/users", code, err, "200")
	var created struct{ ID string }
	if code == http.StatusOK && json.Unmarshal(resp, &created) == nil && created.ID != "" {
		l.mu.Lock()
		l.users = append(l.users, created.ID)
		l.mu.Unlock()
	}
}

func (l *load) signedUp() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.users)
}

func (l *load) failures() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.errs)
}

// handledByCopy reads grpc_server_handled_total (the services) or the
// gateway's count of REST requests from each copy's /metrics.
func handledByCopy(t *testing.T) map[string][]int {
	t.Helper()
	out := map[string][]int{}
	for _, p := range programs {
		metric := "grpc_server_handled_total{"
		if p == "gateway" {
			metric = "http_request_duration_seconds_count{"
		}
		for _, url := range strings.Split(os.Getenv("UPLIFT_METRICS_"+strings.ToUpper(p)), ",") {
			out[p] = append(out[p], sumOf(t, url, metric))
		}
	}
	return out
}

func sumOf(t *testing.T, url, prefix string) int {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatalf("metrics %s: %v", url, err)
	}
	defer resp.Body.Close()
	total := 0.0
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, prefix) || strings.Contains(line, "grpc.health.v1.Health") {
			continue
		}
		v, err := strconv.ParseFloat(line[strings.LastIndexByte(line, ' ')+1:], 64)
		if err == nil {
			total += v
		}
	}
	return int(total)
}

// minReady is how long a new copy serves before the next one is stopped:
// time for every caller to connect to it (the manifests' minReadySeconds,
// 5 s). Without it a caller that has not reconnected yet knows only the
// copy being stopped, which leaves its rotation as it starts to drain.
const minReady = 2 * time.Second

// roll stops copy i of program p with SIGTERM, as a rolling deploy does;
// the stack's supervisor starts it again, and roll waits until the new
// process serves, and minReady more.
func roll(t *testing.T, p string, i int) {
	t.Helper()
	name := p
	if i > 0 {
		name = p + "-" + strconv.Itoa(i+1)
	}
	old := pidOf(t, name)
	if err := syscall.Kill(old, syscall.SIGTERM); err != nil {
		t.Fatalf("SIGTERM %s (%d): %v", name, old, err)
	}
	// A service answers /healthz beside its /metrics, the gateway on its
	// REST port.
	metrics := strings.Split(os.Getenv("UPLIFT_METRICS_"+strings.ToUpper(p)), ",")[i]
	health := strings.TrimSuffix(metrics, "/metrics") + "/healthz"
	if p == "gateway" {
		health = strings.Split(os.Getenv("UPLIFT_GATEWAY_URLS"), ",")[i] + "/healthz"
	}
	deadline := time.Now().Add(90 * time.Second)
	for {
		if pid, ok := readPid(name); ok && pid != old {
			if resp, err := http.Get(health); err == nil {
				resp.Body.Close()
				if resp.StatusCode == http.StatusOK {
					time.Sleep(minReady)
					return
				}
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s did not come back within 90 s", name)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// killNATSNode kills node i of the NATS cluster outright; the supervisor
// starts it again from its store.
func killNATSNode(t *testing.T, i int) {
	t.Helper()
	name := "nats-" + strconv.Itoa(i+1)
	if err := syscall.Kill(pidOf(t, name), syscall.SIGKILL); err != nil {
		t.Fatalf("kill %s: %v", name, err)
	}
}

func pidOf(t *testing.T, name string) int {
	t.Helper()
	pid, ok := readPid(name)
	if !ok {
		t.Fatalf("no pid for %s in UPLIFT_STACK_PIDS", name)
	}
	return pid
}

func readPid(name string) (int, bool) {
	b, err := os.ReadFile(filepath.Join(os.Getenv("UPLIFT_STACK_PIDS"), name+".pid"))
	if err != nil {
		return 0, false
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	return pid, err == nil
}

// eventsKept waits for every sign-up's business and counts the accounts
// that never got one (an event lost) and those with two (an event applied
// twice), in the categories service's own table.
func eventsKept(t *testing.T, s *stacktest.Stack, users []string) (lost, doubled int) {
	t.Helper()
	ctx := context.Background()
	db, err := pgx.Connect(ctx, os.Getenv("DATABASE_URL"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close(ctx)
	deadline := time.Now().Add(60 * time.Second)
	for {
		counts := map[string]int{}
		rows, err := db.Query(ctx, `SELECT owner_id, count(*) FROM categories.categories WHERE owner_id = ANY($1) GROUP BY owner_id`, users)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var id string
			var n int
			if err := rows.Scan(&id, &n); err != nil {
				t.Fatal(err)
			}
			counts[id] = n
		}
		rows.Close()
		lost, doubled = 0, 0
		for _, u := range users {
			switch {
			case counts[u] == 0:
				lost++
			case counts[u] > 1:
				doubled++
			}
		}
		if lost == 0 || time.Now().After(deadline) {
			return lost, doubled
		}
		time.Sleep(time.Second)
	}
}

// TestEightCopiesMigrateAnEmptyDatabaseAtOnce starts each service's
// migrate step eight times at once on a database no copy has touched, as a
// deploy of eight new pods does: every one must finish, none crash. The
// services take turns: the race is between copies of one schema, and
// seven services' eight copies at once, beside this stack's pools and the
// tests CI runs alongside, would be over this machine's max_connections.
func TestEightCopiesMigrateAnEmptyDatabaseAtOnce(t *testing.T) {
	if os.Getenv("UPLIFT_SCALE") == "" {
		t.Skip("the scale-out proof: `make scale-test` runs it against a stack of its own")
	}
	ctx := context.Background()
	admin, err := pgx.Connect(ctx, os.Getenv("DATABASE_URL"))
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	name := fmt.Sprintf("scale_empty_%d", time.Now().UnixNano())
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _ = admin.Exec(ctx, "DROP DATABASE "+name+" WITH (FORCE)") })
	cfg := admin.Config()
	url := fmt.Sprintf("postgres://%s@%s:%d/%s?sslmode=disable", cfg.User, cfg.Host, cfg.Port, name)
	bin := filepath.Join("..", "..", "..", ".bin") // from gateway/internal/scale
	start := time.Now()
	var mu sync.Mutex
	var failed []string
	peak := watchConnections(t, admin, name)
	for _, svc := range programs {
		if svc == "gateway" {
			continue
		}
		var wg sync.WaitGroup
		for i := range 8 {
			wg.Go(func() {
				cmd := exec.Command(filepath.Join(bin, svc), "migrate")
				cmd.Env = append(os.Environ(), "DATABASE_URL="+url)
				if out, err := cmd.CombinedOutput(); err != nil {
					mu.Lock()
					failed = append(failed, fmt.Sprintf("%s copy %d: %v\n%s", svc, i+1, err, out))
					mu.Unlock()
				}
			})
		}
		wg.Wait()
	}
	most := peak()
	t.Logf("%d services × 8 copies each migrated an empty database at once in %s, at most %d connections at a time", len(programs)-1, time.Since(start).Round(100*time.Millisecond), most)
	for _, f := range failed {
		t.Error(f)
	}
	// A migrate step holds one connection: eight copies, eight.
	if most > 8 {
		t.Errorf("eight copies migrating held %d connections at once, want at most 8 (one each)", most)
	}
}

// watchConnections counts, every few milliseconds until the returned
// function is called, the connections to database db (admin's own is on
// another database), and that function returns the most seen at once.
func watchConnections(t *testing.T, admin *pgx.Conn, db string) func() int {
	t.Helper()
	cfg := admin.Config()
	watcher, err := pgx.Connect(context.Background(), fmt.Sprintf("postgres://%s@%s:%d/%s?sslmode=disable", cfg.User, cfg.Host, cfg.Port, cfg.Database))
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan int)
	go func() {
		defer watcher.Close(context.Background())
		most := 0
		for ctx.Err() == nil {
			var n int
			if err := watcher.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity WHERE datname = $1`, db).Scan(&n); err == nil {
				most = max(most, n)
			}
			time.Sleep(5 * time.Millisecond)
		}
		done <- most
	}()
	return func() int {
		stop()
		return <-done
	}
}
