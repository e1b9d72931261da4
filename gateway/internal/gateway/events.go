package gateway

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/netip"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"

	categoriesv1 "uplift.dev/proto/gen/uplift/categories/v1"
	eventsv1 "uplift.dev/proto/gen/uplift/events/v1"

	"uplift.dev/platform/events"
)

// defaultHeartbeat keeps idle streams open through proxies that close
// silent connections.
const defaultHeartbeat = 15 * time.Second

// reportEvent is what the web receives for each ReportUpdated.
type reportEvent struct {
	CategoryID      string `json:"categoryId"`
	ReportID        string `json:"reportId"`
	Status          string `json:"status"`
	ProgressPercent int32  `json:"progressPercent"`
}

// reportStream serves GET /events/categories/{categoryId} as Server-Sent
// Events, so the Home page updates the moment a report moves instead of at
// its next 30 s poll. The categories service decides who may listen: the
// caller's bearer token goes to its GetLabel, which applies the same owner
// or uplifter rule as every other category call. Core NATS (not a durable
// consumer) is enough: a missed event is caught by the next poll.
func reportStream(nc *nats.Conn, categories categoriesv1.CategoriesServiceClient, heartbeat time.Duration, log *slog.Logger) http.HandlerFunc {
	if heartbeat <= 0 {
		heartbeat = defaultHeartbeat
	}
	return func(w http.ResponseWriter, r *http.Request) {
		if nc == nil {
			writeJSONError(w, http.StatusServiceUnavailable, codes.Unavailable, "Live updates are not available. The page still refreshes on its own.")
			return
		}
		categoryID := r.PathValue("categoryId")
		ctx := r.Context()
		actx, cancel := context.WithTimeout(ctx, 10*time.Second)
		if auth := r.Header.Get("Authorization"); auth != "" {
			actx = metadata.AppendToOutgoingContext(actx, "authorization", auth)
		}
		_, err := categories.GetLabel(actx, &categoriesv1.GetLabelRequest{CategoryId: categoryID})
		cancel()
		if err != nil {
			writeError(ctx, nil, nil, w, r, err)
			return
		}
		flusher, ok := w.(http.Flusher)
		if !ok {
			writeJSONError(w, http.StatusInternalServerError, codes.Internal, "Streaming is not supported here.")
			return
		}

		msgs := make(chan reportEvent, 64)
		sub, err := nc.Subscribe(events.SubjectReportUpdated, func(m *nats.Msg) {
			var ev eventsv1.ReportUpdated
			if proto.Unmarshal(m.Data, &ev) != nil || ev.GetCategoryId() != categoryID {
				return
			}
			select {
			case msgs <- reportEvent{ev.GetCategoryId(), ev.GetReportId(), ev.GetStatus(), ev.GetProgressPercent()}:
			default: // a client that cannot keep up catches up at its next poll
			}
		})
		if err != nil {
			log.WarnContext(ctx, "events: subscribe failed", "err", err)
			writeJSONError(w, http.StatusServiceUnavailable, codes.Unavailable, "Live updates are not available. The page still refreshes on its own.")
			return
		}
		defer func() { _ = sub.Unsubscribe() }()

		h := w.Header()
		h.Set("Content-Type", "text/event-stream")
		h.Set("Cache-Control", "no-cache")
		h.Set("Connection", "keep-alive")
		h.Set("X-Accel-Buffering", "no")
		w.WriteHeader(http.StatusOK)
		// A first comment tells the client the stream is live.
		if _, err := fmt.Fprint(w, ": connected\n\n"); err != nil {
			return
		}
		flusher.Flush()
		tick := time.NewTicker(heartbeat)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				if _, err := fmt.Fprint(w, ": heartbeat\n\n"); err != nil {
					return
				}
			case ev := <-msgs:
				data, _ := json.Marshal(ev)
				if _, err := fmt.Fprintf(w, "event: report\ndata: %s\n\n", data); err != nil {
					return
				}
			}
			flusher.Flush()
		}
	}
}

