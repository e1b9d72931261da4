package service_test

import (
	"context"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"uplift.dev/platform/servicetest"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/nats-io/nats.go/jetstream"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"

	digestv1 "uplift.dev/proto/gen/uplift/digest/v1"
	eventsv1 "uplift.dev/proto/gen/uplift/events/v1"

	"uplift.dev/digest/internal/domain"
	digest "uplift.dev/digest/internal/service"
	"uplift.dev/digest/internal/sinktest"
	"uplift.dev/digest/migrations"
	"uplift.dev/platform/events"
	"uplift.dev/platform/natstest"
)

const webURL = "http://shop.localtest:3000"

const (
	publicAPI = "http://api.localtest:8080"
	secret    = "component-test-unsubscribe-secret-0123456789"
)

type harness struct {
	pool   *pgxpool.Pool
	js     jetstream.JetStream // the NATS admin's: reads what the service published
	client digestv1.DigestServiceClient
	nats   string
}

// start runs the real digest service (gRPC server, consumers, sender) on its
// own PostgreSQL database, an embedded NATS and the Firebase Auth emulator,
// sending mail to smtpAddr. Retries are fast so the test can watch them.
func start(t *testing.T, smtpAddr string) harness {
	t.Helper()
	cfg := &digest.Settings{
		Base:     servicetest.Base(t),
		SMTPAddr: smtpAddr, SMTPFrom: "Uplift <hello@uplift.example>", SMTPTimeout: 5 * time.Second,
		WebURL:         webURL,
		EmailRetryBase: 200 * time.Millisecond, EmailRetryMax: time.Second,
		EmailPoll:    100 * time.Millisecond,
		PublicAPIURL: publicAPI, UnsubscribeSecret: secret,
	}
	conn, rt := servicetest.Run(t, "digest", cfg.Base, migrations.FS, digest.Wire(cfg))
	return harness{pool: rt.Pool, js: natstest.Admin(t, cfg.Base.NATSURL), client: digestv1.NewDigestServiceClient(conn), nats: cfg.Base.NATSURL}
}

func (h harness) publish(t *testing.T, subject, msgID string, m proto.Message) {
	t.Helper()
	data, err := proto.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if err := natstest.PublishAsOwner(t, h.nats, subject, msgID, data); err != nil {
		t.Fatal(err)
	}
}

// waitInt polls SQL until ok accepts its single integer result.
func (h harness) waitInt(t *testing.T, what, sql string, ok func(int) bool, args ...any) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		var n int
		if err := h.pool.QueryRow(context.Background(), sql, args...).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if ok(n) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: still %d", what, n)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func fresh(tag string) string { return tag + "-" + uuid.NewString()[:8] + "@shop.example" }

