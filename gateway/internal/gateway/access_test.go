package gateway

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	categoriesv1 "uplift.dev/proto/gen/uplift/categories/v1"
	eventsv1 "uplift.dev/proto/gen/uplift/events/v1"

	"uplift.dev/platform/events"
	"uplift.dev/platform/natstest"
)

// uplifterCategories lets "Bearer lifter" act on every category until its
// role is revoked, and counts the access checks it answers.
type uplifterCategories struct {
	categoriesv1.UnimplementedCategoriesServiceServer
	mu      sync.Mutex
	revoked bool
	checks  int
}

func (f *uplifterCategories) CheckCategoryAccess(ctx context.Context, _ *categoriesv1.CheckCategoryAccessRequest) (*categoriesv1.CheckCategoryAccessResponse, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.checks++
	md, _ := metadata.FromIncomingContext(ctx)
	if a := md.Get("authorization"); len(a) == 0 || a[0] != "Bearer lifter" || f.revoked {
		return nil, status.Error(codes.PermissionDenied, "You do not have access to this business.")
	}
	return &categoriesv1.CheckCategoryAccessResponse{UserId: "u-lifter"}, nil
}

// streamStatus opens the live stream of category as auth and says how it
// was answered.
func streamStatus(t *testing.T, url, category, auth string) int {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", url+"/events/categories/"+category, nil)
	req.Header.Set("Authorization", auth)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	return resp.StatusCode
}

// TestARevokedUplifterIsRefusedOnceTheEventArrives: the gateway remembers
// that an uplifter may follow a category, so a second stream costs no call
// to categories; the role's revocation, announced on NATS, makes it ask
// again at once rather than when its answer expires.
func TestARevokedUplifterIsRefusedOnceTheEventArrives(t *testing.T) {
	t.Parallel()
	natsURL := natstest.Start(t)
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	fake := &uplifterCategories{}
	srv := grpc.NewServer()
	categoriesv1.RegisterCategoriesServiceServer(srv, fake)
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(srv.Stop)
	h, closeAll, err := New(context.Background(), Options{
		Backends: map[string]string{"categories": lis.Addr().String()},
		NATSURL:  natsURL, EventsHeartbeat: time.Second, Log: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(closeAll)
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	cat := "3f1c1d9e-0000-4000-8000-000000000001"

	for range 2 {
		if got := streamStatus(t, ts.URL, cat, "Bearer lifter"); got != http.StatusOK {
			t.Fatalf("the uplifter's stream: %d, want 200", got)
		}
	}
	fake.mu.Lock()
	checks := fake.checks
	fake.revoked = true
	fake.mu.Unlock()
	if checks != 1 {
		t.Fatalf("two streams asked categories %d times, want 1", checks)
	}
	// Revoked but not announced yet: the remembered answer still stands.
	if got := streamStatus(t, ts.URL, cat, "Bearer lifter"); got != http.StatusOK {
		t.Fatalf("before the event: %d, want 200 from the cache", got)
	}

	nc, err := nats.Connect(natsURL)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	data, _ := proto.Marshal(&eventsv1.UserRoleChanged{UserId: "u-lifter", Role: "uplifter"})
	// Well inside the answer's 5 s lifetime, so only the event can end it;
	// sent again until seen, as the gateway may still be subscribing.
	deadline := time.Now().Add(2 * time.Second)
	for {
		if err := nc.Publish(events.SubjectUserRoleChanged, data); err != nil {
			t.Fatal(err)
		}
		_ = nc.Flush()
		if streamStatus(t, ts.URL, cat, "Bearer lifter") == http.StatusForbidden {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the revoked uplifter still follows the category 2 s after the event")
		}
		time.Sleep(20 * time.Millisecond)
	}
}
