package auth

import (
	"context"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

func TestBackendGrants(t *testing.T) {
	t.Parallel()
	b, err := newBackends(Grants{
		"support": {Methods: []string{"/u.v1.S/GetUser", "/u.v1.S/GetProfile"}, PerMinute: 2},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, err := b.admit(context.Background(), "support", "/u.v1.S/GetUser")
	if err != nil {
		t.Fatal(err)
	}
	if c, ok := FromContext(ctx); !ok || c.Backend != "support" || c.UID != "" {
		t.Fatalf("claims %+v", c)
	}
	// A backend's call is its own: the token check leaves it alone.
	if _, err := check(ctx, fakeVerifier{}, nil, "/u.v1.S/GetUser"); err != nil {
		t.Fatalf("token check of an admitted backend: %v", err)
	}

	for _, tc := range []struct{ backend, method, want string }{
		{"support", "/u.v1.S/DeleteUser", `Backend "support" may not call /u.v1.S/DeleteUser: it is granted only /u.v1.S/GetProfile, /u.v1.S/GetUser.`},
		{"crawler", "/u.v1.S/GetUser", `Backend "crawler" may not call /u.v1.S/GetUser: it is granted no method of this service.`},
	} {
		_, err := b.admit(context.Background(), tc.backend, tc.method)
		if status.Code(err) != codes.PermissionDenied || status.Convert(err).Message() != tc.want {
			t.Errorf("%s %s: %v", tc.backend, tc.method, err)
		}
	}

	// Its own limit: the third call in the minute is refused (two taken above
	// and here; the refused calls took none).
	if _, err := b.admit(context.Background(), "support", "/u.v1.S/GetProfile"); err != nil {
		t.Fatal(err)
	}
	_, err = b.admit(context.Background(), "support", "/u.v1.S/GetProfile")
	if status.Code(err) != codes.ResourceExhausted || !strings.Contains(err.Error(), "support") {
		t.Fatalf("over the limit: %v", err)
	}
}

func TestBackendGrantsRefuseABadLimit(t *testing.T) {
	t.Parallel()
	if _, err := newBackends(Grants{"support": {PerMinute: -1}}, nil); err == nil {
		t.Fatal("a negative limit was accepted")
	}
}
