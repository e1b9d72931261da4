package categoryaccess

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	categoriesv1 "uplift.dev/proto/gen/uplift/categories/v1"
	eventsv1 "uplift.dev/proto/gen/uplift/events/v1"
)

// fakeCategories answers CheckCategoryAccess by a table of who (the bearer
// token names the user) may act on which category, and counts the calls.
type fakeCategories struct {
	mu      sync.Mutex
	owners  map[string]string // category -> owner's token
	lifters map[string]bool   // tokens of uplifters
	calls   int
	during  func() // runs inside a call, to race an event with it
}

func (f *fakeCategories) Invoke(ctx context.Context, method string, args, reply any, _ ...grpc.CallOption) error {
	if method != categoriesv1.CategoriesService_CheckCategoryAccess_FullMethodName {
		return status.Error(codes.Unimplemented, method)
	}
	f.mu.Lock()
	f.calls++
	during := f.during
	md, _ := metadata.FromOutgoingContext(ctx)
	tok := ""
	if v := md.Get("authorization"); len(v) > 0 {
		tok = v[0]
	}
	owner, found := f.owners[args.(*categoriesv1.CheckCategoryAccessRequest).GetCategoryId()]
	lifter := f.lifters[tok]
	f.mu.Unlock()
	if during != nil {
		during()
	}
	switch {
	case tok == "":
		return status.Error(codes.Unauthenticated, "Sign in first.")
	case !found:
		return status.Error(codes.NotFound, "No such business.")
	case tok != owner && !lifter:
		return status.Error(codes.PermissionDenied, "Not your business.")
	}
	reply.(*categoriesv1.CheckCategoryAccessResponse).UserId = "user-" + tok
	return nil
}

func (f *fakeCategories) NewStream(context.Context, *grpc.StreamDesc, string, ...grpc.CallOption) (grpc.ClientStream, error) {
	return nil, errors.New("no streams")
}

func (f *fakeCategories) revoke(tok string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.lifters, tok)
}

func (f *fakeCategories) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls
}

type manualClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *manualClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *manualClock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func setUp(t *testing.T, o Options) (*Checker, *fakeCategories, *manualClock) {
	t.Helper()
	f := &fakeCategories{owners: map[string]string{"cat-1": "owner", "cat-2": "owner", "cat-3": "owner"},
		lifters: map[string]bool{"lifter": true}}
	clk := &manualClock{t: time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)}
	o.Clock = clk
	return New(f, o), f, clk
}

// as is a call served for the holder of tok, as a service sees it: the
// token on the incoming call, which platform/grpcclient forwards.
func as(tok string) context.Context {
	return metadata.NewIncomingContext(context.Background(), metadata.Pairs("authorization", tok))
}

// forwarded is what platform/grpcclient does to the call: the fake reads
// the outgoing token, as categories reads the forwarded one.
type forwarding struct{ *fakeCategories }

func (f forwarding) Invoke(ctx context.Context, method string, args, reply any, opts ...grpc.CallOption) error {
	if in, ok := metadata.FromIncomingContext(ctx); ok {
		if v := in.Get("authorization"); len(v) > 0 {
			ctx = metadata.AppendToOutgoingContext(ctx, "authorization", v[0])
		}
	}
	return f.fakeCategories.Invoke(ctx, method, args, reply, opts...)
}

func setUpForwarding(t *testing.T, o Options) (*Checker, *fakeCategories, *manualClock) {
	t.Helper()
	_, f, clk := setUp(t, o)
	o.Clock = clk
	return New(forwarding{f}, o), f, clk
}

func mustAllow(t *testing.T, c *Checker, ctx context.Context, category, wantUser string) {
	t.Helper()
	user, err := c.Check(ctx, category)
	if err != nil || user != wantUser {
		t.Fatalf("Check(%s) = %q, %v; want %q, nil", category, user, err, wantUser)
	}
}

func TestAYesIsRememberedPerCallerAndCategory(t *testing.T) {
	t.Parallel()
	c, f, _ := setUpForwarding(t, Options{})
	for range 3 {
		mustAllow(t, c, as("owner"), "cat-1", "user-owner")
	}
	if f.count() != 1 {
		t.Fatalf("3 checks of one caller on one category made %d calls, want 1", f.count())
	}
	mustAllow(t, c, as("lifter"), "cat-1", "user-lifter")
	mustAllow(t, c, as("owner"), "cat-2", "user-owner")
	if f.count() != 3 {
		t.Fatalf("another caller and another category made %d calls in all, want 3", f.count())
	}
}

func TestTheGatewaysOwnTokenIsTheKey(t *testing.T) {
	t.Parallel()
	c, f, _ := setUp(t, Options{})
	out := func(tok string) context.Context {
		return metadata.AppendToOutgoingContext(context.Background(), "authorization", tok)
	}
	mustAllow(t, c, out("owner"), "cat-1", "user-owner")
	mustAllow(t, c, out("owner"), "cat-1", "user-owner")
	if f.count() != 1 {
		t.Fatalf("calls = %d, want 1", f.count())
	}
	if _, err := c.Check(out("stranger"), "cat-1"); !errors.Is(err, ErrPermissionDenied) {
		t.Fatalf("a stranger with the owner's answer cached: %v", err)
	}
}

