package smtp_test

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"uplift.dev/digest/internal/adapters/smtp"
	"uplift.dev/digest/internal/domain"
	"uplift.dev/digest/internal/sinktest"
	"uplift.dev/digest/internal/templates"
	"uplift.dev/platform/clock"
)

func TestConfigIsChecked(t *testing.T) {
	t.Parallel()
	for _, c := range []smtp.Config{
		{Addr: "127.0.0.1", From: "Uplift <hello@uplift.example>"},
		{Addr: "127.0.0.1:25", From: "not an address"},
	} {
		if _, err := smtp.New(c); err == nil {
			t.Errorf("accepted %+v", c)
		}
	}
}

// A real email to the sink: MailDev parses both parts, the subject and the
// Message-ID derived from the key; the Date is the service clock's.
func TestSendReachesTheSink(t *testing.T) {
	t.Parallel()
	sink := sinktest.New(t)
	sent := time.Date(2031, 3, 30, 1, 30, 0, 0, time.UTC)
	m, err := smtp.New(smtp.Config{Addr: sink.SMTPAddr, From: "Uplift <hello@uplift.example>", Timeout: 10 * time.Second,
		Clock: clock.Fixed(sent)})
	if err != nil {
		t.Fatal(err)
	}
	to := "owner-" + uuid.NewString()[:8] + "@shop.example"
	r, _ := templates.New("http://localhost:3000")
	e, _ := domain.NewWelcome("u-"+to, to, "Zoë & <Sam>")
	msg, err := r.Render(e)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Send(context.Background(), msg); err != nil {
		t.Fatal(err)
	}
	got := sink.Wait(t, to, 1, 10*time.Second)
	if len(got) != 1 {
		t.Fatalf("%d messages", len(got))
	}
	mail := got[0]
	if mail.Subject != msg.Subject || mail.Header("message-id") != m.MessageID(e.Key) {
		t.Fatalf("subject %q message-id %q", mail.Subject, mail.Header("message-id"))
	}
	if !strings.Contains(mail.Text, "Hi Zoë & <Sam>,") || !strings.Contains(mail.HTML, "Hi Zoë &amp; &lt;Sam&gt;,") {
		t.Fatalf("parts:\n%s\n%s", mail.Text, mail.HTML)
	}
	src := sink.Source(t, mail)
	if !strings.Contains(src, "multipart/alternative") || !strings.Contains(src, "text/plain; charset=utf-8") ||
		!strings.Contains(src, "text/html; charset=utf-8") || !strings.Contains(src, "From: \"Uplift\" <hello@uplift.example>") ||
		!strings.Contains(src, "Date: Sun, 30 Mar 2031 01:30:00 +0000") {
		t.Fatalf("source:\n%s", src)
	}
}

func TestSendFailsWhenRelayIsDown(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	m, _ := smtp.New(smtp.Config{Addr: addr, From: "hello@uplift.example", Timeout: 2 * time.Second})
	err = m.Send(context.Background(), domain.Message{Key: "k", To: "a@shop.example", Subject: "s", Text: "t", HTML: "<p>h</p>"})
	if err == nil || !strings.Contains(err.Error(), "connect") {
		t.Fatalf("err = %v", err)
	}
}

func TestSendRefusesPasswordOverPlaintextToARemoteHost(t *testing.T) {
	t.Parallel()
	// A fake relay that offers AUTH but no STARTTLS, at an address that is
	// not the loopback host net/smtp trusts (127.0.0.2): the password must
	// not be sent.
	l, err := net.Listen("tcp", "127.0.0.2:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		c, err := l.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		buf := make([]byte, 512)
		_, _ = c.Write([]byte("220 relay.example ESMTP\r\n"))
		for {
			n, err := c.Read(buf)
			if err != nil {
				return
			}
			line := string(buf[:n])
			switch {
			case strings.HasPrefix(line, "EHLO"):
				_, _ = c.Write([]byte("250-relay.example\r\n250 AUTH PLAIN\r\n"))
			case strings.HasPrefix(line, "AUTH"):
				t.Errorf("password sent in the clear: %q", line)
				_, _ = c.Write([]byte("535 no\r\n"))
			default:
				_, _ = c.Write([]byte("250 ok\r\n"))
			}
		}
	}()
	m, _ := smtp.New(smtp.Config{Addr: l.Addr().String(), From: "hello@uplift.example", Username: "u", Password: "p", Timeout: 2 * time.Second})
	err = m.Send(context.Background(), domain.Message{Key: "k", To: "a@shop.example", Subject: "s", Text: "t", HTML: "<p>h</p>"})
	if err == nil || !strings.Contains(err.Error(), "AUTH") {
		t.Fatalf("err = %v", err)
	}
}

// The one-click unsubscribe headers go out exactly as RFC 8058 has them, and
// a link that would break the header is refused before anything is sent.
func TestUnsubscribeHeaders(t *testing.T) {
	t.Parallel()
	sink := sinktest.New(t)
	m, err := smtp.New(smtp.Config{Addr: sink.SMTPAddr, From: "Uplift <hello@uplift.example>", Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	to := "unsub-" + uuid.NewString()[:8] + "@shop.example"
	link := "https://api.uplift.example/email/unsubscribe?token=abc.def"
	msg := domain.Message{Key: "k-" + to, To: to, Subject: "Digest", Text: "t", HTML: "<p>h</p>", Unsubscribe: link}
	if err := m.Send(context.Background(), msg); err != nil {
		t.Fatal(err)
	}
	h := sink.RawHeader(t, sink.Wait(t, to, 1, 10*time.Second)[0])
	if h.Get("List-Unsubscribe") != "<"+link+">" || h.Get("List-Unsubscribe-Post") != "List-Unsubscribe=One-Click" {
		t.Fatalf("headers %v", h)
	}
	msg.Unsubscribe = link + "\r\nBcc: victim@shop.example"
	if err := m.Send(context.Background(), msg); err == nil {
		t.Fatal("sent a header-breaking unsubscribe link")
	}
}
