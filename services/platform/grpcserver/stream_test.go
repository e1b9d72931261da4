package grpcserver

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"uplift.dev/platform/auth"
)

// uploadDesc is a client-streaming service for tests: it reads strings
// until the client is done and answers with the caller's uid, or panics
// on "panic".
var uploadDesc = grpc.ServiceDesc{
	ServiceName: "test.Upload",
	HandlerType: (*any)(nil),
	Streams: []grpc.StreamDesc{{StreamName: "Upload", ClientStreams: true, Handler: func(_ any, ss grpc.ServerStream) error {
		for {
			var in wrapperspb.StringValue
			err := ss.RecvMsg(&in)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				return err
			}
			if in.GetValue() == "panic" {
				panic("boom")
			}
		}
		claims, _ := auth.FromContext(ss.Context())
		return ss.SendMsg(wrapperspb.String(claims.UID))
	}}},
}

// TestStreamsAreGuardedLikeCalls: a streaming upload is authenticated, its
// messages checked, its panics recovered, as a unary call is.
func TestStreamsAreGuardedLikeCalls(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, Options{Name: "test", Addr: "127.0.0.1:0", Log: slog.New(slog.NewTextHandler(io.Discard, nil)),
			Verifier: &countingVerifier{}, Register: func(s *grpc.Server) { s.RegisterService(&uploadDesc, struct{}{}) },
			Ready: func(addr string) { ready <- addr }})
	}()
	t.Cleanup(func() { cancel(); <-done })
	conn, err := grpc.NewClient(<-ready, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	upload := func(ctx context.Context, values ...string) (string, error) {
		st, err := conn.NewStream(ctx, &uploadDesc.Streams[0], "/test.Upload/Upload")
		if err != nil {
			return "", err
		}
		for _, v := range values {
			if err := st.SendMsg(wrapperspb.String(v)); err != nil {
				break // the server ended the call; its status comes below
			}
		}
		if err := st.CloseSend(); err != nil {
			return "", err
		}
		var out wrapperspb.StringValue
		err = st.RecvMsg(&out)
		return out.GetValue(), err
	}
	signedIn := metadata.AppendToOutgoingContext(context.Background(), "authorization", "Bearer t")

	if _, err := upload(context.Background(), "a"); status.Code(err) != codes.Unauthenticated {
		t.Errorf("no token: %v, want Unauthenticated", err)
	}
	if uid, err := upload(signedIn, "a", "b"); err != nil || uid != "u1" {
		t.Errorf("signed in: %q, %v; want the caller's uid", uid, err)
	}
	if _, err := upload(signedIn, "a", "NUL\x00"); status.Code(err) != codes.InvalidArgument {
		t.Errorf("a NUL in a message: %v, want InvalidArgument", err)
	}
	if _, err := upload(signedIn, "panic"); status.Code(err) != codes.Internal || status.Convert(err).Message() != "internal error" {
		t.Errorf("a panic: %v, want Internal with no detail", err)
	}
}
