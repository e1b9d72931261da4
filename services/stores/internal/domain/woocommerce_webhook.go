package domain

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
)

// WooWebhookTopics are the topics Uplift registers on a connected store
// (§3 "Topics"): orders (order.updated also fires on a refund, §3) and
// products. Customers are not numbers: their count is read by the sync.
var WooWebhookTopics = []string{
	"order.created", "order.updated", "order.deleted", "order.restored",
	"product.created", "product.updated", "product.deleted",
}

// VerifyWooSignature checks X-WC-Webhook-Signature: base64 of
// HMAC-SHA256 of the raw body with the webhook's secret (§3 "Delivery"),
// compared in constant time. An empty secret or signature never verifies.
func VerifyWooSignature(body []byte, secret, signature string) bool {
	if secret == "" || signature == "" {
		return false
	}
	got, err := base64.StdEncoding.DecodeString(signature)
	if err != nil {
		return false
	}
	m := hmac.New(sha256.New, []byte(secret))
	m.Write(body)
	return hmac.Equal(got, m.Sum(nil))
}
