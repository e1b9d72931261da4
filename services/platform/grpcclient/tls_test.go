package grpcclient

import (
	"context"
	"net"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	"uplift.dev/platform/devcerts"
	"uplift.dev/platform/mtls"
)

// TestTLSToAListOfCopies: each copy of a `host:port,host:port` list is
// verified against its own host, not the list as a whole (which names no
// host, and so no certificate).
func TestTLSToAListOfCopies(t *testing.T) {
	ca, err := devcerts.NewCA("test CA")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	serverFiles, err := ca.Write(dir, mtls.Identity{Kind: mtls.KindService, Name: "users"}, "127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	clientFiles, err := ca.Write(dir, mtls.Identity{Kind: mtls.KindService, Name: "gateway"})
	if err != nil {
		t.Fatal(err)
	}
	server, err := mtls.Load(serverFiles)
	if err != nil {
		t.Fatal(err)
	}
	client, err := mtls.Load(clientFiles)
	if err != nil {
		t.Fatal(err)
	}
	var list string
	for range 2 {
		lis, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		srv := grpc.NewServer(grpc.Creds(credentials.NewTLS(server.ServerConfig())))
		healthpb.RegisterHealthServer(srv, health.NewServer())
		go func() { _ = srv.Serve(lis) }()
		t.Cleanup(srv.Stop)
		if list != "" {
			list += ","
		}
		list += lis.Addr().String()
	}
	conn, err := New(list, TLS(client))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for range 4 {
		if _, err := healthpb.NewHealthClient(conn).Check(context.Background(), &healthpb.HealthCheckRequest{}); err != nil {
			t.Fatal(err)
		}
	}
}
