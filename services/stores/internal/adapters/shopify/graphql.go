package shopify

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"uplift.dev/stores/internal/app"
	"uplift.dev/stores/internal/domain"
)

// maxAttempts bounds the tries of one GraphQL call across throttling, 5xx
// and network errors, so a broken shop fails a sync rather than hanging it.
const maxAttempts = 6

// Client reads one shop's Admin API with its token. It keeps the shop's
// rate-limit bucket as Shopify last reported it, so callers sharing a
// Client wait before spending points they do not have.
type Client struct {
	s      *Shopify
	shop   string
	ts     app.TokenSource
	bucket bucket
}

// Client opens a shop's API.
func (s *Shopify) Client(shop string, ts app.TokenSource) *Client {
	return &Client{s: s, shop: shop, ts: ts, bucket: bucket{costs: map[string]float64{}}}
}

// GraphQLError is an answer whose "errors" list was not empty; it carries
// Shopify's messages and codes so logs say what Shopify said.
type GraphQLError struct {
	Messages []string
	Codes    []string
}

func (e *GraphQLError) Error() string {
	return "shopify graphql: " + strings.Join(e.Messages, "; ")
}

// Is makes errors.Is(err, domain.ErrNotGranted) true for ACCESS_DENIED answers,
// which is how Shopify refuses a field the token has no scope for.
func (e *GraphQLError) Is(target error) bool {
	if target != domain.ErrNotGranted {
		return false
	}
	for _, c := range e.Codes {
		if c == "ACCESS_DENIED" {
			return true
		}
	}
	return false
}

type gqlResponse struct {
	Data   json.RawMessage `json:"data"`
	Errors []struct {
		Message    string `json:"message"`
		Extensions struct {
			Code string `json:"code"`
		} `json:"extensions"`
	} `json:"errors"`
	Extensions struct {
		Cost *struct {
			RequestedQueryCost float64         `json:"requestedQueryCost"`
			ThrottleStatus     *throttleStatus `json:"throttleStatus"`
		} `json:"cost"`
	} `json:"extensions"`
}

type throttleStatus struct {
	MaximumAvailable   float64 `json:"maximumAvailable"`
	CurrentlyAvailable float64 `json:"currentlyAvailable"`
	RestoreRate        float64 `json:"restoreRate"`
}

// bucket is the last throttle status Shopify reported and the last
// requested cost of each query text, the best estimate of its next cost.
type bucket struct {
	mu        sync.Mutex
	known     bool
	max       float64
	available float64
	restore   float64
	at        time.Time
	costs     map[string]float64
}

// defaultEstimate is the assumed cost of a query never sent before.
const defaultEstimate = 10

func (b *bucket) estimate(query string) float64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	if c, ok := b.costs[query]; ok {
		return c
	}
	return defaultEstimate
}

func (b *bucket) update(query string, requested float64, st *throttleStatus, now time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if requested > 0 {
		b.costs[query] = requested
	}
	if st != nil {
		b.known, b.max, b.available, b.restore, b.at = true, st.MaximumAvailable, st.CurrentlyAvailable, st.RestoreRate, now
	}
}

// delay is how long to wait before spending requested points.
func (b *bucket) delay(requested float64, now time.Time, limit time.Duration) time.Duration {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.known {
		return 0
	}
	avail := b.available + b.restore*now.Sub(b.at).Seconds()
	if b.max > 0 && avail > b.max {
		avail = b.max
	}
	return throttleWait(avail, b.restore, requested, limit)
}

// throttleWait is (requested − available) ÷ restoreRate seconds, the time
// the leaky bucket needs to refill enough, capped at limit.
func throttleWait(available, restoreRate, requested float64, limit time.Duration) time.Duration {
	if requested <= available || restoreRate <= 0 {
		return 0
	}
	d := time.Duration((requested - available) / restoreRate * float64(time.Second))
	return min(d, limit)
}

// backoff is the exponential wait before retry attempt n (n ≥ 1), with
// jitter so many shops do not retry in step.
func (s *Shopify) backoff(n int) time.Duration {
	d := s.retryBase << min(n-1, 10)
	d = min(d, s.maxWait)
	return d/2 + rand.N(d/2+1)
}

// sleep waits d or until ctx ends.
func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// retryAfter reads a Retry-After header in seconds (Shopify sends "2.0").
func retryAfter(h http.Header) time.Duration {
	f, err := strconv.ParseFloat(strings.TrimSpace(h.Get("Retry-After")), 64)
	if err != nil || f < 0 {
		return 0
	}
	return time.Duration(f * float64(time.Second))
}

