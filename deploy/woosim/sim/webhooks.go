package sim

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"uplift.dev/simkit"
)

// topicsAccepted are the topics WooCommerce lets a webhook subscribe to.
// The simulator fires order.created/updated/deleted, product.* and
// customer.created; the others are accepted and stay silent.
var topicsAccepted = func() []string {
	var out []string
	for _, r := range []string{"order", "product", "customer", "coupon"} {
		for _, e := range []string{"created", "updated", "deleted", "restored"} {
			out = append(out, r+"."+e)
		}
	}
	return out
}()

type webhook struct {
	id                   int64
	name, topic          string
	status               string // active, paused, disabled
	deliveryURL, secret  string
	failures             int
	createdAt, updatedAt time.Time
}

// Delivery is one webhook request as sent, for tests to assert on.
type Delivery struct {
	ID         string          `json:"id"` // X-WC-Webhook-Delivery-ID; "" for a ping
	WebhookID  int64           `json:"webhookId"`
	Topic      string          `json:"topic"` // "ping" for the request sent on creation
	ResourceID int64           `json:"resourceId"`
	URL        string          `json:"url"`
	Attempts   int             `json:"attempts"`
	Status     int             `json:"status"` // last HTTP status, 0 when the request failed
	Delivered  bool            `json:"delivered"`
	Body       json.RawMessage `json:"body"`
	Signature  string          `json:"signature"`
}

// WebhookState is a webhook with what only WooCommerce's database shows: its failure count.
type WebhookState struct {
	ID           int64  `json:"id"`
	Topic        string `json:"topic"`
	Status       string `json:"status"`
	FailureCount int    `json:"failureCount"`
}

// Sign is the X-WC-Webhook-Signature: base64 HMAC-SHA256 of the raw body with the webhook's secret.
func Sign(secret string, body []byte) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write(body)
	return base64.StdEncoding.EncodeToString(m.Sum(nil))
}

// Fault makes the next Count REST calls (or webhook deliveries) of a store
// misbehave, to test a client's recovery paths:
//
//	5xx            answer 500 with WordPress's critical-error JSON
//	429            answer 429 with Retry-After (Delay, default 2 s), as a host's limiter does
//	slow           wait Delay (default 1 s) before answering
//	webhook-badsig sign the next delivery with another secret
type Fault = simkit.Fault

var faultKinds = []string{"5xx", "429", "slow", "webhook-badsig"}

