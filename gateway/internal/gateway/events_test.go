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
	"slices"
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

// fakeCategories lets "Bearer owner" (and "Bearer owner-phone", the same
// user's second device) read category c1 and "Bearer other" category c2
// only, like the real service's owner rule, and scores any site.
type fakeCategories struct {
	categoriesv1.UnimplementedCategoriesServiceServer
}

var fakeOwners = map[string]string{"Bearer owner": "c1", "Bearer owner-phone": "c1", "Bearer other": "c2"}

// fakeUsers names the user of each token.
var fakeUserOf = map[string]string{"Bearer owner": "u-owner", "Bearer owner-phone": "u-owner", "Bearer other": "u-other"}

// access is the owner rule: the user of the caller's token, or the error.
func (fakeCategories) access(ctx context.Context, categoryID string) (string, error) {
	md, _ := metadata.FromIncomingContext(ctx)
	a := md.Get("authorization")
	if len(a) == 0 || fakeOwners[a[0]] == "" {
		return "", status.Error(codes.Unauthenticated, "Please sign in to continue.")
	}
	if categoryID != fakeOwners[a[0]] {
		return "", status.Error(codes.PermissionDenied, "You do not have access to this business.")
	}
	return fakeUserOf[a[0]], nil
}

func (f fakeCategories) GetLabel(ctx context.Context, r *categoriesv1.GetLabelRequest) (*categoriesv1.GetLabelResponse, error) {
	if _, err := f.access(ctx, r.GetCategoryId()); err != nil {
		return nil, err
	}
	return &categoriesv1.GetLabelResponse{Name: "Clay & Co"}, nil
}

func (f fakeCategories) CheckCategoryAccess(ctx context.Context, r *categoriesv1.CheckCategoryAccessRequest) (*categoriesv1.CheckCategoryAccessResponse, error) {
	user, err := f.access(ctx, r.GetCategoryId())
	if err != nil {
		return nil, err
	}
	return &categoriesv1.CheckCategoryAccessResponse{UserId: user}, nil
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
	subject, err := events.ReportUpdatedSubject(category)
	if err != nil {
		t.Fatal(err)
	}
	if err := nc.Publish(subject, data); err != nil {
		t.Fatal(err)
	}
	_ = nc.Flush()
}

// openStream opens the live stream at url+path as auth and returns its
// lines, one by one, once ": connected" has arrived; ending ctx ends it.
func openStream(t *testing.T, ctx context.Context, url, path, auth string) (next func() string) {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx, "GET", url+path, nil)
	req.Header.Set("Authorization", auth)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("%s: status %d %s", path, resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	lines := make(chan string, 100)
	go func() {
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	next = func() string {
		t.Helper()
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("%s: stream ended", path)
			}
			return l
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: no line in time", path)
		}
		return ""
	}
	if l := next(); l != ": connected" {
		t.Fatalf("%s: first line %q", path, l)
	}
	return next
}

// nextEvent skips heartbeats and returns the next event's data, noting
// whether a heartbeat came first.
func nextEvent(t *testing.T, next func() string, sawHeartbeat *bool) map[string]any {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if time.Now().After(deadline) {
			t.Fatal("only heartbeats for 10 s")
		}
		l := next()
		switch {
		case l == ": heartbeat":
			*sawHeartbeat = true
		case l == "event: report":
		case strings.HasPrefix(l, "data: "):
			var ev map[string]any
			if err := json.Unmarshal([]byte(strings.TrimPrefix(l, "data: ")), &ev); err != nil {
				t.Fatal(err)
			}
			return ev
		case l != "":
			t.Fatalf("unexpected line %q", l)
		}
	}
}

// gatewayReportSubs is the report subjects the gateway's NATS connection
// subscribes to, and how many messages NATS has sent that connection.
func gatewayReportSubs(t *testing.T, natsURL string) (subjects []string, delivered int64) {
	t.Helper()
	for _, c := range natstest.Connections(t, natsURL) {
		if c.Name != "gateway" {
			continue
		}
		for _, s := range c.Subs {
			if strings.HasPrefix(s, strings.TrimSuffix(events.SubjectReportUpdated, "*")) {
				subjects = append(subjects, s)
			}
		}
		slices.Sort(subjects)
		return subjects, c.OutMsgs
	}
	t.Fatal("the gateway is not connected to NATS")
	return nil, 0
}

