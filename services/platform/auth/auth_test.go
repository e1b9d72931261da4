package auth

import (
	"context"
	"errors"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
)

type fakeVerifier map[string]Claims

func (f fakeVerifier) Verify(_ context.Context, tok string) (Claims, error) {
	c, ok := f[tok]
	if !ok {
		return Claims{}, errors.New("bad token")
	}
	return c, nil
}

// fakeStream is a server stream with only a context.
type fakeStream struct {
	grpc.ServerStream
	ctx context.Context
}

func (s fakeStream) Context() context.Context { return s.ctx }

// TestInterceptors runs each case through the unary and the stream
// interceptor: an upload is refused or admitted exactly as a call is.
func TestInterceptors(t *testing.T) {
	v := fakeVerifier{"good": {UID: "u1", Admin: true}}
	public := map[string]bool{"/svc/Public": true}
	var seen Claims
	var seenOK bool
	unary := UnaryInterceptor(v, public)
	stream := StreamInterceptor(v, public)
	calls := map[string]func(ctx context.Context, method string) error{
		"unary": func(ctx context.Context, method string) error {
			_, err := unary(ctx, nil, &grpc.UnaryServerInfo{FullMethod: method}, func(ctx context.Context, _ any) (any, error) {
				seen, seenOK = FromContext(ctx)
				return "ok", nil
			})
			return err
		},
		"stream": func(ctx context.Context, method string) error {
			return stream(nil, fakeStream{ctx: ctx}, &grpc.StreamServerInfo{FullMethod: method}, func(_ any, ss grpc.ServerStream) error {
				seen, seenOK = FromContext(ss.Context())
				return nil
			})
		},
	}
	tests := []struct {
		name, method, header string
		want                 codes.Code
		wantUID              string
	}{
		{"no token on private", "/svc/Private", "", codes.Unauthenticated, ""},
		{"unauthed on private", "/svc/Private", "Bearer unauthed", codes.Unauthenticated, ""},
		{"unauthed on public", "/svc/Public", "Bearer unauthed", codes.OK, ""},
		{"valid token", "/svc/Private", "Bearer good", codes.OK, "u1"},
		{"lower-case scheme", "/svc/Private", "bearer good", codes.OK, "u1"},
		{"invalid token on private", "/svc/Private", "Bearer forged", codes.Unauthenticated, ""},
		{"invalid token on public", "/svc/Public", "Bearer forged", codes.Unauthenticated, ""},
		{"health is open", "/grpc.health.v1.Health/Check", "", codes.OK, ""},
	}
	for kind, call := range calls {
		for _, tt := range tests {
			t.Run(kind+"/"+tt.name, func(t *testing.T) {
				seen, seenOK = Claims{}, false
				ctx := context.Background()
				if tt.header != "" {
					ctx = metadata.NewIncomingContext(ctx, metadata.Pairs("authorization", tt.header))
				}
				err := call(ctx, tt.method)
				if status.Code(err) != tt.want {
					t.Fatalf("code = %v, want %v", status.Code(err), tt.want)
				}
				if tt.wantUID != "" && (!seenOK || seen.UID != tt.wantUID || !seen.Admin) {
					t.Fatalf("claims = %+v, %v", seen, seenOK)
				}
				if tt.wantUID == "" && seenOK {
					t.Fatalf("anonymous call carried claims %+v", seen)
				}
			})
		}
	}
}

func TestEmulatorOnlyForDemoProjects(t *testing.T) {
	if _, err := NewFirebaseClient(context.Background(), "my-real-project", "127.0.0.1:9099"); !errors.Is(err, ErrEmulatorNotDemo) {
		t.Fatalf("err = %v, want ErrEmulatorNotDemo", err)
	}
	if _, err := NewFirebaseClient(context.Background(), "", ""); err == nil {
		t.Fatal("empty project accepted")
	}
}
