package service_test

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"

	"uplift.dev/platform/pgtest"
	"uplift.dev/platform/service"
)

// A pool too small for the service's listeners is refused at start, by
// either setting that sizes it, naming both, before the service accepts a
// call it could never answer.
func TestAPoolTooSmallForTheListenersIsRefusedAtStart(t *testing.T) {
	t.Parallel()
	url := pgtest.URL(t)
	base := service.Base{FirebaseProjectID: "demo-pool", FirebaseAuthEmulatorHost: "127.0.0.1:1"}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	for _, tc := range []struct {
		name     string
		url      string
		maxConns int
	}{
		{"DATABASE_MAX_CONNS=2", url, 2},
		{"pool_max_conns=3", url + "&pool_max_conns=3", 0},
	} {
		b := base
		b.DatabaseURL, b.DatabaseMaxConns = tc.url, tc.maxConns
		rt, err := service.Start(context.Background(), "pooltest", "pooltest", b, log, nil)
		if err == nil {
			rt.Close()
			t.Errorf("%s: the service started", tc.name)
			continue
		}
		if !strings.Contains(err.Error(), "DATABASE_MAX_CONNS") || !strings.Contains(err.Error(), "pool_max_conns") {
			t.Errorf("%s: %v, want a refusal naming DATABASE_MAX_CONNS and pool_max_conns", tc.name, err)
		}
	}
}
