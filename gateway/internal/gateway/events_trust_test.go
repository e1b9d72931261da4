package gateway

import (
	"context"
	"testing"

	"google.golang.org/protobuf/proto"

	eventsv1 "uplift.dev/proto/gen/uplift/events/v1"

	"uplift.dev/platform/events"
	"uplift.dev/platform/natsauth"
	"uplift.dev/platform/natstest"
)

// TestForgedReportEventsAreNotStreamed: on a NATS with
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
	next := openStream(t, ctx, url, "/events/categories/c1", "Bearer owner")
	report := func(id string) []byte {
		data, _ := proto.Marshal(&eventsv1.ReportUpdated{CategoryId: "c1", ReportId: id, Status: "REPORT_STATUS_READY", ProgressPercent: 100})
		return data
	}
	subject, err := events.ReportUpdatedSubject("c1")
	if err != nil {
		t.Fatal(err)
	}
	categories := natstest.As(t, natsURL, "categories")
	if err := categories.PublishUnsigned(ctx, subject, "forged-1", report("unsigned")); err != nil {
		t.Fatal(err)
	}
	if err := categories.SignedAs(t, natsURL, "stores").Publish(ctx, subject, "forged-2", report("signed-by-stores")); err != nil {
		t.Fatal(err)
	}
	if err := categories.Publish(ctx, subject, "real", report("real")); err != nil {
		t.Fatal(err)
	}
	var sawHeartbeat bool
	if ev := nextEvent(t, next, &sawHeartbeat); ev["reportId"] != "real" {
		t.Fatalf("a forged event was streamed: %v", ev)
	}
}
