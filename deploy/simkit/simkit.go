// Package simkit is what the local stack's simulators of outside services
// (Shopify, Google Analytics 4) share and is no part of any one service's
// API: panic recovery, strict JSON bodies for control APIs, a loopback-only
// HTTP serve loop, and a JSON walker for their tests.
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

// Decode reads a control API's JSON body into v, refusing unknown fields so
// a misspelt setting fails loudly; on failure it has answered 400.
func Decode(w http.ResponseWriter, r *http.Request, v any) bool {
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, 4<<20))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.WriteHeader(http.StatusBadRequest)
		_ = json.NewEncoder(w).Encode(map[string]string{"error": "bad JSON body: " + err.Error()})
		return false
	}
	return true
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

// Dig walks a decoded JSON value by object keys and list indexes; a missing
// step gives nil, so tests can compare deep fields in one expression.
func Dig(v any, path ...any) any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, _ := v.(map[string]any)
			v = m[k]
		case int:
			l, _ := v.([]any)
			if k < 0 || k >= len(l) {
				return nil
			}
			v = l[k]
		}
	}
	return v
}
