package grpcserver

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// A fast successful call is logged at debug only; a failed one at info
// (error for a server fault), so the log keeps what an operator needs.
func TestCallLogLevels(t *testing.T) {
	var out bytes.Buffer
	log := slog.New(slog.NewTextHandler(&out, &slog.HandlerOptions{Level: slog.LevelInfo}))
	icpt := observe(log, newMetrics(prometheus.NewRegistry()))
	call := func(method string, err error) {
		_, _ = icpt(context.Background(), nil, &grpc.UnaryServerInfo{FullMethod: method},
			func(context.Context, any) (any, error) { return nil, err })
	}
	call("/svc/Fast", nil)
	call("/svc/Missing", status.Error(codes.NotFound, "no such thing"))
	call("/svc/Broken", status.Error(codes.Internal, "db down"))
	logged := out.String()
	if strings.Contains(logged, "/svc/Fast") {
		t.Fatalf("a fast success was logged at info: %q", logged)
	}
	if !strings.Contains(logged, "level=INFO msg=rpc method=/svc/Missing") || !strings.Contains(logged, "level=ERROR msg=rpc method=/svc/Broken") {
		t.Fatalf("failures not logged at their levels: %q", logged)
	}
}
