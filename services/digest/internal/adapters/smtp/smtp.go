// Package smtp sends rendered emails to an SMTP relay as multipart/
// alternative messages (plain text and HTML). It keeps a few connections
// open between messages; a message that meets a connection the relay has
// dropped goes again on a new one, so a broken connection never takes a
// later message down with it.
package smtp

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"net/smtp"
	"net/textproto"
	"strings"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"uplift.dev/digest/internal/domain"
	"uplift.dev/platform/clock"
	"uplift.dev/platform/tracing"
)

// Config is how to reach the relay.
type Config struct {
	// Addr is host:port of the relay.
	Addr string
	// Username and Password, when set, authenticate with AUTH PLAIN, which
	// is only ever done over TLS or to a loopback relay.
	Username, Password string
	// From is the sender, e.g. "Uplift <hello@uplift.example>"; its domain
	// also names the Message-IDs.
	From string
	// Timeout bounds one send, from taking or opening a connection to the
	// relay's acceptance of the message.
	Timeout time.Duration
	// Clock dates each email (its Date header): the service's clock, nil
	// the wall clock.
	Clock clock.Clock
}

// Mailer implements app.Mailer over SMTP. It is safe for concurrent use.
type Mailer struct {
	cfg      Config
	host     string
	from     *mail.Address
	idDomain string

	mu     sync.Mutex
	idle   []*session // kept connections, the most recent last
	closed bool
}

// New checks cfg and returns a Mailer. It does not connect: the relay may
// be down at start, which is what retries are for.
func New(cfg Config) (*Mailer, error) {
	host, port, err := net.SplitHostPort(cfg.Addr)
	if err != nil || host == "" || port == "" {
		return nil, fmt.Errorf("SMTP_ADDR: %q is not host:port", cfg.Addr)
	}
	from, err := mail.ParseAddress(cfg.From)
	if err != nil {
		return nil, fmt.Errorf("SMTP_FROM: %q is not an address like \"Uplift <hello@uplift.example>\"", cfg.From)
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 30 * time.Second
	}
	domainPart := from.Address[strings.LastIndex(from.Address, "@")+1:]
	return &Mailer{cfg: cfg, host: host, from: from, idDomain: domainPart}, nil
}

// MessageID is the Message-ID the mailer gives the email keyed key.
func (m *Mailer) MessageID(key string) string { return domain.MessageID(key, m.idDomain) }

// Send delivers msg to the relay. It returns nil once the relay accepted the
// message data; an error after that (e.g. on QUIT) is ignored, since
// retrying would send a second copy. It reuses a kept connection when one
// is idle (a new conversation on it costs MAIL, RCPT and DATA, where a new
// connection adds the connect, the greeting, EHLO, STARTTLS and AUTH); a
// kept connection the relay closed in the meantime fails at its first
// command, before anything of msg was accepted, and msg goes again on a new
// connection.
func (m *Mailer) Send(ctx context.Context, msg domain.Message) (err error) {
	// A client span per send, in the trace of whatever queued the email.
	ctx, span := tracing.Tracer().Start(ctx, "smtp send", trace.WithSpanKind(trace.SpanKindClient),
		trace.WithAttributes(attribute.String("server.address", m.host)))
	defer func() {
		if err != nil {
			span.RecordError(err)
			span.SetStatus(codes.Error, err.Error())
		}
		span.End()
	}()
	to, err := domain.ParseAddress(msg.To)
	if err != nil {
		return fmt.Errorf("smtp: recipient: %w", err)
	}
	body, err := m.compose(msg)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, m.cfg.Timeout)
	defer cancel()
	if s := m.takeIdle(); s != nil {
		err := m.deliver(ctx, s, to, body)
		if err == nil || !errors.Is(err, errStale) {
			return err
		}
	}
	s, err := m.dial(ctx)
	if err != nil {
		return err
	}
	return m.deliver(ctx, s, to, body)
}

// errStale marks a kept connection that failed at its first command: the
// relay dropped it while it was idle, and nothing of the message was sent.
var errStale = errors.New("smtp: kept connection closed by the relay")

// session is one open SMTP connection, greeted and authenticated.
type session struct {
	conn   net.Conn
	client *smtp.Client
	// sent counts the messages it carried; idle is when it was kept.
	sent int
	idle time.Time
}

// dial opens and greets a new connection: EHLO, STARTTLS unless the relay
// is on loopback, AUTH when configured.
func (m *Mailer) dial(ctx context.Context) (*session, error) {
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", m.cfg.Addr)
	if err != nil {
		return nil, fmt.Errorf("smtp: connect: %w", err)
	}
	s := &session{conn: conn}
	// Closing the connection is what unblocks a read when ctx is cancelled.
	stop := context.AfterFunc(ctx, func() { _ = conn.Close() })
	defer stop()
	deadline, _ := ctx.Deadline()
	_ = conn.SetDeadline(deadline)
	fail := func(what string, err error) (*session, error) {
		_ = conn.Close()
		return nil, fmt.Errorf("smtp: %s: %w", what, err)
	}
	if s.client, err = smtp.NewClient(conn, m.host); err != nil {
		return fail("greeting", err)
	}
	if err := s.client.Hello("localhost"); err != nil {
		return fail("EHLO", err)
	}
	if ok, _ := s.client.Extension("STARTTLS"); ok && !isLoopback(m.host) {
		if err := s.client.StartTLS(&tls.Config{ServerName: m.host, MinVersion: tls.VersionTLS12}); err != nil {
			return fail("STARTTLS", err)
		}
	}
	if m.cfg.Username != "" {
		// net/smtp's PLAIN refuses to send the password unencrypted to
		// anything but localhost; we add nothing that would loosen that.
		if err := s.client.Auth(smtp.PlainAuth("", m.cfg.Username, m.cfg.Password, m.host)); err != nil {
			return fail("AUTH", err)
		}
	}
	return s, nil
}

