package gateway

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"testing"

	"google.golang.org/grpc"

	categoriesv1 "uplift.dev/proto/gen/uplift/categories/v1"
	usersv1 "uplift.dev/proto/gen/uplift/users/v1"

	"uplift.dev/platform/events"
	"uplift.dev/platform/natsauth"
	"uplift.dev/platform/natstest"
)

// TestRateLimitsAreSharedByReplicas: limits per replica would multiply
// with the replicas. Two gateway
// replicas on one NATS, signed in with the gateway's own key and its
// production permissions, behind one trusted proxy. A visitor whose checks
// and sign-ups alternate between the replicas is refused at the same count
// as with a single gateway: 3 website checks, 2 sign-ups. With the buckets
// in each replica's memory they got twice that.
func TestRateLimitsAreSharedByReplicas(t *testing.T) {
	t.Parallel()
	natsURL, keys := natstest.StartSecure(t)
	signer, err := events.NewSigner(natsauth.Gateway, keys.Seed(natsauth.Gateway))
	if err != nil {
		t.Fatal(err)
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer()
	categoriesv1.RegisterCategoriesServiceServer(srv, fakeCategories{})
	usersv1.RegisterUsersServiceServer(srv, &fakeUsers{})
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(srv.Stop)
	replica := func() string {
		return setupWith(t, lis.Addr().String(), func(o *Options) {
			o.NATSURL, o.NATSOptions = natsURL, append(o.NATSOptions, signer.NATSOption())
			o.WebsiteScorePerMinute, o.SignUpsPerHour = 3, 2
			o.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}
		})
	}
	replicas := []string{replica(), replica()}
	visitor := map[string]string{"X-Forwarded-For": "198.51.100.7"}

	allowed := func(try func(url string, i int) int) (n int) {
		for i := range 8 {
			switch code := try(replicas[i%2], i); code {
			case http.StatusTooManyRequests:
			case http.StatusOK:
				n++
			default:
				t.Fatalf("try %d: %d", i, code)
			}
		}
		return n
	}
	checks := allowed(func(url string, _ int) int {
		code, _, _ := do(t, "GET", url+"/internal/website-score?url=shop.example", "", visitor)
		return code
	})
	if checks != 3 {
		t.Errorf("website checks allowed across two replicas: %d, want 3 (the limit once)", checks)
	}
	signUps := allowed(func(url string, i int) int {
		code, _, _ := do(t, "POST", url+"/internal/users", fmt.Sprintf(`{"email":"new%d@example.com","password":"secret1"}`, i), visitor)
		return code
	})
	if signUps != 2 {
		t.Errorf("sign-ups allowed across two replicas: %d, want 2 (the limit once)", signUps)
	}
	// Another visitor has buckets of their own in the shared store.
	if code, _, _ := do(t, "GET", replicas[1]+"/internal/website-score?url=shop.example", "", map[string]string{"X-Forwarded-For": "198.51.100.8"}); code != 200 {
		t.Fatalf("another visitor: %d", code)
	}
}