func TestRefusalsAreNotRememberedAndKeepCategoriesStatus(t *testing.T) {
	t.Parallel()
	c, f, _ := setUpForwarding(t, Options{})
	cases := []struct {
		ctx      context.Context
		category string
		want     error
		code     codes.Code
	}{
		{as("stranger"), "cat-1", ErrPermissionDenied, codes.PermissionDenied},
		{as("owner"), "no-such", ErrNotFound, codes.NotFound},
		{context.Background(), "cat-1", ErrPermissionDenied, codes.Unauthenticated},
	}
	for _, tc := range cases {
		for range 2 {
			_, err := c.Check(tc.ctx, tc.category)
			if !errors.Is(err, tc.want) || status.Code(err) != tc.code {
				t.Fatalf("Check(%s) = %v (%v), want %v (%v)", tc.category, err, status.Code(err), tc.want, tc.code)
			}
		}
	}
	if f.count() != 2*len(cases) {
		t.Fatalf("calls = %d, want %d: a refusal was remembered", f.count(), 2*len(cases))
	}
}

func TestAnswersExpire(t *testing.T) {
	t.Parallel()
	c, f, clk := setUpForwarding(t, Options{TTL: 3 * time.Second})
	mustAllow(t, c, as("lifter"), "cat-1", "user-lifter")
	f.revoke("lifter") // with no event: only the expiry ends the access
	clk.add(2999 * time.Millisecond)
	mustAllow(t, c, as("lifter"), "cat-1", "user-lifter")
	clk.add(time.Millisecond)
	if _, err := c.Check(as("lifter"), "cat-1"); !errors.Is(err, ErrPermissionDenied) {
		t.Fatalf("a revoked uplifter one TTL later: %v, want refused", err)
	}
	if f.count() != 2 {
		t.Fatalf("calls = %d, want 2", f.count())
	}
}

func TestARoleChangeEndsTheUsersAccessAtOnce(t *testing.T) {
	t.Parallel()
	c, f, _ := setUpForwarding(t, Options{})
	mustAllow(t, c, as("lifter"), "cat-1", "user-lifter")
	mustAllow(t, c, as("lifter"), "cat-2", "user-lifter")
	mustAllow(t, c, as("owner"), "cat-1", "user-owner")
	f.revoke("lifter")
	c.OnUserRoleChanged(context.Background(), &eventsv1.UserRoleChanged{UserId: "user-lifter", Role: "uplifter"})
	for _, cat := range []string{"cat-1", "cat-2"} {
		if _, err := c.Check(as("lifter"), cat); !errors.Is(err, ErrPermissionDenied) {
			t.Fatalf("the revoked uplifter on %s right after the event: %v, want refused", cat, err)
		}
	}
	calls := f.count()
	mustAllow(t, c, as("owner"), "cat-1", "user-owner")
	if f.count() != calls {
		t.Fatal("the event about the uplifter dropped the owner's answer too")
	}
}

func TestACategoryChangeForgetsItsAnswers(t *testing.T) {
	t.Parallel()
	c, f, _ := setUpForwarding(t, Options{})
	mustAllow(t, c, as("owner"), "cat-1", "user-owner")
	mustAllow(t, c, as("owner"), "cat-2", "user-owner")
	f.mu.Lock()
	f.owners["cat-1"] = "new-owner"
	f.mu.Unlock()
	c.OnCategoryUpdated(context.Background(), &eventsv1.CategoryUpdated{CategoryId: "cat-1", OwnerUserId: "user-new-owner"})
	if _, err := c.Check(as("owner"), "cat-1"); !errors.Is(err, ErrPermissionDenied) {
		t.Fatalf("the old owner after the owner changed: %v, want refused", err)
	}
	calls := f.count()
	mustAllow(t, c, as("owner"), "cat-2", "user-owner")
	if f.count() != calls {
		t.Fatal("the event about cat-1 dropped cat-2's answer too")
	}
}

func TestAnAnswerOvertakenByAnEventIsNotKept(t *testing.T) {
	t.Parallel()
	c, f, _ := setUpForwarding(t, Options{})
	f.during = func() {
		// The role is revoked and announced while the allowing answer is on
		// its way back.
		f.revoke("lifter")
		c.OnUserRoleChanged(context.Background(), &eventsv1.UserRoleChanged{UserId: "user-lifter"})
	}
	mustAllow(t, c, as("lifter"), "cat-1", "user-lifter")
	f.during = nil
	if _, err := c.Check(as("lifter"), "cat-1"); !errors.Is(err, ErrPermissionDenied) {
		t.Fatalf("an answer from before the event was kept: %v", err)
	}
}

func TestTheCacheIsBounded(t *testing.T) {
	t.Parallel()
	c, f, _ := setUpForwarding(t, Options{Size: 2})
	for i := range 50 {
		f.mu.Lock()
		f.owners[fmt.Sprint("many-", i)] = "owner"
		f.mu.Unlock()
		mustAllow(t, c, as("owner"), fmt.Sprint("many-", i), "user-owner")
		c.mu.Lock()
		n := len(c.entries)
		c.mu.Unlock()
		if n > 2 {
			t.Fatalf("%d entries kept, bound 2", n)
		}
	}
	// The newest answer is kept.
	calls := f.count()
	mustAllow(t, c, as("owner"), "many-49", "user-owner")
	if f.count() != calls {
		t.Fatal("the newest answer was not kept")
	}
}

func TestChecksMadeTogetherShareOneCall(t *testing.T) {
	t.Parallel()
	c, f, _ := setUpForwarding(t, Options{})
	release := make(chan struct{})
	f.during = func() { <-release }
	var wg sync.WaitGroup
	for range 3 {
		wg.Go(func() {
			if user, err := c.Check(as("owner"), "cat-1"); err != nil || user != "user-owner" {
				t.Errorf("Check = %q, %v", user, err)
			}
		})
	}
	// Let the three reach the checker before the one call returns.
	deadline := time.Now().Add(5 * time.Second)
	for f.count() == 0 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	time.Sleep(50 * time.Millisecond)
	close(release)
	wg.Wait()
	if f.count() != 1 {
		t.Fatalf("three checks at once made %d calls, want 1", f.count())
	}
}
