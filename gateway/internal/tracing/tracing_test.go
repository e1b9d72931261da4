package tracing

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"uplift.dev/gateway/internal/stacktest"
)

// jaegerTrace is the part of Jaeger's /api/traces/{id} answer the test reads.
type jaegerTrace struct {
	Data []struct {
		Spans []struct {
			SpanID        string `json:"spanID"`
			OperationName string `json:"operationName"`
			ProcessID     string `json:"processID"`
			References    []struct {
				RefType string `json:"refType"`
				SpanID  string `json:"spanID"`
			} `json:"references"`
			Tags []struct {
				Key   string `json:"key"`
				Value any    `json:"value"`
			} `json:"tags"`
		} `json:"spans"`
		Processes map[string]struct {
			ServiceName string `json:"serviceName"`
		} `json:"processes"`
	} `json:"data"`
}

// span is one span as the test compares them: who made it, what, which kind.
type span struct{ service, operation, kind, id, parent string }

func (s span) String() string { return s.service + " " + s.kind + " " + s.operation }

// hop is a span the trace must hold.
type hop struct{ what, service, kind, operation string }

// TestOneTracePerSignUp signs one owner up through the gateway's REST API
// with a traceparent, as a browser that traces its calls sends it, waits
// for the welcome email in the SMTP sink, and reads the trace from Jaeger:
// every hop, from the gateway to the SMTP send, must be in that one trace.
// The consumers' spans are there only if the event's trace crossed the
// outbox and NATS: without the stored traceparent or the message headers
// they start traces of their own and this fails.
func TestOneTracePerSignUp(t *testing.T) {
	traces := strings.TrimRight(os.Getenv("UPLIFT_TRACES_URL"), "/")
	if traces == "" {
		t.Skip("UPLIFT_TRACES_URL not set; `make test-tracing` runs this on a stack with Jaeger")
	}
	s := stacktest.FromEnv(t)
	traceID, browserSpan := randomHex(t, 16), randomHex(t, 8)
	email := "traced-" + uuid.NewString()[:12] + "@example.com"
	body, _ := json.Marshal(map[string]any{"email": email, "password": "stack-test-password"})
	req, err := http.NewRequest(http.MethodPost, s.Gateway+"/internal/users", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer unauthed")
	req.Header.Set("traceparent", "00-"+traceID+"-"+browserSpan+"-01")
	start := time.Now()
	resp, err := s.HTTP.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("sign-up: %d", resp.StatusCode)
	}
	// The answer names the trace, so a client that sent none can find it.
	if got := resp.Header.Get("traceresponse"); !strings.HasPrefix(got, "00-"+traceID+"-") {
		t.Errorf("traceresponse %q, want one in trace %s", got, traceID)
	}
	s.WaitForMail(t, email, regexp.MustCompile(`^Welcome to Uplift`), 60*time.Second)
	mailed := time.Since(start)

	want := []hop{
		{"the gateway's HTTP span", "gateway", "server", "POST /internal/users"},
		{"the gateway's call to users", "gateway", "client", "uplift.users.v1.UsersService/CreateUser"},
		{"users serving it", "users", "server", "uplift.users.v1.UsersService/CreateUser"},
		{"the outbox relay publishing UserCreated", "users", "producer", "publish uplift.users.created"},
		{"categories consuming it (the business)", "categories", "consumer", "process categories-users"},
		{"digest consuming it (the welcome email)", "digest", "consumer", "process digest-welcome"},
		{"the welcome email's SMTP send", "digest", "client", "smtp send"},
	}
	var spans []span
	deadline := time.Now().Add(30 * time.Second)
	for {
		spans = readTrace(t, s.HTTP, traces, traceID)
		if len(missing(want, spans)) == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(500 * time.Millisecond)
	}
	if m := missing(want, spans); len(m) > 0 {
		t.Fatalf("trace %s lacks %s; it has %d spans:\n%s", traceID, strings.Join(m, ", "), len(spans), list(spans))
	}
	// The gateway's span is the child of the browser's.
	for _, sp := range spans {
		if sp.service == "gateway" && sp.kind == "server" && sp.parent != browserSpan {
			t.Errorf("the gateway's span %s has parent %q, want the browser's %s", sp, sp.parent, browserSpan)
		}
	}
	t.Logf("trace %s: %d spans, %d services; welcome email %s after the sign-up; view it at %s/api/traces/%s",
		traceID, len(spans), len(services(spans)), mailed.Round(10*time.Millisecond), traces, traceID)
}

// readTrace reads one trace from Jaeger's query API; none yet is empty.
func readTrace(t *testing.T, client *http.Client, base, traceID string) []span {
	t.Helper()
	resp, err := client.Get(base + "/api/traces/" + traceID)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusNotFound {
		return nil
	}
	var tr jaegerTrace
	if resp.StatusCode != http.StatusOK || json.NewDecoder(resp.Body).Decode(&tr) != nil {
		t.Fatalf("jaeger: %s/api/traces/%s: %d", base, traceID, resp.StatusCode)
	}
	var out []span
	for _, d := range tr.Data {
		for _, sp := range d.Spans {
			x := span{service: d.Processes[sp.ProcessID].ServiceName, operation: sp.OperationName, id: sp.SpanID}
			for _, tag := range sp.Tags {
				if tag.Key == "span.kind" {
					x.kind = fmt.Sprint(tag.Value)
				}
			}
			for _, r := range sp.References {
				if r.RefType == "CHILD_OF" {
					x.parent = r.SpanID
				}
			}
			out = append(out, x)
		}
	}
	return out
}

// missing names the hops spans lacks.
func missing(want []hop, spans []span) []string {
	var out []string
	for _, h := range want {
		if !slices.ContainsFunc(spans, func(s span) bool {
			return s.service == h.service && s.kind == h.kind && s.operation == h.operation
		}) {
			out = append(out, h.what+" ("+h.service+" "+h.kind+" "+h.operation+")")
		}
	}
	return out
}

func list(spans []span) string {
	lines := make([]string, len(spans))
	for i, s := range spans {
		lines[i] = "  " + s.String()
	}
	slices.Sort(lines)
	return strings.Join(lines, "\n")
}

func services(spans []span) map[string]bool {
	out := map[string]bool{}
	for _, s := range spans {
		out[s.service] = true
	}
	return out
}

func randomHex(t *testing.T, n int) string {
	t.Helper()
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}
