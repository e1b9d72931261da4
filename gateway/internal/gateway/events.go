package gateway

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/proto"

	"uplift.dev/proto/categoryaccess"
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
// caller's bearer token goes to its CheckCategoryAccess (through the
// shared, briefly cached client), which applies the same owner or uplifter
// rule as every other category call and names the caller. Core NATS (not a durable
// consumer) is enough: a missed event is caught by the next poll. Each
// stream subscribes to its category's own subject, so NATS sends it that
// category's events only, however many other Home pages are open.
//
// Each stream holds a goroutine, a NATS subscription and a connection for as
// long as the page is open, so a user may hold at most perUser of them at
// once in this process (streamSlots); past that, 429 until one closes.
func reportStream(nc *nats.Conn, trust *events.Trust, access *categoryaccess.Checker, heartbeat time.Duration, perUser int, log *slog.Logger) http.HandlerFunc {
	if heartbeat <= 0 {
		heartbeat = defaultHeartbeat
	}
	slots := newStreamSlots(perUser)
	return func(w http.ResponseWriter, r *http.Request) {
		if nc == nil {
			writeJSONError(w, http.StatusServiceUnavailable, codes.Unavailable, "Live updates are not available. The page still refreshes on its own.")
			return
		}
		categoryID := r.PathValue("categoryId")
		subject, err := events.ReportUpdatedSubject(categoryID)
		if err != nil {
			writeJSONError(w, http.StatusBadRequest, codes.InvalidArgument, "categoryId is not a valid id.")
			return
		}
		ctx := r.Context()
		actx, cancel := context.WithTimeout(ctx, 10*time.Second)
		if auth := r.Header.Get("Authorization"); auth != "" {
			actx = metadata.AppendToOutgoingContext(actx, "authorization", auth)
		}
		userID, err := access.Check(actx, categoryID)
		cancel()
		if err != nil {
			writeError(ctx, nil, nil, w, r, err)
			return
		}
		if !slots.take(userID) {
			writeJSONError(w, http.StatusTooManyRequests, codes.ResourceExhausted, fmt.Sprintf(tooManyStreamsMessage, slots.max))
			return
		}
		defer slots.give(userID)
		flusher, ok := w.(http.Flusher)
		if !ok {
			writeJSONError(w, http.StatusInternalServerError, codes.Internal, "Streaming is not supported here.")
			return
		}

		msgs := make(chan reportEvent, 64)
		sub, err := nc.Subscribe(subject, func(m *nats.Msg) {
			if _, err := trust.Check(m.Subject, m.Header.Get(jetstream.MsgIDHeader), m.Header, m.Data); err != nil {
				log.Warn("events: report event refused", "err", err)
				return
			}
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
		// ": connected" promises that events from now on arrive: the server
		// must have the subscription before the client is told so.
		if err := nc.FlushTimeout(5 * time.Second); err != nil {
			log.WarnContext(ctx, "events: subscribe not confirmed", "err", err)
			writeJSONError(w, http.StatusServiceUnavailable, codes.Unavailable, "Live updates are not available. The page still refreshes on its own.")
			return
		}

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

// DefaultEventStreamsPerUser is how many live report streams one user may
// hold open at once through one gateway when Options.EventStreamsPerUser is
// 0: a page per open tab, with room for several tabs and devices.
const DefaultEventStreamsPerUser = 10

// tooManyStreamsMessage answers a stream past the cap (%d: the cap).
const tooManyStreamsMessage = "You have too many live update streams open (at most %d). Close a tab with Uplift open; the page still refreshes on its own."

// streamSlots counts the open streams of each user in this process. The
// count is per gateway copy: with N copies behind a load balancer a user may
// hold up to N times max (gateway/README.md, "Live report stream").
type streamSlots struct {
	max  int
	mu   sync.Mutex
	open map[string]int
}

func newStreamSlots(max int) *streamSlots {
	if max <= 0 {
		max = DefaultEventStreamsPerUser
	}
	return &streamSlots{max: max, open: map[string]int{}}
}

// take reserves one of user's slots; false when all are in use.
func (s *streamSlots) take(user string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.open[user] >= s.max {
		return false
	}
	s.open[user]++
	return true
}

// give returns a slot taken by take.
func (s *streamSlots) give(user string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.open[user]--; s.open[user] <= 0 {
		delete(s.open, user)
	}
}

// connectNATS connects to o.NATSURL, if set: the live report events and
// the shared rate limits both use it.
func connectNATS(o Options) (*nats.Conn, jetstream.JetStream, error) {
	if o.NATSURL == "" {
		return nil, nil, nil
	}
	opts := append([]nats.Option{nats.Name("gateway"), nats.MaxReconnects(-1), nats.RetryOnFailedConnect(true)}, o.NATSOptions...)
	nc, err := nats.Connect(o.NATSURL, opts...)
	if err != nil {
		return nil, nil, fmt.Errorf("nats %s: %w", o.NATSURL, err)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		return nil, nil, fmt.Errorf("nats: jetstream: %w", err)
	}
	return nc, js, nil
}
