package stacktest

import (
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"
)

// WaitForMail waits up to timeout for an email to to whose subject matches
// subject in the stack's SMTP sink (MailDev's API, SMTP_SINK_API), and
// returns its subject. Tests share the sink: each reads only its own
// recipients' mail.
func (s *Stack) WaitForMail(t testing.TB, to string, subject *regexp.Regexp, timeout time.Duration) string {
	t.Helper()
	api := strings.TrimRight(os.Getenv("SMTP_SINK_API"), "/")
	if api == "" {
		t.Fatal("SMTP_SINK_API not set; `make test` runs the stack with its SMTP sink")
	}
	deadline := time.Now().Add(timeout)
	for {
		var inbox []struct {
			Subject string
			To      []struct{ Address string }
		}
		for _, path := range []string{"/api/email", "/email"} { // MailDev 3, then older
			resp, err := s.HTTP.Get(api + path)
			if err != nil {
				continue
			}
			ok := resp.StatusCode == 200 && json.NewDecoder(resp.Body).Decode(&inbox) == nil
			resp.Body.Close()
			if ok {
				break
			}
		}
		for _, m := range inbox {
			for _, r := range m.To {
				if strings.EqualFold(r.Address, to) && subject.MatchString(m.Subject) {
					return m.Subject
				}
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no email to %s with a subject like %s after %s", to, subject, timeout)
		}
		time.Sleep(500 * time.Millisecond)
	}
}
