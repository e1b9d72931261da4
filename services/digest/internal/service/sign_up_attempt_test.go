package service_test

import (
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/timestamppb"

	eventsv1 "uplift.dev/proto/gen/uplift/events/v1"

	"uplift.dev/digest/internal/sinktest"
	"uplift.dev/platform/events"
)

// TestSignUpAttemptTellsTheOwner: sign-up never says an email is taken, so the account's owner is told instead,
// by an email that leads to sign-in; a stranger repeating the sign-up
// within the hour sends no second one.
func TestSignUpAttemptTellsTheOwner(t *testing.T) {
	t.Parallel()
	sink := sinktest.New(t)
	h := start(t, sink.SMTPAddr)
	owner := fresh("taken")
	at := time.Now().UTC().Truncate(time.Hour).Add(10 * time.Minute)
	h.publish(t, events.SubjectSignUpAttempted, "s1", &eventsv1.SignUpAttempted{UserId: "u-taken", Email: owner, OccurTime: timestamppb.New(at)})
	h.publish(t, events.SubjectSignUpAttempted, "s2", &eventsv1.SignUpAttempted{UserId: "u-taken", Email: owner, OccurTime: timestamppb.New(at.Add(30 * time.Minute))})
	h.waitInt(t, "notices", `SELECT count(*) FROM emails WHERE kind = 'sign_up_attempt' AND status = 'sent'`, func(n int) bool { return n >= 1 })

	mail := sink.Wait(t, owner, 1, 10*time.Second)
	time.Sleep(500 * time.Millisecond) // a second notice, were one queued, is sent by now
	if got := sink.To(t, owner); len(got) != 1 {
		t.Fatalf("%d notices for two tries within the hour, want 1", len(got))
	}
	m := mail[0]
	if m.Subject != "Someone tried to sign up to Uplift with your email" ||
		!strings.Contains(m.Text, "It already has an account") || !strings.Contains(m.Text, webURL+"/") ||
		!strings.Contains(m.HTML, `href="`+webURL+`/"`) {
		t.Fatalf("notice:\n%s\n%s\n%s", m.Subject, m.Text, m.HTML)
	}
}