// InjectFault queues a fault for the store; faults of one kind are used up in order.
func (s *Server) InjectFault(slug string, f Fault) error {
	if !slices.Contains(faultKinds, f.Kind) {
		return fmt.Errorf("%w: fault kind %q is none of %s", ErrInvalid, f.Kind, strings.Join(faultKinds, ", "))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	st, err := s.storeLocked(slug)
	if err != nil {
		return err
	}
	st.faults.Add(f)
	return nil
}

// SetWebhookRetries switches retries on for a store (n extra attempts per
// failed delivery) or, with 0, back to WooCommerce's none.
func (s *Server) SetWebhookRetries(slug string, n int) error {
	if n < 0 || n > 10 {
		return fmt.Errorf("%w: retries must be 0..10", ErrInvalid)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	st, err := s.storeLocked(slug)
	if err != nil {
		return err
	}
	st.retries = n
	return nil
}

// Deliveries returns a copy of a store's webhook deliveries, oldest first.
func (s *Server) Deliveries(slug string) []Delivery {
	s.mu.Lock()
	defer s.mu.Unlock()
	st, ok := s.stores[slug]
	if !ok {
		return nil
	}
	out := make([]Delivery, len(st.deliveries))
	for i, d := range st.deliveries {
		out[i] = *d
	}
	return out
}

// Webhooks returns a store's webhooks with their failure counts, by id.
func (s *Server) Webhooks(slug string) []WebhookState {
	s.mu.Lock()
	defer s.mu.Unlock()
	st, ok := s.stores[slug]
	if !ok {
		return nil
	}
	out := []WebhookState{}
	for _, h := range st.webhooks {
		out = append(out, WebhookState{ID: h.id, Topic: h.topic, Status: h.status, FailureCount: h.failures})
	}
	slices.SortFunc(out, func(a, b WebhookState) int { return int(a.ID - b.ID) })
	return out
}

// emitLocked queues the event for each active webhook of the topic. As
// Action Scheduler does, an event for a webhook and resource already queued
// is dropped, and the payload is built when the delivery is sent.
func (s *Server) emitLocked(st *store, topic string, resourceID int64) {
	for _, h := range st.webhooks {
		if h.topic != topic || h.status != "active" {
			continue
		}
		q := fmt.Sprintf("%d:%d", h.id, resourceID)
		if st.queued[q] {
			continue
		}
		st.queued[q] = true
		s.wg.Add(1)
		go s.deliver(st, h, topic, resourceID, q)
	}
}

func (s *Server) deliver(st *store, h *webhook, topic string, resourceID int64, queued string) {
	defer s.wg.Done()
	if !s.sleep(s.o.WebhookDelay) {
		return
	}
	s.mu.Lock()
	delete(st.queued, queued)
	if h.status != "active" || st.webhooks[h.id] != h { // paused, disabled or deleted while queued
		s.mu.Unlock()
		return
	}
	body, err := json.Marshal(s.payloadLocked(st, topic, resourceID))
	if err != nil {
		s.mu.Unlock()
		s.log.Error("webhook payload", "topic", topic, "err", err)
		return
	}
	secret := h.secret
	if st.faults.Take("webhook-badsig") != nil {
		secret = "not-the-webhook-secret"
	}
	d := &Delivery{ID: randHex(16), WebhookID: h.id, Topic: topic, ResourceID: resourceID, URL: h.deliveryURL, Body: body, Signature: Sign(secret, body)}
	st.deliveries = append(st.deliveries, d)
	retries, source := st.retries, s.homeLocked(st.spec.Slug)+"/"
	resource, event, _ := strings.Cut(topic, ".")
	hdr := http.Header{}
	hdr.Set("Content-Type", "application/json")
	hdr.Set("User-Agent", "WooCommerce/9.9.0 Hookshot (WordPress/6.8.0)")
	// Set as WooCommerce spells them, not in Go's canonical X-Wc-Webhook-… form.
	hdr["X-WC-Webhook-Source"] = []string{source}
	hdr["X-WC-Webhook-Topic"] = []string{topic}
	hdr["X-WC-Webhook-Resource"] = []string{resource}
	hdr["X-WC-Webhook-Event"] = []string{event}
	hdr["X-WC-Webhook-Signature"] = []string{d.Signature}
	hdr["X-WC-Webhook-ID"] = []string{fmt.Sprint(h.id)}
	hdr["X-WC-Webhook-Delivery-ID"] = []string{d.ID}
	s.mu.Unlock()

	for attempt := 1; ; attempt++ {
		status := s.post(h.deliveryURL, hdr, body)
		ok := status >= 200 && status <= 302 // WooCommerce counts redirects as delivered, though it never follows them
		last := ok || attempt > retries
		s.mu.Lock()
		d.Attempts, d.Status, d.Delivered = attempt, status, ok
		if last {
			s.countLocked(h, ok)
		}
		s.mu.Unlock()
		s.log.Info("webhook", "store", st.spec.Slug, "topic", topic, "attempt", attempt, "status", status)
		if last || !s.sleep(s.o.WebhookDelay<<(attempt-1)) {
			return
		}
	}
}

// countLocked keeps the webhook's failures in a row. WooCommerce checks the
// count before adding the failure: with the default 5 it is the 7th failure
// in a row that disables the hook.
func (s *Server) countLocked(h *webhook, ok bool) {
	switch {
	case ok:
		h.failures = 0
	case h.failures > s.o.MaxDeliveryFailures:
		h.status = "disabled"
	default:
		h.failures++
	}
}

func (s *Server) post(u string, hdr http.Header, body []byte) int {
	req, err := http.NewRequestWithContext(s.ctx, http.MethodPost, u, bytes.NewReader(body))
	if err != nil {
		return 0
	}
	req.Header = hdr.Clone()
	resp, err := s.client.Do(req)
	if err != nil {
		return 0
	}
	defer resp.Body.Close()
	return resp.StatusCode
}

// payloadLocked is the resource as GET /wc/v3/{resource}s/{id} shows it, or
// {"id": N} for a deleted one.
func (s *Server) payloadLocked(st *store, topic string, id int64) any {
	switch topic {
	case "order.created", "order.updated":
		if od, ok := st.orders[id]; ok {
			return s.orderJSON(st, od, st.loc)
		}
	case "product.created", "product.updated":
		if p, ok := st.products[id]; ok {
			return s.productJSON(st, p)
		}
	case "customer.created":
		if cu, ok := st.customers[id]; ok {
			return s.customerJSON(st, cu)
		}
	}
	return map[string]int64{"id": id}
}

func (s *Server) webhookJSON(st *store, h *webhook) map[string]any {
	resource, event, _ := strings.Cut(h.topic, ".")
	m := map[string]any{"id": h.id, "name": h.name, "status": h.status, "topic": h.topic, "resource": resource, "event": event,
		"hooks": []string{"woocommerce_" + resource + "_" + event}, "delivery_url": h.deliveryURL, "secret": h.secret,
		"_links": map[string]any{"self": []any{map[string]string{"href": s.homeLocked(st.spec.Slug) + fmt.Sprintf("/wp-json/wc/v3/webhooks/%d", h.id)}}}}
	dates(m, "date_created", &h.createdAt, st.loc)
	dates(m, "date_modified", &h.updatedAt, st.loc)
	return m
}

type webhookBody struct {
	Name        *string `json:"name"`
	Topic       *string `json:"topic"`
	DeliveryURL *string `json:"delivery_url"`
	Secret      *string `json:"secret"`
	Status      *string `json:"status"`
}

func (c *call) readWebhookBody() (webhookBody, bool) {
	var b webhookBody
	if err := json.NewDecoder(c.r.Body).Decode(&b); err != nil {
		wcError(c.w, http.StatusBadRequest, "rest_invalid_json", "Invalid JSON body passed.")
		return b, false
	}
	if b.Topic != nil && !slices.Contains(topicsAccepted, *b.Topic) {
		wcError(c.w, http.StatusBadRequest, "woocommerce_rest_webhook_invalid_topic", "Webhook topic is required and must be valid.")
		return b, false
	}
	if b.DeliveryURL != nil {
		u, err := url.Parse(*b.DeliveryURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			wcError(c.w, http.StatusBadRequest, "woocommerce_rest_webhook_invalid_delivery_url", "Webhook delivery URL must be a valid URL starting with http:// or https://.")
			return b, false
		}
	}
	if b.Status != nil && !slices.Contains([]string{"active", "paused", "disabled"}, *b.Status) {
		invalidParam(c.w, "status", "status is not one of active, paused and disabled.")
		return b, false
	}
	return b, true
}

func (c *call) createWebhook() {
	b, ok := c.readWebhookBody()
	if !ok {
		return
	}
	if b.Topic == nil {
		wcError(c.w, http.StatusBadRequest, "woocommerce_rest_webhook_invalid_topic", "Webhook topic is required and must be valid.")
		return
	}
	if b.DeliveryURL == nil {
		wcError(c.w, http.StatusBadRequest, "woocommerce_rest_webhook_invalid_delivery_url", "Webhook delivery URL must be a valid URL starting with http:// or https://.")
		return
	}
	now := c.s.now()
	h := &webhook{id: c.st.nextID(), topic: *b.Topic, deliveryURL: *b.DeliveryURL, status: "active", secret: randHex(25), createdAt: now, updatedAt: now}
	h.name = fmt.Sprintf("Webhook created on %s", now.In(c.st.loc).Format("Jan 02, 2006 @ 03:04 PM"))
	if b.Name != nil && *b.Name != "" {
		h.name = *b.Name
	}
	if b.Secret != nil && *b.Secret != "" {
		h.secret = *b.Secret
	}
	if b.Status != nil {
		h.status = *b.Status
	}
	c.st.webhooks[h.id] = h
	c.s.wg.Add(1)
	go c.s.ping(c.st, h.id, h.deliveryURL)
	writeJSON(c.w, http.StatusCreated, c.s.webhookJSON(c.st, h))
}

// ping is WooCommerce's test request on creation: a form body webhook_id=N
// with no X-WC headers, whose answer the REST API ignores.
func (s *Server) ping(st *store, id int64, u string) {
	defer s.wg.Done()
	body := []byte(fmt.Sprintf("webhook_id=%d", id))
	hdr := http.Header{}
	hdr.Set("Content-Type", "application/x-www-form-urlencoded")
	status := s.post(u, hdr, body)
	s.mu.Lock()
	defer s.mu.Unlock()
	st.deliveries = append(st.deliveries, &Delivery{WebhookID: id, Topic: "ping", URL: u, Attempts: 1, Status: status,
		Delivered: status >= 200 && status <= 302, Body: json.RawMessage(fmt.Sprintf("%q", body))})
}

func (c *call) webhook() *webhook {
	h, ok := c.st.webhooks[c.id]
	if !ok {
		wcError(c.w, http.StatusNotFound, "woocommerce_rest_webhook_invalid_id", "Invalid ID.")
	}
	return h
}

func (c *call) listWebhooks() {
	lq, ok := c.parseList("date", "id", "include", "title")
	if !ok {
		return
	}
	status := c.r.URL.Query().Get("status")
	if status != "" && !slices.Contains([]string{"all", "active", "paused", "disabled"}, status) {
		invalidParam(c.w, "status", "status is not one of all, active, paused and disabled.")
		return
	}
	var items []item
	for _, h := range c.st.webhooks {
		if status == "" || status == "all" || h.status == status {
			items = append(items, item{id: h.id, created: h.createdAt, modified: h.updatedAt, title: h.name,
				render: func() any { return c.s.webhookJSON(c.st, h) }})
		}
	}
	c.page(lq, items)
}

func (c *call) getWebhook() {
	if h := c.webhook(); h != nil {
		writeJSON(c.w, http.StatusOK, c.s.webhookJSON(c.st, h))
	}
}

func (c *call) updateWebhook() {
	h := c.webhook()
	if h == nil {
		return
	}
	b, ok := c.readWebhookBody()
	if !ok {
		return
	}
	for _, f := range []struct {
		src *string
		dst *string
	}{{b.Name, &h.name}, {b.Topic, &h.topic}, {b.DeliveryURL, &h.deliveryURL}, {b.Secret, &h.secret}} {
		if f.src != nil {
			*f.dst = *f.src
		}
	}
	if b.Status != nil {
		if *b.Status == "active" && h.status != "active" {
			h.failures = 0 // re-enabling starts the count again
		}
		h.status = *b.Status
	}
	h.updatedAt = c.s.now()
	writeJSON(c.w, http.StatusOK, c.s.webhookJSON(c.st, h))
}

func (c *call) deleteWebhook() {
	h := c.webhook()
	if h == nil {
		return
	}
	if f := c.r.URL.Query().Get("force"); f != "true" && f != "1" {
		wcError(c.w, http.StatusNotImplemented, "woocommerce_rest_trash_not_supported", "Webhooks do not support trashing.")
		return
	}
	out := c.s.webhookJSON(c.st, h)
	delete(c.st.webhooks, h.id)
	writeJSON(c.w, http.StatusOK, out)
}
