package sim

import (
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// webhookMaxAttempts is Shopify's retry budget: 8 attempts (over 4 h there, compressed here).
const webhookMaxAttempts = 8

// Delivery is one webhook event as the receiver saw it, for tests to assert on.
type Delivery struct {
	Topic     string `json:"topic"`
	EventID   string `json:"eventId"`
	WebhookID string `json:"webhookId"`
	URI       string `json:"uri"`
	Attempts  int    `json:"attempts"`
	Status    int    `json:"status"` // last HTTP status, 0 when the request failed
	Delivered bool   `json:"delivered"`
	// Body is the payload as sent and HMAC its genuine signature: what
	// anyone who saw the delivery holds, so tests can replay it.
	Body json.RawMessage `json:"body"`
	HMAC string          `json:"hmac"`
}

type subscription struct {
	id        int64
	topic     string // enum form, e.g. ORDERS_CREATE
	uri       string
	createdAt time.Time
}

// topics maps the GraphQL WebhookSubscriptionTopic enum to the header form.
var topics = map[string]string{
	"ORDERS_CREATE": "orders/create", "ORDERS_UPDATED": "orders/updated", "ORDERS_CANCELLED": "orders/cancelled",
	"ORDERS_DELETE": "orders/delete", "REFUNDS_CREATE": "refunds/create", "PRODUCTS_CREATE": "products/create",
	"PRODUCTS_UPDATE": "products/update", "PRODUCTS_DELETE": "products/delete", "CUSTOMERS_CREATE": "customers/create",
	"CUSTOMERS_UPDATE": "customers/update", "CUSTOMERS_DELETE": "customers/delete", "APP_UNINSTALLED": "app/uninstalled",
	"BULK_OPERATIONS_FINISH": "bulk_operations/finish",
}

var complianceTopics = map[string]bool{"customers/data_request": true, "customers/redact": true, "shop/redact": true}

// emitLocked queues the event for every subscription of the topic. The body is
// fixed now (Shopify retries the original payload).
func (s *Server) emitLocked(sh *shop, topic string, payload any) {
	for _, sub := range sh.subs {
		if topics[sub.topic] == topic {
			s.deliverLocked(sh, topic, sub.uri, payload)
		}
	}
}

func (s *Server) deliverLocked(sh *shop, topic, uri string, payload any) {
	body, err := json.Marshal(payload)
	if err != nil {
		s.log.Error("webhook payload", "topic", topic, "err", err)
		return
	}
	copies := 1
	if sh.faults.Take("webhook-duplicate") != nil {
		copies = 2 // the same event (same ids) delivered twice, as Shopify may
	}
	eventID, webhookID := uuid(), uuid()
	triggered := s.now().UTC().Format(time.RFC3339Nano)
	for range copies {
		d := &Delivery{Topic: topic, EventID: eventID, WebhookID: webhookID, URI: uri, Body: body, HMAC: Sign(s.o.APISecret, body)}
		sh.deliveries = append(sh.deliveries, d)
		s.wg.Add(1)
		go s.deliver(sh, d, body, triggered)
	}
}

// deliver POSTs with retries on the compressed schedule base×2^(n-1).
func (s *Server) deliver(sh *shop, d *Delivery, body []byte, triggered string) {
	defer s.wg.Done()
	for attempt := 1; attempt <= webhookMaxAttempts; attempt++ {
		s.mu.Lock()
		badSig := sh.faults.Take("webhook-fail") != nil
		s.mu.Unlock()
		sig := Sign(s.o.APISecret, body)
		if badSig {
			sig = Sign("not-the-app-secret", body)
		}
		status := s.post(d, body, sig, sh.spec.Domain, triggered)
		s.mu.Lock()
		d.Attempts, d.Status = attempt, status
		d.Delivered = status >= 200 && status < 300
		done := d.Delivered
		s.mu.Unlock()
		s.log.Info("webhook", "shop", sh.spec.Domain, "topic", d.Topic, "attempt", attempt, "status", status)
		if done || attempt == webhookMaxAttempts || !s.sleep(s.o.WebhookRetryBase<<(attempt-1)) {
			return
		}
	}
}

func (s *Server) post(d *Delivery, body []byte, sig, domain, triggered string) int {
	req, err := http.NewRequestWithContext(s.ctx, http.MethodPost, d.URI, bytes.NewReader(body))
	if err != nil {
		return 0
	}
	h := req.Header
	h.Set("Content-Type", "application/json")
	h.Set("X-Shopify-Topic", d.Topic)
	h.Set("X-Shopify-Hmac-Sha256", sig)
	h.Set("X-Shopify-Shop-Domain", domain)
	h.Set("X-Shopify-API-Version", APIVersion)
	h.Set("X-Shopify-Webhook-Id", d.WebhookID)
	h.Set("X-Shopify-Event-Id", d.EventID)
	h.Set("X-Shopify-Triggered-At", triggered)
	resp, err := s.client.Do(req)
	if err != nil {
		return 0
	}
	defer resp.Body.Close()
	return resp.StatusCode
}

// Sign is the webhook signature: base64 HMAC-SHA256 of the raw body with the app secret.
func Sign(secret string, body []byte) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write(body)
	return base64.StdEncoding.EncodeToString(m.Sum(nil))
}

