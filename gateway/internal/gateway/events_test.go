package gateway

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
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

// fakeCategories lets "Bearer owner" read category c1 only, like the real
// service's owner rule, and scores any site.
type fakeCategories struct {
	categoriesv1.UnimplementedCategoriesServiceServer
}

func (fakeCategories) GetLabel(ctx context.Context, r *categoriesv1.GetLabelRequest) (*categoriesv1.GetLabelResponse, error) {
	md, _ := metadata.FromIncomingContext(ctx)
	if a := md.Get("authorization"); len(a) == 0 || a[0] != "Bearer owner" {
		return nil, status.Error(codes.Unauthenticated, "Please sign in to continue.")
	}
	if r.GetCategoryId() != "c1" {
		return nil, status.Error(codes.PermissionDenied, "You do not have access to this business.")
	}
	return &categoriesv1.GetLabelResponse{Name: "Clay & Co"}, nil
}

func (fakeCategories) GetWebsiteScore(_ context.Context, r *categoriesv1.GetWebsiteScoreRequest) (*categoriesv1.GetWebsiteScoreResponse, error) {
	return &categoriesv1.GetWebsiteScoreResponse{Url: r.GetUrl(), Score: 42, Band: "medium"}, nil
}

func setupEvents(t *testing.T, natsURL string) string {
	t.Helper()
	return setupEventsWith(t, natsURL, nil)
}

// setupEventsWith is setupEvents with the options changed by edit.
func setupEventsWith(t *testing.T, natsURL string, edit func(*Options)) string {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer()
	categoriesv1.RegisterCategoriesServiceServer(srv, fakeCategories{})
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(srv.Stop)
	o := Options{
		Backends: map[string]string{"categories": lis.Addr().String()},
		NATSURL:  natsURL, EventsHeartbeat: 200 * time.Millisecond, WebsiteScorePerMinute: 3,
		MaxBodyBytes: 1024, Log: slog.New(slog.NewTextHandler(io.Discard, nil)),
	}
	if edit != nil {
		edit(&o)
	}
	h, closeAll, err := New(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(closeAll)
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	return ts.URL
}

func publishReport(t *testing.T, nc *nats.Conn, category, report, st string, pct int32) {
	t.Helper()
	data, _ := proto.Marshal(&eventsv1.ReportUpdated{CategoryId: category, ReportId: report, Status: st, ProgressPercent: pct})
	if err := nc.Publish(events.SubjectReportUpdated, data); err != nil {
		t.Fatal(err)
	}
	_ = nc.Flush()
}

func TestReportEventsStreamOnlyTheCallersCategory(t *testing.T) {
	t.Parallel()
	natsURL := natstest.Start(t)
	url := setupEvents(t, natsURL)
	nc, err := nats.Connect(natsURL)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()

	// Who may listen is the categories service's decision.
	for _, tt := range []struct {
		auth, path string
		want       int
	}{
		{"", "/events/categories/c1", http.StatusUnauthorized},
		{"Bearer owner", "/events/categories/c2", http.StatusForbidden},
	} {
		code, _, body := do(t, "GET", url+tt.path, "", map[string]string{"Authorization": tt.auth})
		if code != tt.want || body["message"] == "" {
			t.Fatalf("%s %q: %d %v", tt.path, tt.auth, code, body)
		}
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", url+"/events/categories/c1", nil)
	req.Header.Set("Authorization", "Bearer owner")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("status %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	lines := make(chan string, 100)
	go func() {
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	next := func() string {
		t.Helper()
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatal("stream ended")
			}
			return l
		case <-time.After(5 * time.Second):
			t.Fatal("no line in time")
		}
		return ""
	}
	if l := next(); l != ": connected" {
		t.Fatalf("first line %q", l)
	}
	publishReport(t, nc, "c2", "r9", "REPORT_STATUS_READY", 100) // someone else's: never sent
	publishReport(t, nc, "c1", "r1", "REPORT_STATUS_GENERATING", 40)
	var got []string
	sawHeartbeat := false
	streamDeadline := time.Now().Add(10 * time.Second)
	for len(got) < 2 {
		if time.Now().After(streamDeadline) {
			t.Fatalf("only heartbeats for 10 s; events so far: %v", got)
		}
		l := next()
		switch {
		case l == ": heartbeat":
			sawHeartbeat = true
		case strings.HasPrefix(l, "event: ") || strings.HasPrefix(l, "data: "):
			got = append(got, l)
		}
	}
	if got[0] != "event: report" {
		t.Fatalf("event line %q", got[0])
	}
	var ev map[string]any
	if err := json.Unmarshal([]byte(strings.TrimPrefix(got[1], "data: ")), &ev); err != nil {
		t.Fatal(err)
	}
	if ev["categoryId"] != "c1" || ev["reportId"] != "r1" || ev["status"] != "REPORT_STATUS_GENERATING" || ev["progressPercent"] != float64(40) {
		t.Fatalf("event %v", ev)
	}
	for !sawHeartbeat {
		if l := next(); l == ": heartbeat" {
			sawHeartbeat = true
		} else if strings.HasPrefix(l, "data: ") {
			t.Fatalf("unexpected event %q", l)
		}
	}
	// The client going away ends the subscription.
	cancel()
	deadline := time.Now().Add(5 * time.Second)
	for {
		n := subscriptions(t, natsURL)
		if n == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d subscriptions left after the client went", n)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// subscriptions counts subscriptions on the report subject other than
// this test's own connection's (it has none).
func subscriptions(t *testing.T, natsURL string) int {
	t.Helper()
	nc, err := nats.Connect(natsURL)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	// A request to the subject gets no responders unless someone listens.
	_, err = nc.Request(events.SubjectReportUpdated, nil, 100*time.Millisecond)
	if err == nats.ErrNoResponders {
		return 0
	}
	return 1
}

func TestEventsWithoutNATSAre503(t *testing.T) {
	t.Parallel()
	url := setupEvents(t, "")
	code, _, body := do(t, "GET", url+"/events/categories/c1", "", map[string]string{"Authorization": "Bearer owner"})
	if code != http.StatusServiceUnavailable || body["message"] == "" {
		t.Fatalf("%d %v", code, body)
	}
}

func TestWebsiteScoreIsRateLimitedPerClient(t *testing.T) {
	t.Parallel()
	url := setupEvents(t, "")
	for i := range 3 {
		code, _, body := do(t, "GET", url+"/internal/website-score?url=shop.example", "", nil)
		if code != 200 || body["score"] != float64(42) {
			t.Fatalf("check %d: %d %v", i, code, body)
		}
	}
	code, h, body := do(t, "GET", url+"/internal/website-score?url=shop.example", "", nil)
	if code != http.StatusTooManyRequests || body["message"] != "Too many website checks. Please try again in a minute." ||
		body["code"] != float64(codes.ResourceExhausted) || h.Get("Retry-After") == "" {
		t.Fatalf("4th check: %d %v", code, body)
	}
	// Other calls are not limited.
	if code, _, _ := do(t, "GET", url+"/internal/categories/c1/label", "", map[string]string{"Authorization": "Bearer owner"}); code != 200 {
		t.Fatalf("label: %d", code)
	}
}
