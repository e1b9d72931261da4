package smtp_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	gosmtp "github.com/emersion/go-smtp"

	"uplift.dev/digest/internal/adapters/smtp"
	"uplift.dev/digest/internal/domain"
)

// relay is a real SMTP server (emersion/go-smtp) on loopback that counts
// the connections it was opened and the messages it accepted per
// recipient, and refuses the recipients in refuse.
type relay struct {
	addr     string
	srv      *gosmtp.Server
	conns    atomic.Int64
	mu       sync.Mutex
	accepted map[string]int
	refuse   map[string]bool
}

func newRelay(t *testing.T) *relay {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r := &relay{addr: l.Addr().String(), accepted: map[string]int{}, refuse: map[string]bool{}}
	r.srv = gosmtp.NewServer(r)
	r.srv.Domain = "localhost"
	go func() { _ = r.srv.Serve(l) }()
	t.Cleanup(func() { _ = r.srv.Close() })
	return r
}

func (r *relay) NewSession(*gosmtp.Conn) (gosmtp.Session, error) {
	r.conns.Add(1)
	return &relaySession{r: r}, nil
}

func (r *relay) count(to string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.accepted[to]
}

type relaySession struct {
	r  *relay
	to string
}

func (*relaySession) Reset()                                 {}
func (*relaySession) Logout() error                          { return nil }
func (*relaySession) Mail(string, *gosmtp.MailOptions) error { return nil }
func (s *relaySession) Rcpt(to string, _ *gosmtp.RcptOptions) error {
	if s.r.refuse[to] {
		return &gosmtp.SMTPError{Code: 550, Message: "no such user"}
	}
	s.to = to
	return nil
}
func (s *relaySession) Data(rd io.Reader) error {
	if _, err := io.Copy(io.Discard, rd); err != nil {
		return err
	}
	s.r.mu.Lock()
	s.r.accepted[s.to]++
	s.r.mu.Unlock()
	return nil
}

func message(to string) domain.Message {
	return domain.Message{To: to, Key: "k-" + to, Subject: "Your daily report", Text: "Sales were up.", HTML: "<p>Sales were up.</p>"}
}

func newMailer(t *testing.T, addr string) *smtp.Mailer {
	t.Helper()
	m, err := smtp.New(smtp.Config{Addr: addr, From: "Uplift <hello@uplift.example>", Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Close() })
	return m
}

// Messages one after another share one connection, and several senders at
// once at most one connection each, every message accepted once.
func TestMessagesShareKeptConnections(t *testing.T) {
	t.Parallel()
	r := newRelay(t)
	m := newMailer(t, r.addr)
	ctx := context.Background()
	for i := range 20 {
		if err := m.Send(ctx, message(fmt.Sprintf("a%d@shop.example", i))); err != nil {
			t.Fatal(err)
		}
	}
	if n := r.conns.Load(); n != 1 {
		t.Errorf("20 messages one after another opened %d connections, want 1", n)
	}
	var wg sync.WaitGroup
	for g := range smtp.MaxIdle {
		wg.Go(func() {
			for i := range 25 {
				if err := m.Send(ctx, message(fmt.Sprintf("b%d-%d@shop.example", g, i))); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	if n := r.conns.Load(); n > 1+smtp.MaxIdle {
		t.Errorf("%d senders opened %d connections in all, want at most %d", smtp.MaxIdle, n, 1+smtp.MaxIdle)
	}
	for g := range smtp.MaxIdle {
		for i := range 25 {
			if to := fmt.Sprintf("b%d-%d@shop.example", g, i); r.count(to) != 1 {
				t.Errorf("%s accepted %d times, want once", to, r.count(to))
			}
		}
	}
}

// A kept connection the relay dropped while it was idle costs nothing:
// the message goes on a new connection, once.
func TestAConnectionTheRelayDroppedIsReplaced(t *testing.T) {
	t.Parallel()
	r := newRelay(t)
	m := newMailer(t, r.addr)
	ctx := context.Background()
	if err := m.Send(ctx, message("first@shop.example")); err != nil {
		t.Fatal(err)
	}
	// The relay restarts: every open connection is gone, a new server
	// listens on the same address.
	if err := r.srv.Close(); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", r.addr)
	if err != nil {
		t.Fatal(err)
	}
	r.srv = gosmtp.NewServer(r)
	r.srv.Domain = "localhost"
	go func() { _ = r.srv.Serve(l) }()
	if err := m.Send(ctx, message("second@shop.example")); err != nil {
		t.Fatalf("after the relay dropped the kept connection: %v", err)
	}
	if r.count("second@shop.example") != 1 || r.conns.Load() != 2 {
		t.Errorf("second accepted %d times over %d connections in all, want once and 2", r.count("second@shop.example"), r.conns.Load())
	}
}

// A refused recipient fails its own message and no later one.
func TestARefusedRecipientFailsOnlyItsMessage(t *testing.T) {
	t.Parallel()
	r := newRelay(t)
	r.refuse["gone@shop.example"] = true
	m := newMailer(t, r.addr)
	ctx := context.Background()
	if err := m.Send(ctx, message("before@shop.example")); err != nil {
		t.Fatal(err)
	}
	if err := m.Send(ctx, message("gone@shop.example")); err == nil {
		t.Error("a refused recipient's message was reported sent")
	}
	if err := m.Send(ctx, message("after@shop.example")); err != nil {
		t.Fatalf("the message after a refused one: %v", err)
	}
	if r.count("after@shop.example") != 1 || r.count("gone@shop.example") != 0 {
		t.Errorf("after accepted %d, gone %d; want 1 and 0", r.count("after@shop.example"), r.count("gone@shop.example"))
	}
}

// After Close no connection stays open: the next message opens its own
// and closes it.
func TestCloseEndsTheKeptConnections(t *testing.T) {
	t.Parallel()
	r := newRelay(t)
	m := newMailer(t, r.addr)
	ctx := context.Background()
	if err := m.Send(ctx, message("one@shop.example")); err != nil {
		t.Fatal(err)
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	if err := m.Send(ctx, message("two@shop.example")); err != nil {
		t.Fatal(err)
	}
	if err := m.Send(ctx, message("three@shop.example")); err != nil {
		t.Fatal(err)
	}
	if n := r.conns.Load(); n != 3 {
		t.Errorf("after Close, two messages opened %d connections in all, want 3 (one each, none kept)", n)
	}
}
