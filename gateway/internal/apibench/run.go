package apibench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"uplift.dev/platform/auth/testkeys"
)

// Settings of one `make bench` API run.
type Settings struct {
	GatewayURL, BareURL string
	ProjectID           string
	Keys                *testkeys.Keys
	// PidDir holds the stack's <name>.pid files, to read each process's
	// peak memory; BarePid is the baseline's process.
	PidDir  string
	BarePid int
	Conns   int
	Phase   time.Duration
	Rounds  int
	// Users is how many signed-up owners the writers share (one row lock
	// per owner's business, as real traffic spreads over businesses).
	Users int
	Log   io.Writer
	// Measures, when above 0, runs only the first that many of Measures.
	Measures int
}

// Measure is one row pair of the table.
type Measure struct {
	Name string
	// Service is the backend behind the gateway, for its peak memory.
	Service string
	// The API's performance goals (issue 25, goal 1), each against the bare
	// handler in the same round, since the hop itself is what they measure:
	// throughput at least MinRatio of its, CPU per request at most MaxCPU
	// times its (0: no goal) and p99 at half load at most MaxP99 times its.
	MinRatio float64
	MaxCPU   float64
	MaxP99   float64
	Request  func(base string, owners []Owner) Request
}

// Owner is a signed-up user with their token and business.
type Owner struct {
	ID, Token, CategoryID string
}

// Measures are the API's measured calls, a read and two writes, at the
// spec's REST paths.
var Measures = []Measure{
	{Name: "GET internal/users/{id}", Service: "users", MinRatio: 0.5, MaxCPU: 3, MaxP99: 3,
		Request: func(base string, owners []Owner) Request {
			return func(w int, _ int64) (*http.Request, error) {
				o := owners[w%len(owners)]
				return authed(http.MethodGet, base+"/internal/users/"+o.ID, o.Token, nil)
			}
		}},
	{Name: "PUT internal/categories/{id}/label", Service: "categories", MinRatio: 0.5, MaxP99: 3,
		Request: func(base string, owners []Owner) Request {
			return func(w int, n int64) (*http.Request, error) {
				o := owners[w%len(owners)]
				// A new name each time: the change is saved and announced.
				body := fmt.Sprintf(`{"name":"Bench tea shop %d-%d"}`, w, n)
				return authed(http.MethodPut, base+"/internal/categories/"+o.CategoryID+"/label", o.Token, []byte(body))
			}
		}},
	{Name: "PATCH …/business-data/contentGenerationParams", Service: "categories", MinRatio: 0.5, MaxP99: 3,
		Request: func(base string, owners []Owner) Request {
			return func(w int, n int64) (*http.Request, error) {
				o := owners[w%len(owners)]
				body := fmt.Sprintf(`{"disableWeeklyEmail":%t}`, n%2 == 0)
				return authed(http.MethodPatch, base+"/internal/categories/"+o.CategoryID+"/business-data/contentGenerationParams", o.Token, []byte(body))
			}
		}},
}

func authed(method, url, token string, body []byte) (*http.Request, error) {
	var r io.Reader
	if body != nil {
		r = bytes.NewReader(body)
	}
	req, err := http.NewRequest(method, url, r)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	return req, nil
}

// Row is one measure's medians.
type Row struct {
	Measure               Measure
	Product, Bare         []Result // max throughput, per round
	ProductHalf, BareHalf []Result // at half the product's max, per round
	ProductPeak, BarePeak []int64  // peak RSS bytes, per round
	// Max results carry CPUPerRequest: the gateway's and the service's
	// together for the product, the baseline process's for bare.
}

// Run signs up the owners, then measures each measure Rounds times,
// product and bare one after the other within each round.
func Run(ctx context.Context, s Settings) ([]Row, error) {
	client := Client(s.Conns)
	owners, err := signUp(ctx, client, s)
	if err != nil {
		return nil, err
	}
	var rows []Row
	measures := Measures
	if s.Measures > 0 && s.Measures < len(measures) {
		measures = measures[:s.Measures]
	}
	for _, m := range measures {
		row := Row{Measure: m}
		targets := []struct {
			base string
			pids func() []int
		}{
			{s.GatewayURL, func() []int { return s.pids("gateway", m.Service) }},
			{s.BareURL, func() []int { return []int{s.BarePid} }},
		}
		// Warm both: connections, the claims cache, the pools.
		for _, t := range targets {
			if r := Max(ctx, client, s.Conns, time.Second, m.Request(t.base, owners)); r.Errors > 0 {
				return nil, fmt.Errorf("%s at %s: %d errors, first: %s", m.Name, t.base, r.Errors, r.FirstError)
			}
		}
		for round := range s.Rounds {
			var max [2]Result
			var peak [2]int64
			// Alternate which goes first, so drift on the shared machine
			// favours neither.
			order := []int{0, 1}
			if round%2 == 1 {
				order = []int{1, 0}
			}
			for _, i := range order {
				pids := targets[i].pids()
				resetPeak(pids)
				cpu0 := readCPU(pids)
				max[i] = Max(ctx, client, s.Conns, s.Phase, m.Request(targets[i].base, owners))
				if max[i].Requests > 0 {
					max[i].CPUPerRequest = (readCPU(pids) - cpu0) / time.Duration(max[i].Requests)
				}
				peak[i] = readPeak(pids)
			}
			half := max[0].PerSecond / 2
			var at [2]Result
			for _, i := range order {
				at[i] = Rate(ctx, client, s.Conns, half, s.Phase, m.Request(targets[i].base, owners))
			}
			row.Product, row.Bare = append(row.Product, max[0]), append(row.Bare, max[1])
			row.ProductHalf, row.BareHalf = append(row.ProductHalf, at[0]), append(row.BareHalf, at[1])
			row.ProductPeak, row.BarePeak = append(row.ProductPeak, peak[0]), append(row.BarePeak, peak[1])
			fmt.Fprintf(s.Log, "  %-46s round %d: product %7.0f/s (CPU %v/req, p99 %v at %.0f/s, %d errors)  bare %7.0f/s (CPU %v/req, p99 %v, %d errors)\n",
				m.Name, round+1, max[0].PerSecond, max[0].CPUPerRequest.Round(time.Microsecond), at[0].P99.Round(10*time.Microsecond), half, max[0].Errors+at[0].Errors,
				max[1].PerSecond, max[1].CPUPerRequest.Round(time.Microsecond), at[1].P99.Round(10*time.Microsecond), max[1].Errors+at[1].Errors)
			for _, r := range []Result{max[0], max[1], at[0], at[1]} {
				if r.FirstError != "" {
					fmt.Fprintf(s.Log, "    first error: %s\n", r.FirstError)
				}
			}
		}
		rows = append(rows, row)
	}
	return rows, nil
}

