// Package simkit is what the local stack's simulators of outside services
// (Shopify, WooCommerce, Google Analytics 4) share and is no part of any one
// service's API: panic recovery, the fault queue their control APIs fill,
// strict JSON bodies for those control APIs, waits that end when the
// simulator closes, and a loopback-only HTTP serve loop. Their tests'
// helpers are in simtest.
package simkit

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"
)

// Recover turns a handler panic into a 500, written by fail in the
// simulated service's own error shape, so a simulator bug never kills a test run.
func Recover(log *slog.Logger, h http.Handler, fail func(http.ResponseWriter)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				log.Error("panic", "path", r.URL.Path, "panic", v)
				fail(w)
			}
		}()
		h.ServeHTTP(w, r)
	})
}

// Fault makes the next Count calls of one kind misbehave; each simulator
// names its kinds and what they do.
type Fault struct {
	Kind  string        `json:"kind"`
	Count int           `json:"count"` // 0 = 1
	Delay time.Duration `json:"-"`
}

// Faults is one store's queue of faults; the caller holds its lock.
type Faults []Fault

// Add queues a fault; a Count of 0 or less means one.
func (fs *Faults) Add(f Fault) {
	if f.Count <= 0 {
		f.Count = 1
	}
	*fs = append(*fs, f)
}

// Take uses up one count of the first fault of that kind; nil when none is queued.
func (fs *Faults) Take(kind string) *Fault {
	for i := range *fs {
		f := &(*fs)[i]
		if f.Kind == kind && f.Count > 0 {
			f.Count--
			out := *f
			if f.Count == 0 {
				*fs = append((*fs)[:i], (*fs)[i+1:]...)
			}
			return &out
		}
	}
	return nil
}

// Stall waits out a "slow" fault: its Delay, one second when unset, or until
// ctx ends (the client gave up); it reports whether the full wait elapsed.
func (f *Fault) Stall(ctx context.Context) bool {
	d := f.Delay
	if d == 0 {
		d = time.Second
	}
	return Sleep(ctx, d)
}

// DecodeFault reads a control API's {"kind","count","delayMs"} body; on a
// bad one it has answered 400.
func DecodeFault(w http.ResponseWriter, r *http.Request) (Fault, bool) {
	var body struct {
		Kind    string `json:"kind"`
		Count   int    `json:"count"`
		DelayMs int64  `json:"delayMs"`
	}
	if !Decode(w, r, &body) {
		return Fault{}, false
	}
	return Fault{Kind: body.Kind, Count: body.Count, Delay: time.Duration(body.DelayMs) * time.Millisecond}, true
}

// Decode reads a control API's JSON body into v, refusing unknown fields so
// a misspelt setting fails loudly; on failure it has answered 400.
func Decode(w http.ResponseWriter, r *http.Request, v any) bool {
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, 4<<20))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		ControlJSON(w, http.StatusBadRequest, map[string]string{"error": "bad JSON body: " + err.Error()})
		return false
	}
	return true
}

// Sleep waits d or until ctx ends; it reports whether the full wait elapsed.
func Sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// EnvOr is the environment's value for key, or def when it is unset or empty.
func EnvOr(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}

// Listen listens on addr, which must be a loopback address: a simulator
// accepts any credentials it is given and must never face a network.
func Listen(addr string) (net.Listener, error) {
	if host, _, err := net.SplitHostPort(addr); err != nil || !net.ParseIP(host).IsLoopback() {
		return nil, fmt.Errorf("-addr %q must be a loopback address (127.0.0.1 or [::1] and a port)", addr)
	}
	return net.Listen("tcp", addr)
}

// Serve serves h on ln until SIGINT or SIGTERM, then shuts down within 5 s.
func Serve(log *slog.Logger, name string, ln net.Listener, h http.Handler) error {
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	log.Info(name + " stopping")
	if err := srv.Shutdown(shutdown); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// Control answers a simulator's control API in the one shape its clients
// (the web end-to-end tests, make run) read from every simulator:
// {"ok": true}, or {"error": "…"} with 404 for the errors in NotFound, 409
// for those in Conflict and 400 for any other.
type Control struct {
	NotFound, Conflict []error
}

// OK answers {"ok": true} with status, or err as Error does when it is not nil.
func (c Control) OK(w http.ResponseWriter, status int, err error) {
	if err != nil {
		c.Error(w, err)
		return
	}
	ControlJSON(w, status, map[string]bool{"ok": true})
}

// Error answers err with the status its kind maps to.
func (c Control) Error(w http.ResponseWriter, err error) {
	status := http.StatusBadRequest
	if isAny(err, c.NotFound) {
		status = http.StatusNotFound
	} else if isAny(err, c.Conflict) {
		status = http.StatusConflict
	}
	ControlJSON(w, status, map[string]string{"error": err.Error()})
}

// PathID reads the path value name as an id; on a bad one it has answered
// 400 with "<what> must be a number".
func (c Control) PathID(w http.ResponseWriter, r *http.Request, name, what string) (int64, bool) {
	id, err := strconv.ParseInt(r.PathValue(name), 10, 64)
	if err != nil {
		ControlJSON(w, http.StatusBadRequest, map[string]string{"error": what + " must be a number"})
		return 0, false
	}
	return id, true
}

// ControlJSON writes v as a control API's JSON answer.
func ControlJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func isAny(err error, targets []error) bool {
	for _, t := range targets {
		if errors.Is(err, t) {
			return true
		}
	}
	return false
}

// Main runs a simulator's command with its arguments, logging JSON to
// stderr; a failure is logged and the process exits 1.
func Main(name string, run func(log *slog.Logger, args []string) error) {
	log := slog.New(slog.NewJSONHandler(os.Stderr, nil))
	if err := run(log, os.Args[1:]); err != nil {
		log.Error(name+" stopped", "err", err)
		os.Exit(1)
	}
}
