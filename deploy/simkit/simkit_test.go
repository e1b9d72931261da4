package simkit

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestRecoverAnswersInTheServicesShape(t *testing.T) {
	t.Parallel()
	h := Recover(slog.New(slog.NewTextHandler(io.Discard, nil)), http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic("bug") }),
		func(w http.ResponseWriter) { http.Error(w, `{"errors":"x"}`, http.StatusInternalServerError) })
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
	if rec.Code != 500 || !strings.Contains(rec.Body.String(), `{"errors":"x"}`) {
		t.Fatalf("%d %s", rec.Code, rec.Body)
	}
}

func TestDecodeRefusesUnknownFields(t *testing.T) {
	t.Parallel()
	var v struct {
		A int `json:"a"`
	}
	rec := httptest.NewRecorder()
	if Decode(rec, httptest.NewRequest(http.MethodPost, "/", strings.NewReader(`{"a":1,"b":2}`)), &v) || rec.Code != 400 {
		t.Fatalf("unknown field accepted: %d", rec.Code)
	}
	var out map[string]string
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil || !strings.Contains(out["error"], `"b"`) {
		t.Fatalf("body %s", rec.Body)
	}
	if !Decode(httptest.NewRecorder(), httptest.NewRequest(http.MethodPost, "/", strings.NewReader(`{"a":1}`)), &v) || v.A != 1 {
		t.Fatal("a good body refused")
	}
}

func TestListenOnlyOnLoopback(t *testing.T) {
	t.Parallel()
	for _, addr := range []string{"0.0.0.0:0", ":0", "example.com:80", "nonsense"} {
		if ln, err := Listen(addr); err == nil {
			ln.Close()
			t.Errorf("%s accepted", addr)
		}
	}
	ln, err := Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln.Close()
}

func TestDecodeFault(t *testing.T) {
	t.Parallel()
	f, ok := DecodeFault(httptest.NewRecorder(), httptest.NewRequest(http.MethodPost, "/", strings.NewReader(`{"kind":"slow","count":2,"delayMs":250}`)))
	if !ok || f != (Fault{Kind: "slow", Count: 2, Delay: 250 * time.Millisecond}) {
		t.Fatalf("%v %+v", ok, f)
	}
	rec := httptest.NewRecorder()
	if _, ok := DecodeFault(rec, httptest.NewRequest(http.MethodPost, "/", strings.NewReader(`{"kind":"slow","delay":250}`))); ok || rec.Code != 400 {
		t.Fatalf("a misspelt field accepted: %d", rec.Code)
	}
}

func TestStallEndsWithTheRequest(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	start := time.Now()
	if (&Fault{Kind: "slow"}).Stall(ctx) || time.Since(start) > 500*time.Millisecond {
		t.Fatal("a cancelled request waited out the default second")
	}
	if !(&Fault{Kind: "slow", Delay: time.Millisecond}).Stall(context.Background()) {
		t.Fatal("a 1 ms stall did not elapse")
	}
}