func (s Settings) pids(names ...string) []int {
	var out []int
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(s.PidDir, n+".pid"))
		if err != nil {
			continue
		}
		if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
			out = append(out, pid)
		}
	}
	return out
}

// resetPeak starts a new peak-RSS window for each process (Linux: writing
// 5 to clear_refs resets VmHWM).
func resetPeak(pids []int) {
	for _, p := range pids {
		_ = os.WriteFile(fmt.Sprintf("/proc/%d/clear_refs", p), []byte("5"), 0)
	}
}

// clockTick is the unit of /proc/PID/stat's CPU times (USER_HZ, 100 on
// every Linux build we run on).
const clockTick = 10 * time.Millisecond

// readCPU is the CPU time (user and system) the processes have used so far.
// Per request it is the measure that the machine's other load does not
// move: waiting for a core costs throughput but no CPU.
func readCPU(pids []int) time.Duration {
	var sum time.Duration
	for _, p := range pids {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p))
		if err != nil {
			continue
		}
		// Fields after the command (which may hold spaces), from field 3 on.
		_, rest, ok := strings.Cut(string(b), ") ")
		if !ok {
			continue
		}
		f := strings.Fields(rest)
		if len(f) < 13 {
			continue
		}
		utime, _ := strconv.ParseInt(f[11], 10, 64)
		stime, _ := strconv.ParseInt(f[12], 10, 64)
		sum += time.Duration(utime+stime) * clockTick
	}
	return sum
}

// readPeak is the sum of the processes' peak RSS since resetPeak.
func readPeak(pids []int) int64 {
	var sum int64
	for _, p := range pids {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", p))
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
				kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
				sum += kb << 10
			}
		}
	}
	return sum
}

// signUp creates the owners through the product's own sign-up, signs each
// an ID token with the stack's test key, and waits for their businesses
// (made from the sign-up event).
func signUp(ctx context.Context, c *http.Client, s Settings) ([]Owner, error) {
	stamp := time.Now().UnixNano()
	var owners []Owner
	for i := range s.Users {
		body, _ := json.Marshal(map[string]any{"email": fmt.Sprintf("bench-%d-%d@example.com", stamp, i),
			"password": "demo-bench-password", "name": "Bench owner", "suppressWelcomeEmail": true})
		var created struct{ ID string }
		if err := call(ctx, c, http.MethodPost, s.GatewayURL+"/internal/users", "", body, &created); err != nil {
			return nil, fmt.Errorf("sign up: %w", err)
		}
		now := time.Now()
		tok, err := s.Keys.Sign(testkeys.Token{ProjectID: s.ProjectID, UID: created.ID,
			Email: fmt.Sprintf("bench-%d-%d@example.com", stamp, i), IssuedAt: now, ExpiresAt: now.Add(time.Hour)})
		if err != nil {
			return nil, err
		}
		var got struct{ CategoryID string } // the user itself (response_body: "user")
		if err := call(ctx, c, http.MethodGet, s.GatewayURL+"/internal/users/"+created.ID, tok, nil, &got); err != nil {
			return nil, fmt.Errorf("read the new user: %w", err)
		}
		owners = append(owners, Owner{ID: created.ID, Token: tok, CategoryID: got.CategoryID})
	}
	deadline := time.Now().Add(30 * time.Second)
	for _, o := range owners {
		for {
			err := call(ctx, c, http.MethodGet, s.GatewayURL+"/internal/categories/"+o.CategoryID+"/label", o.Token, nil, nil)
			if err == nil {
				break
			}
			if time.Now().After(deadline) {
				return nil, fmt.Errorf("the new business never appeared: %w", err)
			}
			time.Sleep(200 * time.Millisecond)
		}
	}
	return owners, nil
}

func call(ctx context.Context, c *http.Client, method, url, token string, body []byte, out any) error {
	req, err := authed(method, url, token, body)
	if err != nil {
		return err
	}
	if token == "" {
		req.Header.Del("Authorization")
	}
	resp, err := c.Do(req.WithContext(ctx))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("%s %s: %s %s", method, url, resp.Status, b)
	}
	if out != nil {
		return json.Unmarshal(b, out)
	}
	return nil
}

func median[T any](xs []T, key func(T) float64) float64 {
	vs := make([]float64, len(xs))
	for i, x := range xs {
		vs[i] = key(x)
	}
	slices.Sort(vs)
	if len(vs) == 0 {
		return 0
	}
	return vs[len(vs)/2]
}
