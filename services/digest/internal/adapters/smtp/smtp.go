// Package smtp sends rendered emails to an SMTP relay as multipart/
// alternative messages (plain text and HTML), one connection per message so
// a broken connection never takes a later message down with it.
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
	"time"

	"uplift.dev/digest/internal/domain"
	"uplift.dev/platform/clock"
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
	// Timeout bounds one whole send, connect to QUIT.
	Timeout time.Duration
	// Clock dates each email (its Date header): the service's clock, nil
	// the wall clock.
	Clock clock.Clock
}

// Mailer implements app.Mailer over SMTP.
type Mailer struct {
	cfg      Config
	host     string
	from     *mail.Address
	idDomain string
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
// retrying would send a second copy.
func (m *Mailer) Send(ctx context.Context, msg domain.Message) error {
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
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", m.cfg.Addr)
	if err != nil {
		return fmt.Errorf("smtp: connect: %w", err)
	}
	defer conn.Close()
	deadline, _ := ctx.Deadline()
	_ = conn.SetDeadline(deadline)
	// Closing the connection is what unblocks a read when ctx is cancelled.
	stop := context.AfterFunc(ctx, func() { _ = conn.Close() })
	defer stop()

	c, err := smtp.NewClient(conn, m.host)
	if err != nil {
		return fmt.Errorf("smtp: greeting: %w", err)
	}
	defer c.Close()
	if err := c.Hello("localhost"); err != nil {
		return fmt.Errorf("smtp: EHLO: %w", err)
	}
	if ok, _ := c.Extension("STARTTLS"); ok && !isLoopback(m.host) {
		if err := c.StartTLS(&tls.Config{ServerName: m.host, MinVersion: tls.VersionTLS12}); err != nil {
			return fmt.Errorf("smtp: STARTTLS: %w", err)
		}
	}
	if m.cfg.Username != "" {
		// net/smtp's PLAIN refuses to send the password unencrypted to
		// anything but localhost; we add nothing that would loosen that.
		if err := c.Auth(smtp.PlainAuth("", m.cfg.Username, m.cfg.Password, m.host)); err != nil {
			return fmt.Errorf("smtp: AUTH: %w", err)
		}
	}
	if err := c.Mail(m.from.Address); err != nil {
		return fmt.Errorf("smtp: MAIL FROM: %w", err)
	}
	if err := c.Rcpt(to); err != nil {
		return fmt.Errorf("smtp: RCPT TO: %w", err)
	}
	w, err := c.Data()
	if err != nil {
		return fmt.Errorf("smtp: DATA: %w", err)
	}
	if _, err := w.Write(body); err != nil {
		return fmt.Errorf("smtp: write: %w", err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("smtp: end of data: %w", err)
	}
	_ = c.Quit() // the relay has the message; a failed goodbye changes nothing
	return nil
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