// TestReportEventsStreamOnlyTheCallersCategory: who may listen is the
// categories service's decision; each open stream subscribes to its own
// category's subject only (NATS permissions allow no wider one), so NATS sends the gateway each event
// once, for the one stream it is for, and never another category's.
func TestReportEventsStreamOnlyTheCallersCategory(t *testing.T) {
	t.Parallel()
	natsURL := natstest.Start(t)
	url := setupEvents(t, natsURL)
	nc, err := nats.Connect(natsURL)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()

	for _, tt := range []struct {
		auth, path string
		want       int
	}{
		{"", "/events/categories/c1", http.StatusUnauthorized},
		{"Bearer owner", "/events/categories/c2", http.StatusForbidden},
		// Not one subject token: refused before any subscription is made.
		{"Bearer owner", "/events/categories/c1.x", http.StatusBadRequest},
		{"Bearer owner", "/events/categories/*", http.StatusBadRequest},
		{"Bearer owner", "/events/categories/%3E", http.StatusBadRequest},
		{"Bearer owner", "/events/categories/c1%20x", http.StatusBadRequest},
		{"Bearer owner", "/events/categories/" + strings.Repeat("a", 65), http.StatusBadRequest},
	} {
		code, _, body := do(t, "GET", url+tt.path, "", map[string]string{"Authorization": tt.auth})
		if code != tt.want || body["message"] == "" {
			t.Fatalf("%s %q: %d %v", tt.path, tt.auth, code, body)
		}
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	nextA := openStream(t, ctx, url, "/events/categories/c1", "Bearer owner")
	otherCtx, closeB := context.WithCancel(context.Background())
	defer closeB()
	nextB := openStream(t, otherCtx, url, "/events/categories/c2", "Bearer other")

	subs, before := gatewayReportSubs(t, natsURL)
	if want := []string{"uplift.categories.report_updated.c1", "uplift.categories.report_updated.c2"}; !slices.Equal(subs, want) {
		t.Fatalf("the gateway subscribes to %v, want %v", subs, want)
	}
	publishReport(t, nc, "c2", "r7", "REPORT_STATUS_GENERATING", 10)
	publishReport(t, nc, "c2", "r8", "REPORT_STATUS_GENERATING", 60)
	publishReport(t, nc, "c1", "r1", "REPORT_STATUS_GENERATING", 40)
	publishReport(t, nc, "c2", "r9", "REPORT_STATUS_READY", 100)

	sawHeartbeat := false
	if ev := nextEvent(t, nextA, &sawHeartbeat); ev["categoryId"] != "c1" || ev["reportId"] != "r1" ||
		ev["status"] != "REPORT_STATUS_GENERATING" || ev["progressPercent"] != float64(40) {
		t.Fatalf("c1's stream got %v", ev)
	}
	for _, want := range []string{"r7", "r8", "r9"} {
		if ev := nextEvent(t, nextB, new(bool)); ev["categoryId"] != "c2" || ev["reportId"] != want {
			t.Fatalf("c2's stream got %v, want %s", ev, want)
		}
	}
	// Four events, each sent to the gateway once: none went to the other
	// category's subscription to be decoded and dropped.
	if _, after := gatewayReportSubs(t, natsURL); after-before != 4 {
		t.Fatalf("NATS sent the gateway %d messages for 4 events", after-before)
	}
	for !sawHeartbeat {
		if l := nextA(); l == ": heartbeat" {
			sawHeartbeat = true
		} else if strings.HasPrefix(l, "data: ") {
			t.Fatalf("c1's stream got another category's event %q", l)
		}
	}
	// A client going away ends its own subscription and no other.
	cancel()
	waitForSubs(t, natsURL, []string{"uplift.categories.report_updated.c2"})
	closeB()
	waitForSubs(t, natsURL, nil)
}

func waitForSubs(t *testing.T, natsURL string, want []string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		subs, _ := gatewayReportSubs(t, natsURL)
		if slices.Equal(subs, want) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the gateway subscribes to %v, want %v", subs, want)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestEventStreamsAreCappedPerUser: each stream holds a connection, a
// goroutine and a NATS subscription while the page is open, so one user
// (whatever token or device) may hold only so many; past that the answer is
// 429 with a sentence, other users are not affected, and a stream that
// closes makes room for a new one.
func TestEventStreamsAreCappedPerUser(t *testing.T) {
	t.Parallel()
	natsURL := natstest.Start(t)
	url := setupEventsWith(t, natsURL, func(o *Options) { o.EventStreamsPerUser = 3 })
	const path = "/events/categories/c1"
	first, closeFirst := context.WithCancel(context.Background())
	defer closeFirst()
	openStream(t, first, url, path, "Bearer owner")
	for _, auth := range []string{"Bearer owner", "Bearer owner-phone"} {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		openStream(t, ctx, url, path, auth)
	}
	// With a deadline: a stream that is (wrongly) accepted never ends.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", url+path, nil)
	req.Header.Set("Authorization", "Bearer owner-phone")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusTooManyRequests {
		resp.Body.Close()
		t.Fatalf("the 4th stream of one user: %d, want 429", resp.StatusCode)
	}
	var body struct{ Message string }
	_ = json.NewDecoder(resp.Body).Decode(&body)
	resp.Body.Close()
	if !strings.Contains(body.Message, "too many live update streams open (at most 3)") {
		t.Fatalf("the 4th stream of one user: %q", body.Message)
	}
	// Another user's stream is not counted with them.
	other, closeOther := context.WithCancel(context.Background())
	defer closeOther()
	openStream(t, other, url, "/events/categories/c2", "Bearer other")

	closeFirst()
	deadline := time.Now().Add(5 * time.Second)
	for {
		req, _ := http.NewRequestWithContext(t.Context(), "GET", url+path, nil)
		req.Header.Set("Authorization", "Bearer owner")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode == http.StatusOK {
			resp.Body.Close()
			break
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusTooManyRequests || time.Now().After(deadline) {
			t.Fatalf("after one stream closed: %d", resp.StatusCode)
		}
		time.Sleep(50 * time.Millisecond)
	}
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
