// Command demostore serves the demo store website on its own, for a stack
// whose parts run apart from devstack (the containers of `make containers`),
// where the website review needs a store it may read.
package main

import (
	"context"
	"errors"
	"flag"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"uplift.dev/devstack/internal/demostore"
)

func main() {
	if err := run(); err != nil {
		slog.Error("demostore", "err", err)
		os.Exit(1)
	}
}

func run() error {
	addr := flag.String("addr", "127.0.0.1:9400", "address to listen on")
	origin := flag.String("origin", "", "the store's origin as visitors see it (default: http:// and -addr)")
	flag.Parse()
	if *origin == "" {
		*origin = "http://" + *addr
	}
	srv := &http.Server{Addr: *addr, Handler: demostore.Handler(*origin), ReadHeaderTimeout: 10 * time.Second}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(shutdown)
	}()
	slog.Info("demo store", "addr", *addr, "origin", *origin)
	if err := srv.ListenAndServe(); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
