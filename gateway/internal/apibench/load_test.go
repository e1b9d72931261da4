package apibench

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"syscall"
	"testing"
	"time"
)

func TestLoadPhases(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" {
			time.Sleep(20 * time.Millisecond)
		}
		if r.URL.Path == "/fail" {
			w.WriteHeader(http.StatusInternalServerError)
		}
	}))
	defer srv.Close()
	get := func(path string) Request {
		return func(int, int64) (*http.Request, error) { return http.NewRequest("GET", srv.URL+path, nil) }
	}
	c := Client(4)
	ctx := context.Background()
	if r := Max(ctx, c, 4, 300*time.Millisecond, get("/")); r.Requests == 0 || r.Errors != 0 || r.PerSecond <= 0 {
		t.Fatalf("max: %+v", r)
	}
	// 100 a second for 1 s: at most 100 answers (fewer on a busy machine:
	// those still in flight at the end are not counted), each at least
	// 20 ms after it was due.
	r := Rate(ctx, c, 8, 100, time.Second, get("/slow"))
	if r.Requests < 30 || r.Requests > 101 || r.P50 < 20*time.Millisecond {
		t.Fatalf("rate: %+v", r)
	}
	if r := Max(ctx, c, 2, 100*time.Millisecond, get("/fail")); r.Errors == 0 || r.FirstError == "" || r.Requests != 0 {
		t.Fatalf("errors: %+v", r)
	}
}

// readCPU counts this process's own CPU time: spinning for 100 ms of CPU
// moves it by about that much.
func TestReadCPUCountsTheProcess(t *testing.T) {
	pids := []int{os.Getpid()}
	before := readCPU(pids)
	var ru0, ru1 syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
	for {
		_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru1)
		if time.Duration(ru1.Utime.Nano()+ru1.Stime.Nano()-ru0.Utime.Nano()-ru0.Stime.Nano()) >= 100*time.Millisecond {
			break
		}
	}
	if got := readCPU(pids) - before; got < 50*time.Millisecond || got > time.Second {
		t.Fatalf("readCPU moved by %v over 100 ms of CPU", got)
	}
	if got := readCPU([]int{-1}); got != 0 {
		t.Fatalf("a missing process counts %v", got)
	}
}
