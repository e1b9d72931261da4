package service_test

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"

	digestv1 "uplift.dev/proto/gen/uplift/digest/v1"
	eventsv1 "uplift.dev/proto/gen/uplift/events/v1"

	"uplift.dev/digest/internal/domain"
	"uplift.dev/digest/internal/sinktest"
	"uplift.dev/platform/events"
)

// lastEvent returns the newest event on subject in the test's stream.
func (h harness) lastEvent(t *testing.T, subject string, m proto.Message) bool {
	t.Helper()
	stream, err := h.js.Stream(context.Background(), events.StreamName)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := stream.GetLastMsgForSubject(context.Background(), subject)
	if err != nil {
		return false
	}
	if err := proto.Unmarshal(raw.Data, m); err != nil {
		t.Fatal(err)
	}
	return true
}

func eventually(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not in time", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func aiDigests(ms []sinktest.Mail) []sinktest.Mail {
	var out []sinktest.Mail
	for _, m := range ms {
		if strings.HasPrefix(m.Subject, "Your AI digest") {
			out = append(out, m)
		}
	}
	return out
}

func TestAIDigestArrivesWithOneClickUnsubscribe(t *testing.T) {
	t.Parallel()
	sink := sinktest.New(t)
	h := start(t, sink.SMTPAddr)
	owner, user, cat, ideaID := fresh("digest"), "u-"+uuid.NewString()[:8], uuid.NewString(), uuid.NewString()
	t0 := time.Now().Add(-time.Hour)

	h.publish(t, events.SubjectUserCreated, "m1", &eventsv1.UserCreated{UserId: user, Email: owner, DisplayName: "Dee",
		CategoryId: cat, OccurTime: timestamppb.New(t0)})
	h.publish(t, events.SubjectCategoryUpdated, "m2", &eventsv1.CategoryUpdated{CategoryId: cat, OwnerUserId: user,
		Name: "Clay & Co", OccurTime: timestamppb.New(t0)})
	h.waitInt(t, "recipient", `SELECT count(*) FROM recipients WHERE user_id = $1 AND email = $2 AND category_id = $3`,
		func(n int) bool { return n == 1 }, user, owner, cat)

	asked := time.Now()
	req := &eventsv1.DigestRequested{CategoryId: cat, RequestedBy: user, OwnerUserId: user, OccurTime: timestamppb.New(asked),
		StoreName: `Clay <b>&</b> Co`, SiteUrl: "https://clay.example/",
		Insights: []*eventsv1.DigestRequested_Insight{{Text: `<script>alert(1)</script> Gift sets sell best`, Evidence: "/products.json"}},
		Ideas:    []*eventsv1.DigestRequested_Idea{{Id: ideaID, Title: "Winter mug drop", Channel: "email", WhyNow: "First frost next week"}},
	}
	h.publish(t, events.SubjectDigestRequested, "m3", req)
	h.publish(t, events.SubjectDigestRequested, "m3-again", req) // the same request again: one email

	got := aiDigests(sink.Wait(t, owner, 2, 15*time.Second)) // welcome + digest
	if len(got) != 1 {
		t.Fatalf("%d AI digests", len(got))
	}
	m := got[0]
	key := "ai-digest:" + cat + ":" + domain.AIDigestMinute(asked)
	hdr := sink.RawHeader(t, m)
	if d, err := hdr.Date(); err != nil || time.Since(d) > time.Minute {
		t.Fatalf("date %q: %v", hdr.Get("Date"), err)
	}
	if hdr.Get("Message-ID") != domain.MessageID(key, "uplift.example") || m.Header("message-id") != hdr.Get("Message-ID") {
		t.Fatalf("message-id %q", hdr.Get("Message-ID"))
	}
	if hdr.Get("List-Unsubscribe-Post") != "List-Unsubscribe=One-Click" {
		t.Fatalf("list-unsubscribe-post %q", hdr.Get("List-Unsubscribe-Post"))
	}
	lu := hdr.Get("List-Unsubscribe")
	if !strings.HasPrefix(lu, "<"+publicAPI+"/email/unsubscribe?token=") || !strings.HasSuffix(lu, ">") {
		t.Fatalf("list-unsubscribe %q", lu)
	}
	link, err := url.Parse(strings.Trim(lu, "<>"))
	if err != nil {
		t.Fatal(err)
	}
	token := link.Query().Get("token")
	ideaURL := webURL + "/ideas/" + ideaID
	if !strings.Contains(m.Text, "Gift sets sell best") || !strings.Contains(m.Text, ideaURL) || !strings.Contains(m.Text, strings.Trim(lu, "<>")) ||
		!strings.Contains(m.HTML, `href="`+ideaURL+`"`) || !strings.Contains(m.HTML, `href="`+webURL+`/"`) ||
		!strings.Contains(m.HTML, "&lt;script&gt;") || strings.Contains(m.HTML, "<script>") ||
		!strings.Contains(m.HTML, "Clay &lt;b&gt;&amp;&lt;/b&gt; Co") || !strings.Contains(m.Subject, "Clay <b>&</b> Co") {
		t.Fatalf("digest:\nSUBJECT %s\nTEXT %s\nHTML %s", m.Subject, m.Text, m.HTML)
	}
	src := sink.Source(t, m)
	if !strings.Contains(src, "text/plain") || !strings.Contains(src, "text/html") || !strings.Contains(src, "\nDate: ") {
		t.Fatalf("source:\n%s", src)
	}
	// Transactional mail carries no unsubscribe header.
	for _, w := range sink.To(t, owner) {
		if wh := sink.RawHeader(t, w); strings.HasPrefix(w.Subject, "Welcome") && (wh.Get("List-Unsubscribe") != "" || wh.Get("List-Unsubscribe-Post") != "") {
			t.Fatalf("welcome has unsubscribe headers: %v", wh)
		}
	}

	// A refused link changes nothing: tampered, expired.
	signer, _ := domain.NewTokenSigner(secret)
	expired, _ := signer.Sign(domain.Unsubscription{UserID: user, Kind: domain.KindAIDigest, Expires: time.Now().Add(-time.Minute)})
	for tok, code := range map[string]codes.Code{
		token[:len(token)-2] + "xx": codes.InvalidArgument,
		"":                          codes.InvalidArgument,
		expired:                     codes.FailedPrecondition,
	} {
		_, err := h.client.Unsubscribe(context.Background(), &digestv1.UnsubscribeRequest{Token: tok})
		if status.Code(err) != code || !strings.Contains(status.Convert(err).Message(), "unsubscribe link") {
			t.Fatalf("token %q: %v, want %v", tok, err, code)
		}
	}
	h.waitInt(t, "no suppression yet", `SELECT count(*) FROM suppressions WHERE user_id = $1 AND suppressed`,
		func(n int) bool { return n == 0 }, user)

	// One click, no sign-in: only the AI digest is turned off, and the
	// categories service hears of it.
	res, err := h.client.Unsubscribe(context.Background(), &digestv1.UnsubscribeRequest{Token: token})
	if err != nil || res.GetKind() != digestv1.DigestKind_DIGEST_KIND_AI_DIGEST ||
		!strings.Contains(res.GetMessage(), "AI email digest") || !strings.HasPrefix(res.GetResubscribeUrl(), publicAPI+"/email/resubscribe?token=") {
		t.Fatalf("unsubscribe: %v %v", res, err)
	}
	if _, err := h.client.Unsubscribe(context.Background(), &digestv1.UnsubscribeRequest{Token: token}); err != nil {
		t.Fatalf("second click: %v", err)
	}
	h.waitInt(t, "suppressions", `SELECT count(*) FROM suppressions WHERE user_id = $1 AND suppressed`,
		func(n int) bool { return n == 1 }, user)
	h.waitInt(t, "ai digest suppressed", `SELECT count(*) FROM suppressions WHERE user_id = $1 AND kind = 'ai_digest' AND suppressed`,
		func(n int) bool { return n == 1 }, user)
	var ev eventsv1.EmailKindUnsubscribed
	eventually(t, "EmailKindUnsubscribed", func() bool {
		return h.lastEvent(t, events.SubjectEmailKindUnsubscribed, &ev) && ev.GetUserId() == user
	})
	if ev.GetKind() != "ai_digest" || ev.GetCategoryId() != cat || ev.GetResubscribed() {
		t.Fatalf("event %v", &ev)
	}

	// The next AI digest is not sent; a password reset still is.
	next := proto.Clone(req).(*eventsv1.DigestRequested)
	next.OccurTime = timestamppb.New(asked.Add(2 * time.Minute))
	h.publish(t, events.SubjectDigestRequested, "m4", next)
	h.waitInt(t, "suppressed row", `SELECT count(*) FROM send_log WHERE user_id = $1 AND kind = 'ai_digest' AND status = 'suppressed'`,
		func(n int) bool { return n == 1 }, user)
	resetLink := "https://uplift.example/__/auth/action?mode=resetPassword&oobCode=" + uuid.NewString()[:8]
	h.publish(t, events.SubjectPasswordResetRequested, "m5", &eventsv1.PasswordResetRequested{Email: owner, Link: resetLink})
	all := sink.Wait(t, owner, 3, 15*time.Second)
	if n := len(aiDigests(all)); n != 1 {
		t.Fatalf("%d AI digests after unsubscribing", n)
	}

	// The page's button turns it back on; the next request is sent.
	if _, err := h.client.Resubscribe(context.Background(), &digestv1.ResubscribeRequest{Token: token}); err != nil {
		t.Fatal(err)
	}
	eventually(t, "resubscribed event", func() bool {
		return h.lastEvent(t, events.SubjectEmailKindUnsubscribed, &ev) && ev.GetResubscribed()
	})
	later := proto.Clone(req).(*eventsv1.DigestRequested)
	later.OccurTime = timestamppb.New(asked.Add(4 * time.Minute))
	h.publish(t, events.SubjectDigestRequested, "m6", later)
	eventually(t, "second digest", func() bool { return len(aiDigests(sink.To(t, owner))) == 2 })
	h.waitInt(t, "send log", `SELECT count(*) FROM send_log WHERE user_id = $1 AND kind = 'ai_digest' AND status = 'sent'`,
		func(n int) bool { return n == 2 }, user)
}

