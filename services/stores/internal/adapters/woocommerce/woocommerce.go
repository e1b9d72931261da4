// Package woocommerce talks to WooCommerce stores: the app authorization
// page's address and the REST API v3 read with a store's keys
// (../shared/research/woocommerce.md §1, §2). A store is any address a
// merchant types, so every request goes through a dialer that refuses
// private, loopback and link-local addresses unless the local stack allows
// them for its simulator.
package woocommerce

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"syscall"
	"time"

	"uplift.dev/stores/internal/app"
	"uplift.dev/stores/internal/domain"
)

// Config configures the client.
type Config struct {
	// AllowLoopback lets requests reach loopback and private addresses:
	// local mode only, where the simulator runs on 127.0.0.1.
	AllowLoopback bool
	// Timeout bounds one request; 0 is 20 s (the key callback must answer
	// within WooCommerce's 60 s, §1).
	Timeout time.Duration
}

// Client implements app.WooCommerce.
type Client struct {
	http *http.Client
}

var _ app.WooCommerce = (*Client)(nil)

// New returns a client.
func New(cfg Config) *Client {
	if cfg.Timeout <= 0 {
		cfg.Timeout = 20 * time.Second
	}
	d := &net.Dialer{Timeout: 10 * time.Second}
	if !cfg.AllowLoopback {
		d.Control = refusePrivate
	}
	tr := &http.Transport{DialContext: d.DialContext, TLSHandshakeTimeout: 10 * time.Second,
		MaxIdleConnsPerHost: 2, IdleConnTimeout: 90 * time.Second, ResponseHeaderTimeout: cfg.Timeout}
	return &Client{http: &http.Client{Transport: tr, Timeout: cfg.Timeout,
		// A store's API answers where it is asked; a redirect could carry
		// the keys' Authorization elsewhere.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// errPrivate is a dial to an address no merchant's store can have.
var errPrivate = errors.New("the store's address is a private or loopback address")

// refusePrivate runs on the resolved address of every dial, so a name
// resolving to an internal address is refused too.
func refusePrivate(_, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return err
	}
	ip := net.ParseIP(host)
	if ip == nil || ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() ||
		ip.IsUnspecified() || ip.IsMulticast() || ip.IsInterfaceLocalMulticast() {
		return errPrivate
	}
	return nil
}

// AuthorizeURL implements app.WooCommerce (§1 "Request": all five
// parameters; user_id is the app's own reference, here the one-use state).
func (c *Client) AuthorizeURL(store, state, returnURL, callbackURL string) string {
	q := url.Values{"app_name": {app.WooAppName}, "scope": {app.WooScope}, "user_id": {state},
		"return_url": {returnURL}, "callback_url": {callbackURL}}
	return store + "/wc-auth/v1/authorize?" + q.Encode()
}

// StoreInfo implements app.WooCommerce: the WordPress index (no key
// needed) gives the name and zone (§2 "Timezone": timezone_string, else
// gmt_offset); the currency setting, read with the keys, proves them.
func (c *Client) StoreInfo(ctx context.Context, store string, keys app.WooKeys) (app.WooStoreInfo, error) {
	var index struct {
		Name           string          `json:"name"`
		TimezoneString string          `json:"timezone_string"`
		GMTOffset      json.RawMessage `json:"gmt_offset"`
	}
	if err := c.get(ctx, store+"/wp-json/", nil, &index); err != nil {
		return app.WooStoreInfo{}, fmt.Errorf("wordpress index: %w", err)
	}
	offset, err := gmtOffset(index.GMTOffset)
	if err != nil {
		return app.WooStoreInfo{}, err
	}
	tz, err := domain.WooZone(index.TimezoneString, offset)
	if err != nil {
		return app.WooStoreInfo{}, err
	}
	var currency struct {
		Value string `json:"value"`
	}
	if err := c.get(ctx, store+"/wp-json/wc/v3/settings/general/woocommerce_currency", &keys, &currency); err != nil {
		return app.WooStoreInfo{}, fmt.Errorf("currency: %w", err)
	}
	cur := strings.ToUpper(strings.TrimSpace(currency.Value))
	if len(cur) != 3 {
		return app.WooStoreInfo{}, fmt.Errorf("currency %q is not an ISO 4217 code", currency.Value)
	}
	return app.WooStoreInfo{Name: domain.ClipTitle(strings.TrimSpace(index.Name)), Currency: cur, Timezone: tz}, nil
}

// gmtOffset reads WordPress's gmt_offset, a number or a numeric string.
func gmtOffset(raw json.RawMessage) (float64, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return 0, nil
	}
	var f float64
	if err := json.Unmarshal(raw, &f); err == nil {
		return f, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return 0, fmt.Errorf("gmt_offset %s is not a number", raw)
	}
	if strings.TrimSpace(s) == "" {
		return 0, nil
	}
	var v float64
	if _, err := fmt.Sscan(s, &v); err != nil {
		return 0, fmt.Errorf("gmt_offset %q is not a number", s)
	}
	return v, nil
}

// APIError is a WooCommerce error body (§2: {"code","message","data":{"status"}}).
type APIError struct {
	Status        int
	Code, Message string
}

func (e *APIError) Error() string {
	return fmt.Sprintf("woocommerce %d %s: %s", e.Status, e.Code, e.Message)
}

// get reads one JSON resource; keys go as HTTP Basic (§2 "Auth": what
// WooCommerce takes over HTTPS), never in the URL, which logs keep.
func (c *Client) get(ctx context.Context, u string, keys *app.WooKeys, out any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	if keys != nil {
		req.SetBasicAuth(keys.ConsumerKey, keys.ConsumerSecret)
	}
	res, err := c.http.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(io.LimitReader(res.Body, 8<<20))
	if err != nil {
		return err
	}
	if res.StatusCode != http.StatusOK {
		e := &APIError{Status: res.StatusCode}
		var wc struct{ Code, Message string }
		if json.Unmarshal(body, &wc) == nil {
			e.Code, e.Message = wc.Code, wc.Message
		}
		return e
	}
	if err := json.Unmarshal(body, out); err != nil {
		return fmt.Errorf("%s: not the JSON expected: %w", req.URL.Path, err)
	}
	return nil
}

// Count implements app.WooCommerce: X-WP-Total of a one-item page of a
// list (§2 "Pagination": the header is always sent).
func (c *Client) Count(ctx context.Context, store string, keys app.WooKeys, resource string) (int64, error) {
	_, total, _, err := c.page(ctx, store+"/wp-json/wc/v3/"+resource+"?per_page=1&page=1", keys, nil)
	return total, err
}

// Orders implements app.WooCommerce: every order (trash aside, §2
// "status … any (default, excludes trash)") modified after since, oldest
// change first, 100 a page as the research advises for hosts' limits (§6),
// each with its refunds read from /orders/{id}/refunds when it has any;
// then the orders moved to the trash since (status=trash), which the first
// list leaves out, so the sync can remove them. Progress counts the first
// list.
func (c *Client) Orders(ctx context.Context, store string, keys app.WooKeys, since *time.Time,
	fn func(domain.WooOrder) error, progress func(done, total int64)) error {
	q := url.Values{"per_page": {"100"}, "orderby": {"modified"}, "order": {"asc"}, "dates_are_gmt": {"true"}}
	if since != nil {
		// §2 "Incremental sync": UTC with no offset and dates_are_gmt.
		q.Set("modified_after", since.UTC().Format("2006-01-02T15:04:05"))
	}
	if err := c.orderList(ctx, store, keys, q, true, fn, progress); err != nil {
		return err
	}
	q.Set("status", string(domain.WooTrash))
	return c.orderList(ctx, store, keys, q, false, func(o domain.WooOrder) error {
		o.Status = domain.WooTrash // whatever a plugin says, it came from the trash
		return fn(o)
	}, nil)
}

// orderList reads every page of one order list; with refunds, each order's
// refunds too.
func (c *Client) orderList(ctx context.Context, store string, keys app.WooKeys, q url.Values, refunds bool,
	fn func(domain.WooOrder) error, progress func(done, total int64)) error {
	var done int64
	for page := 1; ; page++ {
		q.Set("page", fmt.Sprint(page))
		var raw []wooOrderJSON
		_, total, pages, err := c.page(ctx, store+"/wp-json/wc/v3/orders?"+q.Encode(), keys, &raw)
		if err != nil {
			return err
		}
		for _, r := range raw {
			o, err := r.order()
			if err != nil {
				return fmt.Errorf("order %d: %w", r.ID, err)
			}
			if refunds && len(r.Refunds) > 0 {
				var refunds []wooRefundJSON
				if _, _, _, err := c.page(ctx, fmt.Sprintf("%s/wp-json/wc/v3/orders/%d/refunds?per_page=100", store, r.ID), keys, &refunds); err != nil {
					return fmt.Errorf("order %d refunds: %w", r.ID, err)
				}
				for _, rf := range refunds {
					wr, err := rf.refund(o.Currency)
					if err != nil {
						return fmt.Errorf("order %d refund %d: %w", r.ID, rf.ID, err)
					}
					o.Refunds = append(o.Refunds, wr)
				}
			}
			if err := fn(o); err != nil {
				return err
			}
			done++
		}
		if progress != nil {
			progress(done, total)
		}
		if page >= pages || len(raw) == 0 {
			return nil
		}
	}
}

// page reads one page of a list with its X-WP-Total and X-WP-TotalPages.
func (c *Client) page(ctx context.Context, u string, keys app.WooKeys, out any) (body []byte, total int64, pages int, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, 0, 0, err
	}
	req.Header.Set("Accept", "application/json")
	req.SetBasicAuth(keys.ConsumerKey, keys.ConsumerSecret)
	res, err := c.http.Do(req)
	if err != nil {
		return nil, 0, 0, err
	}
	defer res.Body.Close()
	body, err = io.ReadAll(io.LimitReader(res.Body, 32<<20))
	if err != nil {
		return nil, 0, 0, err
	}
	if res.StatusCode != http.StatusOK {
		e := &APIError{Status: res.StatusCode}
		var wc struct{ Code, Message string }
		if json.Unmarshal(body, &wc) == nil {
			e.Code, e.Message = wc.Code, wc.Message
		}
		return nil, 0, 0, e
	}
	fmt.Sscan(res.Header.Get("X-WP-Total"), &total)
	fmt.Sscan(res.Header.Get("X-WP-TotalPages"), &pages)
	if out != nil {
		if err := json.Unmarshal(body, out); err != nil {
			return nil, 0, 0, fmt.Errorf("%s: not the JSON expected: %w", req.URL.Path, err)
		}
	}
	return body, total, pages, nil
}
