package gateway

import (
	"context"
	"io"
	"net/http"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	usersv1 "uplift.dev/proto/gen/uplift/users/v1"
)

// The gateway's cost is read as a ratio: the same GetUser through REST and
// the gateway against a direct gRPC call to the same backend, side by side.

func BenchmarkGetUserThroughGateway(b *testing.B) {
	e := setup(b)
	client := &http.Client{}
	b.ReportAllocs()
	for b.Loop() {
		resp, err := client.Get(e.url + "/internal/users/u1")
		if err != nil {
			b.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			b.Fatalf("status %d", resp.StatusCode)
		}
	}
}

func BenchmarkGetUserDirectGRPC(b *testing.B) {
	e := setup(b)
	conn, err := grpc.NewClient(e.backend, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close()
	c := usersv1.NewUsersServiceClient(conn)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.GetUser(context.Background(), &usersv1.GetUserRequest{UserId: "u1"}); err != nil {
			b.Fatal(err)
		}
	}
}
