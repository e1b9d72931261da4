package stripe

import (
	"errors"
	"testing"
	"time"

	"github.com/stripe/stripe-go/v85/webhook"

	"uplift.dev/billing/internal/domain"
)

// FuzzParseEvent: any correctly signed body is either a PaymentEvent or a
// ValidationError (never a panic, never a 500's plain
// error); any body with a forged signature is ErrBadSignature.
func FuzzParseEvent(f *testing.F) {
	f.Add([]byte(`{"id":"evt_1","object":"event","created":1767225600,"type":"customer.subscription.updated","data":{"object":{"id":"sub_1","object":"subscription","status":"active","customer":"cus_1","items":{"data":[{"price":{"id":"price_uplift_pro_monthly"}}]}}}}`))
	f.Add([]byte(`{"id":"evt_2","object":"event","created":1767225600,"type":"checkout.session.completed","data":{"object":{"object":"checkout.session","subscription":{"id":"sub_7"},"customer":{"id":"cus_9"},"metadata":{"userId":"u"}}}}`))
	f.Add([]byte(`{"id":"evt_3","type":"invoice.payment_failed","data":{"object":{"object":"invoice","parent":{"subscription_details":{"metadata":{"userId":"u"}}}}}}`))
	f.Add([]byte(`{"id":"evt_4","data":{"object":[]}}`))
	f.Add([]byte(`{"id":"evt_5","data":{"object":{"items":{"data":{}}}}}`))
	f.Add([]byte(`{"created":-99999999999999999,"data":null}`))
	f.Add([]byte(`not json`))
	f.Add([]byte{0xff, 0xfe})
	c, _ := New("sk_test_fakekey", "", secret)
	f.Fuzz(func(t *testing.T, payload []byte) {
		signed := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: payload, Secret: secret, Timestamp: time.Now()})
		_, err := c.ParseEvent(payload, signed.Header)
		var ve *domain.ValidationError
		if err != nil && !errors.As(err, &ve) {
			t.Fatalf("a signed body gave %v", err)
		}
		forged := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: payload, Secret: "whsec_other", Timestamp: time.Now()})
		if _, err := c.ParseEvent(payload, forged.Header); !errors.Is(err, domain.ErrBadSignature) {
			t.Fatalf("a forged signature gave %v", err)
		}
	})
}
