package tracing

import (
	"context"
	"net"
	"testing"

	"go.opentelemetry.io/otel/trace"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/test/bufconn"
)

// Tracing off, a gRPC call still carries its caller's trace context to the
// callee, as the light interceptors pass it on, so the trace id reaches
// the callee's logs.
func TestOffPassesTheTraceOverGRPC(t *testing.T) {
	if _, err := Start(context.Background(), "users", Settings{}, quiet); err != nil {
		t.Fatal(err)
	}
	seen := make(chan trace.SpanContext, 1)
	lis := bufconn.Listen(1 << 20)
	srv := grpc.NewServer(GRPCServerOption(), grpc.ChainUnaryInterceptor(
		func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, next grpc.UnaryHandler) (any, error) {
			seen <- trace.SpanContextFromContext(ctx)
			return next(ctx, req)
		}))
	healthpb.RegisterHealthServer(srv, health.NewServer())
	go func() { _ = srv.Serve(lis) }()
	defer srv.Stop()
	conn, err := grpc.NewClient("passthrough:///bufnet", GRPCDialOption(), GRPCStreamDialOption(),
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	const tp = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
	ctx := WithTraceParent(context.Background(), tp)
	if _, err := healthpb.NewHealthClient(conn).Check(ctx, &healthpb.HealthCheckRequest{}); err != nil {
		t.Fatal(err)
	}
	if sc := <-seen; TraceParent(trace.ContextWithSpanContext(context.Background(), sc)) != tp {
		t.Errorf("the callee saw %v, want the caller's %s", sc, tp)
	}
}
