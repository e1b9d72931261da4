// Package chaos holds the fault tests: they break the running local stack
// on purpose (kill -9 a service) while it is under load, so they run apart
// from `make test`, in `make chaos` (which .ci/run runs too), never beside
// tests that need the stack whole.
package chaos

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"uplift.dev/gateway/internal/stacktest"
	"uplift.dev/platform/firebasetest"
)

// probe is one route served by one service, and what it answers when the
// service is up.
type probe struct {
	service, method, path, token string
	ok                           func(code int) bool
}

// dependsOn says which services a probe's route calls besides its own:
// stores asks categories whether the caller may act on the category (the
// categories service owns that rule), so its routes share categories'
// outage. Those failures are counted apart, and must be 503 too.
var dependsOn = map[string][]string{"stores": {"categories"}}

type result struct {
	service string
	at      time.Time
	good    bool
	code    int
}

func stackForChaos(t *testing.T) *stacktest.Stack {
	if os.Getenv("UPLIFT_CHAOS") == "" {
		t.Skip("a fault test: `make chaos` runs it against a stack of its own")
	}
	return stacktest.FromEnv(t)
}

func pidOf(t *testing.T, name string) int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(os.Getenv("UPLIFT_STACK_PIDS"), name+".pid"))
	if err != nil {
		t.Fatalf("pid of %s: %v (UPLIFT_STACK_PIDS)", name, err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	return pid
}

// TestKillEachServiceUnderLoad: with steady traffic to every service, each
// service in turn is killed with SIGKILL. Only its own routes may fail, with
// 503 (and a route of a service that calls it, see dependsOn); it must
// answer again within 5 s (the devstack supervisor restarts it, the gateway
// redials); and what was acknowledged just before the kill is still there
// after it.
func TestKillEachServiceUnderLoad(t *testing.T) {
	s := stackForChaos(t)
	owner := s.SignUp(t)
	ok2xx := func(code int) bool { return code >= 200 && code < 300 }
	probes := []probe{
		{"users", "GET", "/internal/users/" + owner.ID + "/profile", owner.Token, ok2xx},
		{"categories", "GET", "/internal/categories/" + owner.CategoryID + "/label", owner.Token, ok2xx},
		{"billing", "GET", "/internal/billing/metricsSubscriptionTiers", "", ok2xx},
		// A bad token is the digest's own 400; 503 only when it is down.
		{"digest", "POST", "/email/unsubscribe/confirm?token=not-a-token", "", func(c int) bool { return c == http.StatusBadRequest }},
		{"stores", "GET", "/internal/categories/" + owner.CategoryID + "/connections", owner.Token, ok2xx},
	}

	var (
		mu      sync.Mutex
		results []result
	)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for w := range 6 {
		wg.Go(func() {
			for i := w; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				p := probes[i%len(probes)]
				code, _, err := s.Do(p.method, p.path, p.token, nil)
				mu.Lock()
				results = append(results, result{p.service, time.Now(), err == nil && p.ok(code), code})
				mu.Unlock()
				time.Sleep(10 * time.Millisecond)
			}
		})
	}
	defer func() { close(stop); wg.Wait() }()

	type outcome struct {
		down          time.Duration
		victimErrors  int
		dependents    int
		others        int
		otherFailures []string
	}
	var report []string
	for _, victim := range probes {
		time.Sleep(2 * time.Second) // a healthy stretch between kills
		before := writeBefore(t, s, victim.service, owner)
		pid := pidOf(t, victim.service)
		killed := time.Now()
		if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
			t.Fatalf("kill %s: %v", victim.service, err)
		}
		// Back when its route answers as it should again, twice in a row.
		var back time.Time
		for streak := 0; streak < 2; {
			if time.Since(killed) > 30*time.Second {
				t.Fatalf("%s not back 30 s after kill -9", victim.service)
			}
			code, _, err := s.Do(victim.method, victim.path, victim.token, nil)
			if err == nil && victim.ok(code) {
				if streak == 0 {
					back = time.Now()
				}
				streak++
			} else {
				streak = 0
			}
			time.Sleep(50 * time.Millisecond)
		}
		time.Sleep(time.Second)
		var o outcome
		o.down = back.Sub(killed)
		mu.Lock()
		for _, r := range results {
			if r.at.Before(killed) {
				continue
			}
			switch {
			case r.service == victim.service && !r.good:
				o.victimErrors++
				if r.code != http.StatusServiceUnavailable && r.code != 0 {
					o.otherFailures = append(o.otherFailures, fmt.Sprintf("%s answered %d while down (want 503)", r.service, r.code))
				}
			case r.service != victim.service:
				o.others++
				if !r.good && slices.Contains(dependsOn[r.service], victim.service) && r.code == http.StatusServiceUnavailable {
					o.dependents++
				} else if !r.good {
					o.otherFailures = append(o.otherFailures, fmt.Sprintf("%s failed (%d) while %s was down", r.service, r.code, victim.service))
				}
			}
		}
		results = results[:0]
		mu.Unlock()
		line := fmt.Sprintf("kill -9 %-10s back after %5.2f s; %3d failed calls on its routes (503); %4d calls to the others, %d failed, %d of them 503 on a route that calls it",
			victim.service, o.down.Seconds(), o.victimErrors, o.others, len(o.otherFailures)+o.dependents, o.dependents)
		report = append(report, line)
		t.Log(line)
		if o.down > 5*time.Second {
			t.Errorf("%s took %s to come back, more than 5 s", victim.service, o.down.Round(time.Millisecond))
		}
		for i, f := range o.otherFailures {
			if i == 10 {
				break
			}
			t.Error(f)
		}
		checkAfter(t, s, victim.service, owner, before)
	}
	if out := os.Getenv("UPLIFT_CHAOS_REPORT"); out != "" {
		_ = os.WriteFile(out, []byte(strings.Join(report, "\n")+"\n"), 0o644)
	}
}