// deliver sends one message on s, then keeps s for the next or closes it.
// Any failure closes s: its conversation is in an unknown state.
func (m *Mailer) deliver(ctx context.Context, s *session, to string, body []byte) error {
	reused := s.sent > 0
	deadline, _ := ctx.Deadline()
	_ = s.conn.SetDeadline(deadline)
	stop := context.AfterFunc(ctx, func() { _ = s.conn.Close() })
	err := func() error {
		if err := s.client.Mail(m.from.Address); err != nil {
			if reused {
				return fmt.Errorf("%w: MAIL FROM: %w", errStale, err)
			}
			return fmt.Errorf("smtp: MAIL FROM: %w", err)
		}
		if err := s.client.Rcpt(to); err != nil {
			return fmt.Errorf("smtp: RCPT TO: %w", err)
		}
		w, err := s.client.Data()
		if err != nil {
			return fmt.Errorf("smtp: DATA: %w", err)
		}
		if _, err := w.Write(body); err != nil {
			return fmt.Errorf("smtp: write: %w", err)
		}
		if err := w.Close(); err != nil {
			return fmt.Errorf("smtp: end of data: %w", err)
		}
		return nil
	}()
	// stop reports false when ctx ended and closed the connection.
	if !stop() || err != nil {
		_ = s.conn.Close()
		return err
	}
	s.sent++
	m.keep(s)
	return nil
}

// MaxIdle is how many connections a Mailer keeps open between messages:
// one per sender running at once is enough.
const MaxIdle = 4

// maxIdleTime: relays close a silent connection after some minutes
// (Postfix's smtpd_timeout is 300 s); a kept one older than this is not
// tried. maxPerConnection: many relays refuse more messages on one
// connection than about a hundred.
const (
	maxIdleTime      = 30 * time.Second
	maxPerConnection = 100
)

// takeIdle returns the most recently kept connection still worth trying,
// closing those too old, or nil.
func (m *Mailer) takeIdle() *session {
	m.mu.Lock()
	defer m.mu.Unlock()
	for len(m.idle) > 0 {
		s := m.idle[len(m.idle)-1]
		m.idle = m.idle[:len(m.idle)-1]
		if time.Since(s.idle) < maxIdleTime {
			return s
		}
		go quit(s)
	}
	return nil
}

// keep puts s with the idle connections, or says goodbye to it when it
// has carried its share or enough are kept.
func (m *Mailer) keep(s *session) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if s.sent >= maxPerConnection || len(m.idle) >= MaxIdle || m.closed {
		go quit(s)
		return
	}
	s.idle = time.Now()
	m.idle = append(m.idle, s)
}

// Close says goodbye on every kept connection; a Send after it opens a
// connection for its message and closes it after.
func (m *Mailer) Close() error {
	m.mu.Lock()
	idle := m.idle
	m.idle, m.closed = nil, true
	m.mu.Unlock()
	for _, s := range idle {
		quit(s)
	}
	return nil
}

// quit ends a kept connection politely, within a second.
func quit(s *session) {
	_ = s.conn.SetDeadline(time.Now().Add(time.Second))
	_ = s.client.Quit() // the relay has every message; a failed goodbye changes nothing
	_ = s.conn.Close()
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// compose builds the RFC 5322 message: headers, then a multipart/
// alternative body with the plain-text part first and the HTML part last
// (clients show the last part they can display).
func (m *Mailer) compose(msg domain.Message) ([]byte, error) {
	if msg.Text == "" || msg.HTML == "" || msg.Subject == "" {
		return nil, errors.New("smtp: message needs a subject, a text part and an HTML part")
	}
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for _, part := range []struct{ ctype, content string }{
		{"text/plain; charset=utf-8", msg.Text},
		{"text/html; charset=utf-8", msg.HTML},
	} {
		pw, err := mw.CreatePart(textproto.MIMEHeader{
			"Content-Type":              {part.ctype},
			"Content-Transfer-Encoding": {"quoted-printable"},
		})
		if err != nil {
			return nil, err
		}
		qp := quotedprintable.NewWriter(pw)
		if _, err := qp.Write([]byte(part.content)); err != nil {
			return nil, err
		}
		if err := qp.Close(); err != nil {
			return nil, err
		}
	}
	if err := mw.Close(); err != nil {
		return nil, err
	}
	var out bytes.Buffer
	header := func(k, v string) { out.WriteString(k + ": " + v + "\r\n") }
	header("From", m.from.String())
	header("To", msg.To)
	header("Subject", mime.QEncoding.Encode("utf-8", msg.Subject))
	header("Date", m.cfg.Clock.Now().Format(time.RFC1123Z))
	header("Message-ID", m.MessageID(msg.Key))
	header("MIME-Version", "1.0")
	header("Auto-Submitted", "auto-generated")
	if msg.Unsubscribe != "" {
		// RFC 8058 one-click unsubscribe: mail clients POST
		// "List-Unsubscribe=One-Click" to the link; no sign-in needed.
		if strings.ContainsAny(msg.Unsubscribe, "\r\n<>") {
			return nil, errors.New("smtp: unsubscribe link is not a single URL")
		}
		header("List-Unsubscribe", "<"+msg.Unsubscribe+">")
		header("List-Unsubscribe-Post", "List-Unsubscribe=One-Click")
	}
	header("Content-Type", `multipart/alternative; boundary="`+mw.Boundary()+`"`)
	out.WriteString("\r\n")
	out.Write(body.Bytes())
	return out.Bytes(), nil
}
