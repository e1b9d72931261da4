package gateway

import (
	"bytes"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
)

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// A fast answer below 500 is logged at debug only; a server failure is
// logged at info whatever the level; every request is counted either way.
func TestAccessLogKeepsInfoForFailures(t *testing.T) {
	for _, level := range []slog.Level{slog.LevelInfo, slog.LevelDebug} {
		var out syncBuffer
		log := slog.New(slog.NewTextHandler(&out, &slog.HandlerOptions{Level: level}))
		reg := prometheus.NewRegistry()
		h := prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "t", Help: "t"}, []string{"method", "code"})
		reg.MustRegister(h)
		handler := observe(log, h, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/fail" {
				w.WriteHeader(http.StatusBadGateway)
			}
		}))
		for _, p := range []string{"/ok", "/ok", "/fail"} {
			handler.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", p, nil))
		}
		logged := out.String()
		if !strings.Contains(logged, "path=/fail") || !strings.Contains(logged, "status=502") {
			t.Fatalf("level %v: the failure was not logged: %q", level, logged)
		}
		oks := strings.Count(logged, "path=/ok")
		if level == slog.LevelInfo && oks != 0 {
			t.Fatalf("fast successes logged at info: %q", logged)
		}
		if level == slog.LevelDebug && oks != 2 {
			t.Fatalf("at debug every request is logged, got %d of 2: %q", oks, logged)
		}
		mfs, _ := reg.Gather()
		if n := mfs[0].GetMetric(); len(n) != 2 || n[0].GetHistogram().GetSampleCount()+n[1].GetHistogram().GetSampleCount() != 3 {
			t.Fatalf("level %v: requests counted: %v", level, n)
		}
	}
}