// written is what a change made just before a kill left to check.
type written struct{ name, email, userID string }

// writeBefore makes a change through the victim just before it is killed.
func writeBefore(t *testing.T, s *stacktest.Stack, service string, owner stacktest.User) written {
	t.Helper()
	switch service {
	case "categories":
		name := "Kept through kill " + strconv.FormatInt(time.Now().UnixNano(), 36)
		body, _ := json.Marshal(map[string]string{"name": name})
		if code, b, err := s.Do("PUT", "/internal/categories/"+owner.CategoryID+"/label", owner.Token, body); err != nil || code != http.StatusOK {
			t.Fatalf("rename: %d %s %v", code, b, err)
		}
		return written{name: name}
	case "users":
		// Signed up, then users dies at once: the sign-up's UserCreated is in
		// its outbox and must still reach categories (the new business).
		email := "chaos-" + strconv.FormatInt(time.Now().UnixNano(), 36) + "@example.com"
		body, _ := json.Marshal(map[string]any{"email": email, "password": "chaos-password", "suppressWelcomeEmail": true})
		code, b, err := s.Do("POST", "/internal/users", "", body)
		var created struct {
			ID string `json:"id"`
		}
		if err != nil || code != http.StatusOK || json.Unmarshal(b, &created) != nil {
			t.Fatalf("sign-up: %d %s %v", code, b, err)
		}
		return written{email: email, userID: created.ID}
	}
	return written{}
}

// checkAfter finds the change again once the victim is back.
func checkAfter(t *testing.T, s *stacktest.Stack, service string, owner stacktest.User, w written) {
	t.Helper()
	switch service {
	case "categories":
		code, b, err := s.Do("GET", "/internal/categories/"+owner.CategoryID+"/label", owner.Token, nil)
		var got struct {
			Name string `json:"name"`
		}
		if err != nil || code != http.StatusOK || json.Unmarshal(b, &got) != nil || got.Name != w.name {
			t.Errorf("the name saved before kill -9 of categories is lost: %d %s %v", code, b, err)
		}
	case "users":
		// The new owner signs in with their password and has their business.
		token := firebasetest.SignInWithPassword(t, w.email, "chaos-password")
		deadline := time.Now().Add(20 * time.Second)
		for {
			code, b, err := s.Do("GET", "/internal/users/"+w.userID+"/profile", token, nil)
			var p struct {
				CategoryID string `json:"categoryId"`
			}
			if err == nil && code == http.StatusOK && json.Unmarshal(b, &p) == nil && p.CategoryID != "" {
				return
			}
			if time.Now().After(deadline) {
				t.Errorf("the sign-up acknowledged before kill -9 of users has no business 20 s later: %d %s %v", code, b, err)
				return
			}
			time.Sleep(250 * time.Millisecond)
		}
	}
}