func TestRecipientsAndSwitchesKeepTheNewest(t *testing.T) {
	t.Parallel()
	sink := sinktest.New(t)
	h := start(t, sink.SMTPAddr)
	user, cat := "u-"+uuid.NewString()[:8], uuid.NewString()
	a, b := fresh("first"), fresh("second")
	t0 := time.Now().Add(-time.Hour)
	at := func(d time.Duration) *timestamppb.Timestamp { return timestamppb.New(t0.Add(d)) }

	h.publish(t, events.SubjectUserCreated, "c1", &eventsv1.UserCreated{UserId: user, Email: a, CategoryId: cat, OccurTime: at(0), SuppressWelcomeEmail: true})
	h.publish(t, events.SubjectUserEmailChanged, "c2", &eventsv1.UserEmailChanged{UserId: user, OldEmail: a, NewEmail: b, OccurTime: at(2 * time.Minute)})
	// A late, older change does not win.
	h.publish(t, events.SubjectUserEmailChanged, "c3", &eventsv1.UserEmailChanged{UserId: user, OldEmail: "x@shop.example", NewEmail: a, OccurTime: at(time.Minute)})
	h.publish(t, events.SubjectCategoryUpdated, "s1", &eventsv1.CategoryUpdated{CategoryId: cat, OwnerUserId: user, Name: "New", DisableBusinessReport: true, OccurTime: at(3 * time.Minute)})
	h.publish(t, events.SubjectCategoryUpdated, "s2", &eventsv1.CategoryUpdated{CategoryId: cat, OwnerUserId: user, Name: "Old", OccurTime: at(time.Minute)})
	h.waitInt(t, "handled", `SELECT count(*) FROM processed_messages`, func(n int) bool { return n == 5 })
	var email, name string
	var report bool
	if err := h.pool.QueryRow(context.Background(), `SELECT r.email, s.name, s.disable_business_report FROM recipients r
		JOIN recipient_stores s ON s.owner_user_id = r.user_id WHERE r.user_id = $1`, user).Scan(&email, &name, &report); err != nil {
		t.Fatal(err)
	}
	if email != b || name != "New" || !report {
		t.Fatalf("kept %q %q %v", email, name, report)
	}
	h.waitInt(t, "daily report off", `SELECT count(*) FROM suppressions WHERE user_id = $1 AND kind = 'daily_report' AND suppressed AND source = 'business_profile'`,
		func(n int) bool { return n == 1 }, user)

	// Unsubscribing from everything turns every kind off; deleting the
	// user forgets the address and keeps it forgotten.
	h.publish(t, events.SubjectUserUnsubscribed, "x1", &eventsv1.UserUnsubscribed{UserId: user, CategoryId: cat, OccurTime: at(4 * time.Minute)})
	h.waitInt(t, "all off", `SELECT count(*) FROM suppressions WHERE user_id = $1 AND suppressed`, func(n int) bool { return n == 3 }, user)
	h.publish(t, events.SubjectUserDeleted, "d1", &eventsv1.UserDeleted{UserId: user, CategoryId: cat})
	h.publish(t, events.SubjectUserEmailChanged, "c4", &eventsv1.UserEmailChanged{UserId: user, OldEmail: b, NewEmail: a, OccurTime: at(5 * time.Minute)})
	h.waitInt(t, "handled", `SELECT count(*) FROM processed_messages`, func(n int) bool { return n == 8 })
	h.waitInt(t, "forgotten", `SELECT count(*) FROM recipients WHERE user_id = $1 AND (email <> '' OR NOT deleted)`, func(n int) bool { return n == 0 }, user)
	h.waitInt(t, "no suppressions", `SELECT count(*) FROM suppressions WHERE user_id = $1`, func(n int) bool { return n == 0 }, user)
}
