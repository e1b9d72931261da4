package grpcserver

import (
	"context"
	"io"
	"log/slog"
	"net"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	reflectionpb "google.golang.org/grpc/reflection/grpc_reflection_v1"
	"google.golang.org/grpc/status"
)

// listServices asks addr's server reflection for its services.
func listServices(t *testing.T, conn *grpc.ClientConn) ([]string, error) {
	t.Helper()
	stream, err := reflectionpb.NewServerReflectionClient(conn).ServerReflectionInfo(context.Background())
	if err != nil {
		return nil, err
	}
	defer stream.CloseSend()
	if err := stream.Send(&reflectionpb.ServerReflectionRequest{MessageRequest: &reflectionpb.ServerReflectionRequest_ListServices{}}); err != nil {
		return nil, err
	}
	resp, err := stream.Recv()
	if err != nil {
		return nil, err
	}
	var names []string
	for _, s := range resp.GetListServicesResponse().GetService() {
		names = append(names, s.GetName())
	}
	return names, nil
}

// TestReflectionAndHealthOnTheInternalPort: grpcurl and the kubelet's
// grpc probe reach health and reflection on the internal port, in
// plaintext; the gRPC port does not describe its API.
func TestReflectionAndHealthOnTheInternalPort(t *testing.T) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	metricsAddr := lis.Addr().String()
	lis.Close()
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, Options{Name: "test", Addr: "127.0.0.1:0", MetricsAddr: metricsAddr,
			Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Verifier: &countingVerifier{},
			Register: func(s *grpc.Server) { s.RegisterService(&pingDesc, struct{}{}) },
			Ready:    func(addr string) { ready <- addr }})
	}()
	t.Cleanup(func() { cancel(); <-done })
	addr := <-ready
	dial := func(a string) *grpc.ClientConn {
		conn, err := grpc.NewClient(a, grpc.WithTransportCredentials(insecure.NewCredentials()))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { conn.Close() })
		return conn
	}
	internal, public := dial(metricsAddr), dial(addr)

	resp, err := healthpb.NewHealthClient(internal).Check(context.Background(), &healthpb.HealthCheckRequest{Service: "test"})
	if err != nil || resp.GetStatus() != healthpb.HealthCheckResponse_SERVING {
		t.Fatalf("internal health: %v, %v", resp, err)
	}
	names, err := listServices(t, internal)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, n := range names {
		found = found || n == "test.Ping"
	}
	if !found {
		t.Fatalf("internal reflection lists %v, want test.Ping among them", names)
	}

	if _, err := listServices(t, public); status.Code(err) != codes.Unimplemented {
		t.Fatalf("reflection on the gRPC port: %v, want Unimplemented", err)
	}
	if _, err := healthpb.NewHealthClient(public).Check(context.Background(), &healthpb.HealthCheckRequest{}); err != nil {
		t.Fatalf("health on the gRPC port (callers' balancers ask it): %v", err)
	}
}
