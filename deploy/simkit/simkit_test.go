package simkit

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
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

func TestControlMapsEachErrorToItsStatus(t *testing.T) {
	t.Parallel()
	errMissing, errTaken := errors.New("no such shop"), errors.New("already there")
	ctl := Control{NotFound: []error{errMissing}, Conflict: []error{errTaken}}
	for _, c := range []struct {
		err  error
		want int
	}{
		{nil, http.StatusCreated},
		{fmt.Errorf("shop x: %w", errMissing), http.StatusNotFound},
		{errTaken, http.StatusConflict},
		{errors.New("count must be positive"), http.StatusBadRequest},
	} {
		rec := httptest.NewRecorder()
		ctl.OK(rec, http.StatusCreated, c.err)
		var body map[string]any
		if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil || rec.Code != c.want {
			t.Fatalf("%v: %d %s", c.err, rec.Code, rec.Body)
		}
		if c.err == nil && body["ok"] != true || c.err != nil && body["error"] != c.err.Error() {
			t.Fatalf("%v: body %s", c.err, rec.Body)
		}
	}
}

func TestControlPathIDNamesWhatIsWrong(t *testing.T) {
	t.Parallel()
	var ctl Control
	mux := http.NewServeMux()
	var got int64
	mux.HandleFunc("/orders/{id}", func(w http.ResponseWriter, r *http.Request) {
		if id, ok := ctl.PathID(w, r, "id", "order id"); ok {
			got = id
			ctl.OK(w, http.StatusOK, nil)
		}
	})
	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/orders/12x", nil))
	if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), "order id must be a number") {
		t.Fatalf("%d %s", rec.Code, rec.Body)
	}
	rec = httptest.NewRecorder()
	mux.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/orders/42", nil))
	if rec.Code != http.StatusOK || got != 42 {
		t.Fatalf("%d %s id %d", rec.Code, rec.Body, got)
	}
}
