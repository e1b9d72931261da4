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

// TestShopMovedTellsTheOwnerItLeft: a shop connected to one account and
// approved on Shopify for another moves; the owner of the account it left
// gets one email naming the shop, with the way back (Connections), even
// when the event is delivered twice.
func TestShopMovedTellsTheOwnerItLeft(t *testing.T) {
	t.Parallel()
	sink := sinktest.New(t)
	h := start(t, sink.SMTPAddr)
	_, addr, cat := h.owner(t, "Fernhill Tea Co.")
	ev := &eventsv1.ShopifyShopMoved{CategoryId: cat, Shop: "fernhill-tea.myshopify.com", OccurTime: timestamppb.Now()}
	h.publish(t, events.SubjectShopifyShopMoved, "m1", ev)
	h.publish(t, events.SubjectShopifyShopMoved, "m1-again", ev) // the same move announced again

	mail := sink.Wait(t, addr, 1, 10*time.Second)
	time.Sleep(500 * time.Millisecond) // a second email, were one queued, is sent by now
	if got := sink.To(t, addr); len(got) != 1 {
		t.Fatalf("%d emails for one move, want 1", len(got))
	}
	m := mail[0]
	if m.Subject != "Your Shopify shop is now connected to another Uplift account" ||
		!strings.Contains(m.Text, "fernhill-tea.myshopify.com") || !strings.Contains(m.Text, webURL+"/connections") ||
		!strings.Contains(m.HTML, `href="`+webURL+`/connections"`) || strings.Contains(m.Text, "nsubscribe") {
		t.Fatalf("email:\n%s\n%s\n%s", m.Subject, m.Text, m.HTML)
	}
}
