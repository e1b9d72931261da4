package gateway

import (
	"bufio"
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	eventsv1 "uplift.dev/proto/gen/uplift/events/v1"

	"uplift.dev/platform/events"
	"uplift.dev/platform/natsauth"
	"uplift.dev/platform/natstest"
)

// TestForgedReportEventsAreNotStreamed (issue 13, finding 2): on a NATS with
// the production's keys the gateway signs in as itself and streams a report
// event only if categories signed it; unsigned ones and ones signed with
// another service's key never reach the browser.
func TestForgedReportEventsAreNotStreamed(t *testing.T) {
	t.Parallel()
	natsURL, keys := natstest.StartSecure(t)
	gwSigner, err := events.NewSigner(natsauth.Gateway, keys.Seed(natsauth.Gateway))
	if err != nil {
		t.Fatal(err)
	}
	trust, err := events.ParseTrust(keys.SenderKeys())
	if err != nil {
		t.Fatal(err)
	}
	url := setupEventsWith(t, natsURL, func(o *Options) {
		o.NATSOptions = append(o.NATSOptions, gwSigner.NATSOption())
		o.EventTrust = trust
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", url+"/events/categories/c1", nil)
	req.Header.Set("Authorization", "Bearer owner")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d", resp.StatusCode)
	}
	lines := make(chan string, 100)
	go func() {
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	report := func(id string) []byte {
		data, _ := proto.Marshal(&eventsv1.ReportUpdated{CategoryId: "c1", ReportId: id, Status: "REPORT_STATUS_READY", ProgressPercent: 100})
		return data
	}
	select {
	case l := <-lines:
		if l != ": connected" {
			t.Fatalf("first line %q", l)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("stream did not start")
	}
	categories := natstest.As(t, natsURL, "categories")
	if err := categories.PublishUnsigned(ctx, events.SubjectReportUpdated, "forged-1", report("unsigned")); err != nil {
		t.Fatal(err)
	}
	if err := categories.SignedAs(t, natsURL, "stores").Publish(ctx, events.SubjectReportUpdated, "forged-2", report("signed-by-stores")); err != nil {
		t.Fatal(err)
	}
	if err := categories.Publish(ctx, events.SubjectReportUpdated, "real", report("real")); err != nil {
		t.Fatal(err)
	}
	deadline := time.After(10 * time.Second)
	for {
		select {
		case l := <-lines:
			if !strings.HasPrefix(l, "data: ") {
				continue
			}
			if !strings.Contains(l, `"reportId":"real"`) {
				t.Fatalf("a forged event was streamed: %s", l)
			}
			return
		case <-deadline:
			t.Fatal("categories' own event was not streamed")
		}
	}
}