// do runs one GraphQL query or mutation and decodes its data into out. It
// waits when the bucket lacks the points, retries throttling, 5xx and
// network errors with back-off, and refreshes the token once after a 401.
func (c *Client) do(ctx context.Context, query string, vars map[string]any, out any) error {
	body, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	if err != nil {
		return err
	}
	token, err := c.ts.Token(ctx)
	if err != nil {
		return fmt.Errorf("shopify token: %w", err)
	}
	refreshed := false
	var wait time.Duration
	var lastErr error
	for attempt := 0; attempt < maxAttempts; attempt++ {
		if err := sleep(ctx, wait); err != nil {
			return err
		}
		// The bucket paces calls against Shopify's, which refills in real
		// time while this one sleeps: the wall clock, not the service's.
		if err := sleep(ctx, c.bucket.delay(c.bucket.estimate(query), time.Now(), c.s.maxWait)); err != nil {
			return err
		}
		status, header, data, err := c.post(ctx, token, body)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			lastErr, wait = err, c.s.backoff(attempt+1)
			continue
		}
		if v := header.Get("X-Shopify-API-Version"); v != "" && v != c.s.cfg.APIVersion {
			c.s.cfg.Log.DebugContext(ctx, "shopify served another API version", "shop", c.shop, "pinned", c.s.cfg.APIVersion, "served", v)
		}
		switch {
		case status == http.StatusUnauthorized:
			if refreshed {
				return ErrUnauthorized
			}
			refreshed = true
			if token, err = c.ts.Refreshed(ctx, token); err != nil {
				return fmt.Errorf("shopify token refresh: %w", err)
			}
			wait = 0
			attempt-- // a refresh is not a failed attempt
			continue
		case status == http.StatusPaymentRequired || status == http.StatusLocked:
			return domain.ErrShopLocked
		case status == http.StatusTooManyRequests:
			lastErr = errors.New("shopify: throttled (429)")
			wait = max(retryAfter(header), c.s.backoff(attempt+1))
			c.noteCost(query, data)
			continue
		case status >= 500:
			lastErr = fmt.Errorf("shopify: %d %s", status, http.StatusText(status))
			wait = max(retryAfter(header), c.s.backoff(attempt+1))
			continue
		case status != http.StatusOK:
			return fmt.Errorf("shopify: %d %s: %s", status, http.StatusText(status), snippet(data))
		}
		var r gqlResponse
		if err := json.Unmarshal(data, &r); err != nil {
			return fmt.Errorf("shopify: unreadable answer: %w", err)
		}
		now := time.Now()
		var requested float64
		var st *throttleStatus
		if r.Extensions.Cost != nil {
			requested, st = r.Extensions.Cost.RequestedQueryCost, r.Extensions.Cost.ThrottleStatus
		}
		c.bucket.update(query, requested, st, now)
		if len(r.Errors) > 0 {
			ge := &GraphQLError{}
			throttled := false
			for _, e := range r.Errors {
				ge.Messages = append(ge.Messages, e.Message)
				ge.Codes = append(ge.Codes, e.Extensions.Code)
				throttled = throttled || e.Extensions.Code == "THROTTLED"
			}
			if throttled {
				lastErr = ge
				wait = max(c.bucket.delay(c.bucket.estimate(query), now, c.s.maxWait), c.s.backoff(attempt+1))
				continue
			}
			return ge
		}
		if out == nil {
			return nil
		}
		if err := json.Unmarshal(r.Data, out); err != nil {
			return fmt.Errorf("shopify: unexpected data: %w", err)
		}
		return nil
	}
	return fmt.Errorf("shopify: gave up after %d attempts: %w", maxAttempts, lastErr)
}

// noteCost keeps the throttle status a 429 answer may carry.
func (c *Client) noteCost(query string, data []byte) {
	var r gqlResponse
	if json.Unmarshal(data, &r) == nil && r.Extensions.Cost != nil {
		c.bucket.update(query, r.Extensions.Cost.RequestedQueryCost, r.Extensions.Cost.ThrottleStatus, time.Now())
	}
}

// post sends one request; the token goes only into its header.
func (c *Client) post(ctx context.Context, token string, body []byte) (int, http.Header, []byte, error) {
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	u := c.s.cfg.BaseURL(c.shop) + "/admin/api/" + c.s.cfg.APIVersion + "/graphql.json"
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, bytes.NewReader(body))
	if err != nil {
		return 0, nil, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("X-Shopify-Access-Token", token)
	resp, err := c.s.cfg.HTTPClient.Do(req)
	if err != nil {
		return 0, nil, nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 32<<20))
	if err != nil {
		return 0, nil, nil, err
	}
	return resp.StatusCode, resp.Header, data, nil
}

// snippet is the start of an error body, for messages.
func snippet(b []byte) string {
	const n = 200
	if len(b) > n {
		return string(b[:n]) + "…"
	}
	return string(b)
}