func uuid() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// Deliveries lists the shop's webhook deliveries in the order they were queued.
func (s *Server) Deliveries(domain string) []Delivery {
	s.mu.Lock()
	defer s.mu.Unlock()
	sh, ok := s.shops[domain]
	if !ok {
		return nil
	}
	out := make([]Delivery, len(sh.deliveries))
	for i, d := range sh.deliveries {
		out[i] = *d
	}
	return out
}

// Uninstall sends app/uninstalled, then revokes the shop's tokens and deletes
// its subscriptions, as Shopify does when the merchant removes the app.
func (s *Server) Uninstall(domain string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	sh, err := s.shopLocked(domain)
	if err != nil {
		return err
	}
	s.emitLocked(sh, "app/uninstalled", map[string]any{"id": sh.id, "name": sh.spec.Name, "domain": domain, "myshopify_domain": domain})
	sh.subs = nil
	sh.installed = false
	for k, t := range s.tokens {
		if t.shop == domain {
			delete(s.tokens, k)
		}
	}
	for k, t := range s.refresh {
		if t.shop == domain {
			delete(s.refresh, k)
		}
	}
	return nil
}

// SendCompliance sends one of the mandatory privacy webhooks to Options.ComplianceURL.
func (s *Server) SendCompliance(domain, topic string, customerID int64, orderIDs []int64) error {
	if !complianceTopics[topic] {
		return fmt.Errorf("%w: compliance topic must be customers/data_request, customers/redact or shop/redact", ErrInvalid)
	}
	if s.o.ComplianceURL == "" {
		return fmt.Errorf("%w: no compliance URL configured", ErrInvalid)
	}
	if orderIDs == nil {
		orderIDs = []int64{}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	sh, err := s.shopLocked(domain)
	if err != nil {
		return err
	}
	p := map[string]any{"shop_id": sh.id, "shop_domain": domain}
	cust := map[string]any{"id": customerID, "email": fmt.Sprintf("customer%d@example.com", customerID), "phone": nil}
	switch topic {
	case "customers/data_request":
		p["customer"], p["orders_requested"] = cust, orderIDs
		p["data_request"] = map[string]any{"id": sh.nextID()}
	case "customers/redact":
		p["customer"], p["orders_to_redact"] = cust, orderIDs
	}
	s.deliverLocked(sh, topic, s.o.ComplianceURL, p)
	return nil
}

func validURI(u string) bool {
	p, err := url.Parse(u)
	return err == nil && (p.Scheme == "http" || p.Scheme == "https") && p.Host != "" && !strings.ContainsAny(u, " \t\n")
}
