package stack

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"
)

// proc is one child process, run in its own process group so that stopping
// it also stops what it started (npx, node workers).
type proc struct {
	name string
	cmd  *exec.Cmd
	done chan struct{}
	err  error
}

func (s *Stack) start(name string, env []string, dir string, argv ...string) (*proc, error) {
	logPath := filepath.Join(s.LogDir, name+".log")
	logFile, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		logFile.Close()
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	p := &proc{name: name, cmd: cmd, done: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		logFile.Close()
		close(p.done)
	}()
	s.procs = append(s.procs, p)
	return p, nil
}

// stop asks the group to end, then kills it after grace.
func (p *proc) stop(grace time.Duration) {
	select {
	case <-p.done:
		return
	default:
	}
	pgid := p.cmd.Process.Pid
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(grace):
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
		<-p.done
	}
	// Reap stragglers that left the leader behind.
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
}

// waitFor polls check until it succeeds, the process dies or timeout passes.
func (s *Stack) waitFor(ctx context.Context, p *proc, what string, timeout time.Duration, check func() bool) error {
	deadline := time.Now().Add(timeout)
	for {
		if check() {
			return nil
		}
		if p != nil {
			select {
			case <-p.done:
				return fmt.Errorf("%s exited before it was ready (%v); see %s", p.name, p.err, filepath.Join(s.LogDir, p.name+".log"))
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