func TestUserEventsBecomeEmailsInTheSink(t *testing.T) {
	t.Parallel()
	sink := sinktest.New(t)
	h := start(t, sink.SMTPAddr)
	quiet, owner, newAddr := fresh("quiet"), fresh("owner"), fresh("moved")

	h.publish(t, events.SubjectUserCreated, "m1", &eventsv1.UserCreated{UserId: "u-quiet", Email: quiet, DisplayName: "Quinn", SuppressWelcomeEmail: true})
	created := &eventsv1.UserCreated{UserId: "u-owner", Email: owner, DisplayName: "Olivia <Shop> & Co"}
	h.publish(t, events.SubjectUserCreated, "m2", created)
	h.publish(t, events.SubjectUserCreated, "m2", created) // a replay JetStream drops
	h.publish(t, events.SubjectUserCreated, "m3", created) // the same event again under a new id
	h.publish(t, events.SubjectUserEmailChanged, "m4", &eventsv1.UserEmailChanged{
		UserId: "u-owner", OldEmail: owner, NewEmail: newAddr, OccurTime: timestamppb.Now()})

	// Every event handled and every email out before counting.
	h.waitInt(t, "events handled", `SELECT count(*) FROM processed_messages`, func(n int) bool { return n == 4 })
	h.waitInt(t, "emails pending", `SELECT count(*) FROM emails WHERE status <> 'sent'`, func(n int) bool { return n == 0 })

	ownerMail := sink.Wait(t, owner, 2, 10*time.Second)
	if len(ownerMail) != 2 {
		t.Fatalf("owner got %d emails, want welcome + change notice", len(ownerMail))
	}
	if got := sink.To(t, quiet); len(got) != 0 {
		t.Fatalf("suppressed welcome sent: %d", len(got))
	}
	movedMail := sink.Wait(t, newAddr, 1, 10*time.Second)
	if len(movedMail) != 1 || !strings.Contains(movedMail[0].Text, newAddr+" is now the email you use to sign in") {
		t.Fatalf("confirmation to the new address: %+v", movedMail)
	}

	var welcome, notice sinktest.Mail
	for _, m := range ownerMail {
		if strings.HasPrefix(m.Subject, "Welcome to Uplift") {
			welcome = m
		} else {
			notice = m
		}
	}
	if !strings.Contains(welcome.Text, "Hi Olivia <Shop> & Co,") || !strings.Contains(welcome.HTML, "Hi Olivia &lt;Shop&gt; &amp; Co,") ||
		!strings.Contains(welcome.HTML, `href="`+webURL+`/"`) || !strings.Contains(welcome.Text, webURL+"/") {
		t.Fatalf("welcome:\n%s\n%s", welcome.Text, welcome.HTML)
	}
	if welcome.Header("message-id") != domain.MessageID("welcome:u-owner", "uplift.example") {
		t.Fatalf("message-id %q", welcome.Header("message-id"))
	}
	src := sink.Source(t, welcome)
	if !strings.Contains(src, "multipart/alternative") || !strings.Contains(src, "text/plain") || !strings.Contains(src, "text/html") {
		t.Fatalf("welcome source:\n%s", src)
	}
	if !strings.Contains(notice.Text, "changed from "+owner+" to "+newAddr) || notice.HTML == "" {
		t.Fatalf("notice:\n%s", notice.Text)
	}

	// A password reset: the exact link arrives, and leaves the table once sent.
	link := "https://uplift.example/__/auth/action?mode=resetPassword&oobCode=s3cret-" + uuid.NewString()[:8] + "&apiKey=k"
	reset := &eventsv1.PasswordResetRequested{Email: newAddr, Link: link}
	h.publish(t, events.SubjectPasswordResetRequested, "m6", reset)
	h.publish(t, events.SubjectPasswordResetRequested, "m6", reset)
	resetMail := sink.Wait(t, newAddr, 2, 10*time.Second)
	h.waitInt(t, "links left", `SELECT count(*) FROM emails WHERE params ? 'link'`, func(n int) bool { return n == 0 })
	var resetBody sinktest.Mail
	for _, m := range resetMail {
		if m.Subject == "Reset your Uplift password" {
			resetBody = m
		}
	}
	if !strings.Contains(resetBody.Text, link) || !strings.Contains(resetBody.HTML, strings.ReplaceAll(link, "&", "&amp;")) {
		t.Fatalf("reset email:\n%s\n%s", resetBody.Text, resetBody.HTML)
	}

	// Deleting the user removes their emails from the digest schema.
	h.publish(t, events.SubjectUserDeleted, "m5", &eventsv1.UserDeleted{UserId: "u-owner"})
	h.waitInt(t, "owner's emails", `SELECT count(*) FROM emails WHERE user_id = 'u-owner'`, func(n int) bool { return n == 0 })
}

// relay forwards connections on a fixed address to the sink, standing in
// for a relay that comes back after an outage.
func relayTo(t *testing.T, addr, target string) {
	t.Helper()
	var l net.Listener
	var err error
	for range 50 { // the port was just ours; retry briefly if the OS is slow to free it
		if l, err = net.Listen("tcp", addr); err == nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err != nil {
		t.Fatalf("relay: %v", err)
	}
	var wg sync.WaitGroup
	t.Cleanup(func() { l.Close(); wg.Wait() })
	wg.Go(func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			wg.Go(func() {
				defer c.Close()
				up, err := net.Dial("tcp", target)
				if err != nil {
					return
				}
				defer up.Close()
				go func() { _, _ = io.Copy(up, c); up.(*net.TCPConn).CloseWrite() }()
				_, _ = io.Copy(c, up)
			})
		}
	})
}

func TestEmailWaitsOutAnSMTPOutage(t *testing.T) {
	t.Parallel()
	sink := sinktest.New(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	down := l.Addr().String()
	l.Close() // nothing listens here: the relay is down
	h := start(t, down)
	owner := fresh("patient")
	h.publish(t, events.SubjectUserCreated, "m1", &eventsv1.UserCreated{UserId: "u-patient", Email: owner, DisplayName: "Pat"})

	h.waitInt(t, "failed attempts", `SELECT coalesce(max(attempts), 0) FROM emails WHERE status = 'pending' AND last_error LIKE '%connect%'`,
		func(n int) bool { return n >= 2 })
	if got := sink.To(t, owner); len(got) != 0 {
		t.Fatalf("mail while the relay was down: %d", len(got))
	}

	relayTo(t, down, sink.SMTPAddr)
	got := sink.Wait(t, owner, 1, 15*time.Second)
	h.waitInt(t, "sent", `SELECT count(*) FROM emails WHERE status = 'sent' AND sent_at IS NOT NULL AND last_error = ''`,
		func(n int) bool { return n == 1 })
	// Several more sender rounds pass: still exactly one email.
	time.Sleep(time.Second)
	if got = sink.To(t, owner); len(got) != 1 || !strings.Contains(got[0].Text, "Hi Pat,") {
		t.Fatalf("after the outage: %d emails", len(got))
	}
}
