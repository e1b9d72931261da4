// Package apibench is `make bench`'s API measure: a load generator that
// drives the product (the gateway and the services, as `make run` starts
// them) and a bare net/http baseline doing the same work (Bare), one after
// the other in the same run, and the one table that reports them.
package apibench

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// Request builds the n-th request of a measure; worker tells the callers
// apart (each may use its own user).
type Request func(worker int, n int64) (*http.Request, error)

// Result is one phase of load on one target.
type Result struct {
	Requests   int64
	Errors     int64
	PerSecond  float64
	P50, P99   time.Duration
	FirstError string
	// CPUPerRequest is the target's processes' CPU time over the phase per
	// answered request (Run fills it for the maximum-throughput phases).
	CPUPerRequest time.Duration
}

// Client is a keep-alive client sized for conns concurrent callers.
func Client(conns int) *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConns, t.MaxIdleConnsPerHost, t.MaxConnsPerHost = conns, conns, conns
	return &http.Client{Transport: t, Timeout: 10 * time.Second}
}

// Max runs conns callers back to back (each sends its next request when the
// last one answered, as wrk does) for d: the target's maximum throughput.
func Max(ctx context.Context, c *http.Client, conns int, d time.Duration, req Request) Result {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	rec := newRecorder(conns)
	var wg sync.WaitGroup
	start := time.Now()
	for w := range conns {
		wg.Go(func() {
			for n := int64(0); ctx.Err() == nil; n++ {
				t0 := time.Now()
				err := do(ctx, c, req, w, n)
				if ctx.Err() != nil {
					return // cut off by the end of the phase, not an answer
				}
				rec.add(w, time.Since(t0), err)
			}
		})
	}
	wg.Wait()
	return rec.result(time.Since(start))
}

// Rate sends rate requests a second, evenly spaced, for d, with up to conns
// in flight; each latency counts from when the request was due, so a
// backlog shows in the percentiles instead of slowing the sender
// (coordinated omission).
func Rate(ctx context.Context, c *http.Client, conns int, rate float64, d time.Duration, req Request) Result {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	interval := time.Duration(float64(time.Second) / rate)
	due := make(chan time.Time, conns*4)
	rec := newRecorder(conns)
	var wg sync.WaitGroup
	var seq atomic.Int64
	start := time.Now()
	for w := range conns {
		wg.Go(func() {
			for at := range due {
				err := do(ctx, c, req, w, seq.Add(1))
				if ctx.Err() != nil {
					continue
				}
				rec.add(w, time.Since(at), err)
			}
		})
	}
	for next := start; ctx.Err() == nil; next = next.Add(interval) {
		if wait := time.Until(next); wait > 0 {
			select {
			case <-ctx.Done():
			case <-time.After(wait):
			}
		}
		if ctx.Err() == nil {
			due <- next
		}
	}
	close(due)
	wg.Wait()
	return rec.result(time.Since(start))
}

func do(ctx context.Context, c *http.Client, req Request, w int, n int64) error {
	r, err := req(w, n)
	if err != nil {
		return err
	}
	resp, err := c.Do(r.WithContext(ctx))
	if err != nil {
		return err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("%s %s: %s", r.Method, r.URL.Path, resp.Status)
	}
	return nil
}

type recorder struct {
	mu        sync.Mutex
	latencies [][]time.Duration
	errors    atomic.Int64
	first     atomic.Value
}

func newRecorder(workers int) *recorder {
	return &recorder{latencies: make([][]time.Duration, workers)}
}

func (r *recorder) add(w int, d time.Duration, err error) {
	if err != nil {
		r.errors.Add(1)
		r.first.CompareAndSwap(nil, err.Error())
		return
	}
	r.latencies[w] = append(r.latencies[w], d) // one slice per worker: no lock
}

func (r *recorder) result(elapsed time.Duration) Result {
	var all []time.Duration
	for _, l := range r.latencies {
		all = append(all, l...)
	}
	slices.Sort(all)
	res := Result{Requests: int64(len(all)), Errors: r.errors.Load(), PerSecond: float64(len(all)) / elapsed.Seconds()}
	if len(all) > 0 {
		res.P50 = all[len(all)*50/100]
		res.P99 = all[min(len(all)-1, len(all)*99/100)]
	}
	if s, ok := r.first.Load().(string); ok {
		res.FirstError = s
	}
	return res
}
