package stack

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// testStack is a stack whose state and logs live in the test's own folder.
func testStack(t *testing.T) (*Stack, *lines) {
	t.Helper()
	dir := t.TempDir()
	said := &lines{}
	s, err := New(dir, 0, said.add)
	if err != nil {
		t.Fatal(err)
	}
	s.StateDir = filepath.Join(dir, ".local")
	s.LogDir = filepath.Join(s.StateDir, "logs")
	if err := os.MkdirAll(s.LogDir, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Stop)
	return s, said
}

type lines struct {
	mu sync.Mutex
	l  []string
}

func (l *lines) add(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.l = append(l.l, fmt.Sprintf(format, args...))
}

func (l *lines) text() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.l, "\n")
}

func readPID(t *testing.T, s *Stack, name string) int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(s.StateDir, "pids", name+".pid"))
	if err != nil {
		return 0
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatalf("pid file: %v", err)
	}
	return pid
}

func alive(pid int) bool { return pid > 0 && syscall.Kill(pid, 0) == nil }

// TestAKilledProcessIsRestarted: `make run` used to stop the whole stack
// when one service died (a kill -9 of categories took everything down in
// 1 s). Now the supervisor starts it again with backoff, says so on the
// terminal and in the process's log, and the rest keeps running.
func TestAKilledProcessIsRestarted(t *testing.T) {
	s, said := testStack(t)
	victim, err := s.start("victim", nil, s.Root, "sh", "-c", "echo run; exec sleep 300")
	if err != nil {
		t.Fatal(err)
	}
	bystander, err := s.start("bystander", nil, s.Root, "sleep", "300")
	if err != nil {
		t.Fatal(err)
	}
	bystanderPID := readPID(t, s, "bystander")

	logPath := filepath.Join(s.LogDir, "victim.log")
	// runsLogged waits until the victim's log shows n runs: a restarted
	// victim is alive a moment before its echo reaches the log, and one
	// killed in that moment never writes it.
	runsLogged := func(n int) string {
		t.Helper()
		var log []byte
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			if log, err = os.ReadFile(logPath); err == nil && strings.Count(string(log), "run\n") >= n {
				break
			}
		}
		return string(log)
	}
	for round := 1; round <= 3; round++ {
		runsLogged(round)
		old := readPID(t, s, "victim")
		if !alive(old) {
			t.Fatalf("round %d: victim pid %d is not running", round, old)
		}
		killedAt := time.Now()
		if err := syscall.Kill(old, syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		var back int
		for time.Since(killedAt) < 5*time.Second {
			if pid := readPID(t, s, "victim"); pid != old && alive(pid) {
				back = pid
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		if back == 0 {
			t.Fatalf("round %d: victim not back within 5 s; said:\n%s", round, said.text())
		}
		t.Logf("round %d: back after %s", round, time.Since(killedAt).Round(time.Millisecond))
	}
	if got := victim.Restarts(); got != 3 {
		t.Errorf("restarts = %d, want 3", got)
	}
	if !alive(bystanderPID) || bystander.Restarts() != 0 {
		t.Errorf("the bystander was disturbed: alive=%v restarts=%d", alive(bystanderPID), bystander.Restarts())
	}
	out := said.text()
	for _, want := range []string{"victim exited (signal: killed); restarting in 100ms (restart 1)", "restarting in 200ms (restart 2)", "victim restarted (pid"} {
		if !strings.Contains(out, want) {
			t.Errorf("the terminal was not told %q; it got:\n%s", want, out)
		}
	}
	log := runsLogged(4)
	if n := strings.Count(log, "run\n"); n != 4 {
		t.Errorf("the log kept %d runs, want all 4 (appended on restart):\n%s", n, log)
	}
	if !strings.Contains(log, "devstack: victim exited (signal: killed); restarting") {
		t.Errorf("the restart is not in the process's own log:\n%s", log)
	}

	last := readPID(t, s, "victim")
	s.Stop()
	if alive(last) || alive(bystanderPID) {
		t.Error("Stop left a process running")
	}
	time.Sleep(300 * time.Millisecond)
	if pid := readPID(t, s, "victim"); pid != 0 {
		t.Errorf("a stopped process was started again (pid %d)", pid)
	}
}

// TestACrashLoopBacksOff: a process that keeps failing is retried less and
// less often, never more than restartMaxDelay apart, not in a hot loop.
func TestACrashLoopBacksOff(t *testing.T) {
	s, said := testStack(t)
	if _, err := s.start("crasher", nil, s.Root, "sh", "-c", "exit 3"); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * time.Second)
	out := said.text()
	// 100 + 200 + 400 + 800 ms of waiting fit in 2 s, 1.6 s more do not.
	if n := strings.Count(out, "crasher exited (exit status 3)"); n < 3 || n > 5 {
		t.Errorf("%d restarts announced in 2 s, want 3 to 5 with backoff:\n%s", n, out)
	}
	if !strings.Contains(out, "restarting in 800ms") {
		t.Errorf("the delay did not grow:\n%s", out)
	}
}

// TestAProcessThatDiesWhileStartingIsAnError: start-up failures are still
// reported at once, not hidden behind restarts.
func TestAProcessThatDiesWhileStartingIsAnError(t *testing.T) {
	s, _ := testStack(t)
	p, err := s.start("broken", nil, s.Root, "sh", "-c", "echo bad setting >&2; exit 1")
	if err != nil {
		t.Fatal(err)
	}
	err = s.waitFor(context.Background(), p, "broken", 5*time.Second, func() bool { return false })
	if err == nil || !strings.Contains(err.Error(), "broken exited before it was ready") {
		t.Fatalf("err = %v", err)
	}
}
