// Package sinktest reads mail back from the local SMTP sink (MailDev) so
// tests assert on what a real SMTP server received. Tests share the sink, so
// each test sends to its own unique recipients and reads only theirs.
package sinktest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/mail"
	"os"
	"slices"
	"strings"
	"testing"
	"time"
)

// Sink is a running MailDev.
type Sink struct {
	// SMTPAddr is where to send (SMTP_ADDR).
	SMTPAddr string
	api      string
}

// New returns the sink named by SMTP_ADDR and SMTP_SINK_API, skipping the
// test without them (or failing it when UPLIFT_REQUIRE_INFRA is set, as
// `make test` does).
func New(t testing.TB) *Sink {
	t.Helper()
	addr, api := os.Getenv("SMTP_ADDR"), os.Getenv("SMTP_SINK_API")
	if addr == "" || api == "" {
		if os.Getenv("UPLIFT_REQUIRE_INFRA") != "" {
			t.Fatal("SMTP_ADDR and SMTP_SINK_API are not set; run the tests with `make test`")
		}
		t.Skip("SMTP_ADDR/SMTP_SINK_API not set; run with `make test` to use the SMTP sink")
	}
	return &Sink{SMTPAddr: addr, api: strings.TrimRight(api, "/")}
}

// Mail is one received message as MailDev parsed it.
type Mail struct {
	ID       string         `json:"id"`
	Subject  string         `json:"subject"`
	Text     string         `json:"text"`
	HTML     string         `json:"html"`
	Headers  map[string]any `json:"headers"`
	Envelope struct {
		To []struct {
			Address string `json:"address"`
		} `json:"to"`
	} `json:"envelope"`
}

// Header returns a header's value as MailDev reports it.
func (m Mail) Header(name string) string {
	v, _ := m.Headers[strings.ToLower(name)].(string)
	return v
}

// To lists the envelope recipients.
func (m Mail) To() []string {
	var out []string
	for _, r := range m.Envelope.To {
		out = append(out, strings.ToLower(r.Address))
	}
	return out
}

// get tries MailDev 3's /api prefix first, then the older unprefixed path.
func (s *Sink) get(t testing.TB, path string) []byte {
	t.Helper()
	for _, prefix := range []string{"/api", ""} {
		resp, err := http.Get(s.api + prefix + path)
		if err != nil {
			t.Fatalf("sinktest: %v", err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatalf("sinktest: %v", err)
		}
		if resp.StatusCode == http.StatusOK {
			return body
		}
	}
	t.Fatalf("sinktest: GET %s: not found under %s", path, s.api)
	return nil
}

// To returns the mail received for addr so far.
func (s *Sink) To(t testing.TB, addr string) []Mail {
	t.Helper()
	var all []Mail
	if err := json.Unmarshal(s.get(t, "/email"), &all); err != nil {
		t.Fatalf("sinktest: list: %v", err)
	}
	var out []Mail
	for _, m := range all {
		if slices.Contains(m.To(), strings.ToLower(addr)) {
			out = append(out, m)
		}
	}
	return out
}

// Wait returns the mail for addr once at least n arrived, failing the test
// after timeout.
func (s *Sink) Wait(t testing.TB, addr string, n int, timeout time.Duration) []Mail {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		got := s.To(t, addr)
		if len(got) >= n {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("sinktest: %d mail for %s after %v, want %d", len(got), addr, timeout, n)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Source returns the raw message as the sink received it.
func (s *Sink) Source(t testing.TB, m Mail) string {
	t.Helper()
	return string(s.get(t, fmt.Sprintf("/email/%s/source", m.ID)))
}

// RawHeader returns the message's headers as sent, read from its source:
// MailDev's parsed headers leave some out (Date, List-Unsubscribe).
func (s *Sink) RawHeader(t testing.TB, m Mail) mail.Header {
	t.Helper()
	msg, err := mail.ReadMessage(strings.NewReader(s.Source(t, m)))
	if err != nil {
		t.Fatalf("sinktest: source of %s: %v", m.ID, err)
	}
	return msg.Header
}
