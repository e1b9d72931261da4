package stack

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// Restart backoff, as a process supervisor would use: the first restart comes
// quickly so a killed service is back within a few seconds; a process that
// keeps crashing is retried less and less often, up to restartMaxDelay. A run
// that lasted restartStableAfter counts as healthy and resets the delay.
const (
	restartFirstDelay  = 100 * time.Millisecond
	restartMaxDelay    = 5 * time.Second
	restartStableAfter = 10 * time.Second
)

// proc is one supervised child process, run in its own process group so
// that stopping it also stops what it started (npx, node workers). When it
// ends on its own it is started again with backoff; only stop ends it for
// good.
type proc struct {
	name    string
	argv    []string
	env     []string
	dir     string
	logPath string
	pidPath string
	say     func(format string, args ...any)
	// grace is how long stop waits after SIGTERM before SIGKILL.
	grace time.Duration
	// beforeStop, when set, runs before the SIGTERM, while the process
	// still serves (the Auth emulator saves its accounts then).
	beforeStop func()

	mu       sync.Mutex
	cmd      *exec.Cmd
	stopping bool
	restarts int

	stopCh    chan struct{} // closed by stop
	firstExit chan struct{} // closed when the first run ends, for start-up checks
	firstErr  error
	done      chan struct{} // closed when supervision has ended
}

func (s *Stack) start(name string, env []string, dir string, argv ...string) (*proc, error) {
	p := &proc{
		name: name, argv: argv, env: append(os.Environ(), env...), dir: dir,
		logPath: filepath.Join(s.LogDir, name+".log"),
		pidPath: filepath.Join(s.StateDir, "pids", name+".pid"),
		say:     s.say, grace: 10 * time.Second,
		stopCh: make(chan struct{}), firstExit: make(chan struct{}), done: make(chan struct{}),
	}
	if err := os.MkdirAll(filepath.Dir(p.pidPath), 0o755); err != nil {
		return nil, err
	}
	// Held through the launch: the infrastructure's parts start at once.
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := p.launch(true); err != nil {
		return nil, err
	}
	go p.supervise()
	s.procs = append(s.procs, p)
	return p, nil
}

// launch starts one run. The log is started afresh on the first run and
// appended to on restarts, so the crash stays readable above the restart.
func (p *proc) launch(first bool) error {
	flags := os.O_CREATE | os.O_WRONLY | os.O_APPEND
	if first {
		flags |= os.O_TRUNC
	}
	logFile, err := os.OpenFile(p.logPath, flags, 0o644)
	if err != nil {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopping {
		logFile.Close()
		return errStopping
	}
	cmd := exec.Command(p.argv[0], p.argv[1:]...)
	cmd.Dir = p.dir
	cmd.Env = p.env
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	err = cmd.Start()
	logFile.Close() // the child holds its own copy
	if err != nil {
		return fmt.Errorf("start %s: %w", p.name, err)
	}
	p.cmd = cmd
	// Written whole and renamed into place: a reader never sees it empty.
	if tmp := p.pidPath + ".tmp"; os.WriteFile(tmp, []byte(strconv.Itoa(cmd.Process.Pid)+"\n"), 0o644) == nil {
		_ = os.Rename(tmp, p.pidPath)
	}
	return nil
}

var errStopping = errors.New("stopping")

// supervise waits for each run to end and starts the next one after a
// backoff, until stop.
func (p *proc) supervise() {
	defer close(p.done)
	delay := restartFirstDelay
	first := true
	for {
		p.mu.Lock()
		cmd := p.cmd
		p.mu.Unlock()
		started := time.Now()
		err := cmd.Wait()
		// Whatever the leader left behind in its group (node workers) would
		// hold the ports the next run needs.
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		if first {
			p.firstErr = err
			close(p.firstExit)
			first = false
		}
		if p.isStopping() {
			return
		}
		if time.Since(started) >= restartStableAfter {
			delay = restartFirstDelay
		}
		for {
			p.mu.Lock()
			p.restarts++
			n := p.restarts
			p.mu.Unlock()
			p.note("%s exited (%s); restarting in %s (restart %d)", p.name, exitReason(err), delay, n)
			select {
			case <-p.stopCh:
				return
			case <-time.After(delay):
			}
			delay = min(delay*2, restartMaxDelay)
			err = p.launch(false)
			if errors.Is(err, errStopping) {
				return
			}
			if err == nil {
				p.note("%s restarted (pid %d)", p.name, p.pid())
				break
			}
		}
	}
}

// note tells the person running the stack and appends the same line to the
// process's own log, where someone reading about the crash will look.
func (p *proc) note(format string, args ...any) {
	line := fmt.Sprintf(format, args...)
	p.say("%s devstack: %s", time.Now().Format("15:04:05.000"), line)
	if f, err := os.OpenFile(p.logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644); err == nil {
		fmt.Fprintf(f, "%s devstack: %s\n", time.Now().UTC().Format(time.RFC3339Nano), line)
		f.Close()
	}
}

func exitReason(err error) string {
	if err == nil {
		return "exit status 0"
	}
	return err.Error()
}

func (p *proc) isStopping() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stopping
}

func (p *proc) pid() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.cmd.Process.Pid
}

// Restarts is how often the process was restarted after ending on its own.
func (p *proc) Restarts() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.restarts
}

// stop ends supervision, asks the group to end, then kills it after its grace.
func (p *proc) stop() {
	p.mu.Lock()
	if p.stopping {
		p.mu.Unlock()
		<-p.done
		return
	}
	p.stopping = true
	close(p.stopCh)
	pgid := p.cmd.Process.Pid
	p.mu.Unlock()
	if p.beforeStop != nil {
		p.beforeStop()
	}
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(p.grace):
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
		<-p.done
	}
	// Reap stragglers that left the leader behind.
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
	_ = os.Remove(p.pidPath)
}

// waitFor polls check until it succeeds, the process's first run ends or
// timeout passes: a process that dies while starting is a start-up error to
// report, not one to restart behind the person's back.
func (s *Stack) waitFor(ctx context.Context, p *proc, what string, timeout time.Duration, check func() bool) error {
	deadline := time.Now().Add(timeout)
	for {
		if check() {
			return nil
		}
		if p != nil {
			select {
			case <-p.firstExit:
				return fmt.Errorf("%s exited before it was ready (%v); see %s", p.name, p.firstErr, p.logPath)
			default:
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s not ready after %s; see %s", what, timeout, s.LogDir)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(150 * time.Millisecond):
		}
	}
}

func tcpUp(addr string) func() bool {
	return func() bool {
		c, err := net.DialTimeout("tcp", addr, 300*time.Millisecond)
		if err != nil {
			return false
		}
		c.Close()
		return true
	}
}

func httpOK(url string) func() bool {
	client := &http.Client{Timeout: time.Second}
	return func() bool {
		resp, err := client.Get(url)
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode < 300
	}
}

// portFree fails early, with the port named, when something else holds it.
func portFree(addr string) error {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		var se *os.SyscallError
		if errors.As(err, &se) && errors.Is(se.Err, syscall.EADDRINUSE) {
			return fmt.Errorf("%s is already in use; stop whatever holds it (an earlier `make run`?) and try again", addr)
		}
		return err
	}
	return l.Close()
}

// logSays reports whether the process's log contains text.
func logSays(path, text string) bool {
	b, err := os.ReadFile(path)
	return err == nil && bytes.Contains(b, []byte(text))
}