// websiteScoreLimiter is a token bucket per client IP for the public
// website score: every check makes the categories service fetch a stranger's
// website, so one visitor must not be able to turn it into a crawler. The
// buckets live in this process: each gateway replica counts on its own, so
// with N replicas a client gets up to N times the limit (see the README).
type websiteScoreLimiter struct {
	mu      sync.Mutex
	perMin  float64
	buckets map[string]*bucket
	now     func() time.Time
	seen    int
}

type bucket struct {
	tokens float64
	last   time.Time
}

func newWebsiteScoreLimiter(perMinute int) *websiteScoreLimiter {
	if perMinute <= 0 {
		perMinute = 10
	}
	return &websiteScoreLimiter{perMin: float64(perMinute), buckets: map[string]*bucket{}, now: time.Now}
}

// allow takes a token from ip's bucket, which refills perMinute tokens a minute.
func (l *websiteScoreLimiter) allow(ip string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	l.seen++
	if l.seen%1024 == 0 {
		l.prune(now)
	}
	b, ok := l.buckets[ip]
	if !ok {
		b = &bucket{tokens: l.perMin, last: now}
		l.buckets[ip] = b
	}
	b.tokens = min(l.perMin, b.tokens+now.Sub(b.last).Minutes()*l.perMin)
	b.last = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// prune forgets buckets that have refilled, so memory stays bounded by the
// clients of the last minute.
func (l *websiteScoreLimiter) prune(now time.Time) {
	for ip, b := range l.buckets {
		if now.Sub(b.last) > time.Minute {
			delete(l.buckets, ip)
		}
	}
}

// websiteScoreMethod is the RPC the limit guards. The limit sits on the
// gateway's gRPC client, not on an HTTP route, so every way of reaching the
// RPC (GET, HEAD, a form POST, whatever grpc-gateway maps next) spends the
// same bucket.
const websiteScoreMethod = categoriesv1.CategoriesService_GetWebsiteScore_FullMethodName

// errWebsiteScoreLimited is the 429 answer; its RetryInfo becomes the
// Retry-After header.
var errWebsiteScoreLimited = func() error {
	st := status.New(codes.ResourceExhausted, "Too many website checks. Please try again in a minute.")
	if d, err := st.WithDetails(&errdetails.RetryInfo{RetryDelay: durationpb.New(time.Minute)}); err == nil {
		st = d
	}
	return st.Err()
}()

// intercept refuses a website check once the client's bucket is empty. The
// client is the address withClient put in the context (the peer, or the
// forwarded address when the peer is a trusted proxy); an IPv6 client is
// counted by its /64, the block one subscriber usually holds.
func (l *websiteScoreLimiter) intercept(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
	if method == websiteScoreMethod && !l.allow(bucketKey(clientFrom(ctx))) {
		return errWebsiteScoreLimited
	}
	return invoker(ctx, method, req, reply, cc, opts...)
}

func bucketKey(client string) string {
	a, err := netip.ParseAddr(client)
	if err != nil || a.Is4() {
		return client
	}
	return netip.PrefixFrom(a, 64).Masked().String()
}

// mountEvents adds the live report stream to root; New calls it once. It
// returns what must be closed with the gateway.
func mountEvents(root *http.ServeMux, o Options, categories categoriesv1.CategoriesServiceClient) (func(), error) {
	var nc *nats.Conn
	if o.NATSURL != "" {
		var err error
		nc, err = nats.Connect(o.NATSURL, nats.Name("gateway"), nats.MaxReconnects(-1), nats.RetryOnFailedConnect(true))
		if err != nil {
			return nil, fmt.Errorf("nats %s: %w", o.NATSURL, err)
		}
	}
	if categories != nil {
		root.HandleFunc("GET /events/categories/{categoryId}", reportStream(nc, categories, o.EventsHeartbeat, o.Log))
	}
	return func() {
		if nc != nil {
			nc.Close()
		}
	}, nil
}
