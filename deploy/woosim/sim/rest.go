package sim

import (
	"cmp"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// criticalError is WordPress's answer when PHP dies inside a REST request.
const criticalError = "<p>There has been a critical error on this website.</p><p><a href=\"https://wordpress.org/documentation/article/faq-troubleshooting/\">Learn more about troubleshooting WordPress.</a></p>"

// wpError is a WP_Error as the REST server renders it: {code, message, data: {status}}.
type wpError struct {
	status        int
	code, message string
}

func wcError(w http.ResponseWriter, status int, code, message string) {
	writeJSON(w, status, map[string]any{"code": code, "message": message, "data": map[string]any{"status": status}})
}

func (e *wpError) write(w http.ResponseWriter) { wcError(w, e.status, e.code, e.message) }

// invalidParam is rest_invalid_param, which names each bad parameter in data.params.
func invalidParam(w http.ResponseWriter, name, why string) {
	writeJSON(w, http.StatusBadRequest, map[string]any{"code": "rest_invalid_param", "message": "Invalid parameter(s): " + name,
		"data": map[string]any{"status": 400, "params": map[string]string{name: why}, "details": map[string]any{}}})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

var noRoute = &wpError{http.StatusNotFound, "rest_no_route", "No route was found matching the URL and request method."}

// handleHome answers the store's front page with the REST API discovery
// link WordPress sends, so a client can find /wp-json/ from the store URL,
// and serves ?rest_route= as WordPress does on sites with plain permalinks.
func (s *Server) handleHome(w http.ResponseWriter, r *http.Request) {
	slug := r.PathValue("store")
	s.mu.Lock()
	st, ok := s.stores[slug]
	home := s.homeLocked(slug)
	s.mu.Unlock()
	if !ok {
		http.NotFound(w, r)
		return
	}
	if route := r.URL.Query().Get("rest_route"); route != "" {
		r2 := r.Clone(r.Context())
		r2.URL.Path = "/" + slug + "/wp-json" + route
		if route == "/" {
			r2.URL.Path = "/" + slug + "/wp-json/"
		}
		s.handler.ServeHTTP(w, r2)
		return
	}
	w.Header().Set("Link", "<"+home+"/wp-json/>; rel=\"https://api.w.org/\"")
	w.Header().Set("Content-Type", "text/html; charset=UTF-8")
	fmt.Fprintf(w, "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>%s</title></head><body><h1>%s</h1></body></html>", st.spec.Name, st.spec.Name)
}

// handleIndex is WordPress's unauthenticated REST index: the site's name,
// URLs and time zone (timezone_string, empty for a manual offset, and gmt_offset).
func (s *Server) handleIndex(w http.ResponseWriter, r *http.Request) {
	slug := r.PathValue("store")
	s.mu.Lock()
	defer s.mu.Unlock()
	st, ok := s.stores[slug]
	if !ok {
		http.NotFound(w, r)
		return
	}
	tzString := st.spec.Timezone
	if manualOffsetRE.MatchString(tzString) {
		tzString = ""
	}
	_, off := s.now().In(st.loc).Zone()
	home := s.homeLocked(slug)
	writeJSON(w, http.StatusOK, map[string]any{
		"name": st.spec.Name, "description": "", "url": home, "home": home,
		"gmt_offset": float64(off) / 3600, "timezone_string": tzString,
		"namespaces":     []string{"oembed/1.0", "wc/v1", "wc/v2", "wc/v3", "wc/store/v1", "wc-analytics", "wp/v2"},
		"authentication": map[string]any{},
		"routes":         map[string]any{},
	})
}

var orderStatusParam = []string{"any", "trash", "pending", "processing", "on-hold", "completed", "cancelled", "refunded", "failed", "checkout-draft"}

// handleREST serves /wp-json/wc/v3/...: it applies faults, authenticates,
// then routes.
func (s *Server) handleREST(w http.ResponseWriter, r *http.Request) {
	slug := r.PathValue("store")
	s.mu.Lock()
	st, ok := s.stores[slug]
	if !ok {
		s.mu.Unlock()
		http.NotFound(w, r)
		return
	}
	slow, fail5, fail429 := st.faults.Take("slow"), st.faults.Take("5xx"), (*Fault)(nil)
	if fail5 == nil {
		fail429 = st.faults.Take("429")
	}
	s.mu.Unlock()
	if slow != nil && !slow.Stall(r.Context()) {
		return
	}
	if fail5 != nil {
		wcError(w, http.StatusInternalServerError, "internal_server_error", criticalError)
		return
	}
	if fail429 != nil {
		// What hosts and WAFs in front of WordPress answer; core has no limit.
		ra := "2"
		if fail429.Delay > 0 {
			ra = strconv.Itoa(int(fail429.Delay.Round(time.Second) / time.Second))
		}
		w.Header().Set("Retry-After", ra)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(http.StatusTooManyRequests)
		fmt.Fprint(w, "<html><head><title>429 Too Many Requests</title></head><body><h1>Too Many Requests</h1></body></html>")
		return
	}
	if r.Method == http.MethodPost || r.Method == http.MethodPut || r.Method == http.MethodPatch {
		r.Body = http.MaxBytesReader(w, r.Body, 1<<20)
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	key, werr := s.authenticateLocked(st, r)
	if werr != nil {
		werr.write(w)
		return
	}
	parts := strings.Split(strings.Trim(r.PathValue("route"), "/"), "/")
	h, id, sub := s.route(r.Method, parts)
	if h == nil {
		noRoute.write(w)
		return
	}
	if key == nil {
		visitorRefused(r.Method, id != 0 || len(parts) > 2).write(w)
		return
	}
	h(&call{s: s, st: st, w: w, r: r, id: id, sub: sub})
}

// visitorRefused is what each controller's permission check answers a
// request that carries no key.
func visitorRefused(method string, one bool) *wpError {
	switch {
	case method == http.MethodPost:
		return &wpError{http.StatusUnauthorized, "woocommerce_rest_cannot_create", "Sorry, you are not allowed to create resources."}
	case method == http.MethodPut || method == http.MethodPatch:
		return &wpError{http.StatusUnauthorized, "woocommerce_rest_cannot_edit", "Sorry, you are not allowed to edit this resource."}
	case method == http.MethodDelete:
		return &wpError{http.StatusUnauthorized, "woocommerce_rest_cannot_delete", "Sorry, you are not allowed to delete this resource."}
	case one:
		return &wpError{http.StatusUnauthorized, "woocommerce_rest_cannot_view", "Sorry, you cannot view this resource."}
	}
	return &wpError{http.StatusUnauthorized, "woocommerce_rest_cannot_view", "Sorry, you cannot list resources."}
}

// call is one authenticated REST request, handled with the server's lock held.
type call struct {
	s   *Server
	st  *store
	w   http.ResponseWriter
	r   *http.Request
	id  int64
	sub int64 // the refund of orders/{id}/refunds/{sub}
}

type handler func(*call)

func (s *Server) route(method string, p []string) (handler, int64, int64) {
	num := func(i int) int64 {
		if i >= len(p) {
			return -1
		}
		n, err := strconv.ParseInt(p[i], 10, 64)
		if err != nil || n <= 0 {
			return -1
		}
		return n
	}
	get := method == http.MethodGet || method == http.MethodHead
	switch {
	case get && len(p) == 1 && p[0] == "orders":
		return (*call).listOrders, 0, 0
	case get && len(p) == 2 && p[0] == "orders" && num(1) > 0:
		return (*call).getOrder, num(1), 0
	case get && len(p) == 3 && p[0] == "orders" && num(1) > 0 && p[2] == "refunds":
		return (*call).listOrderRefunds, num(1), 0
	case get && len(p) == 4 && p[0] == "orders" && num(1) > 0 && p[2] == "refunds" && num(3) > 0:
		return (*call).getRefund, num(1), num(3)
	case get && len(p) == 1 && p[0] == "refunds":
		return (*call).listRefunds, 0, 0
	case get && len(p) == 1 && p[0] == "products":
		return (*call).listProducts, 0, 0
	case get && len(p) == 2 && p[0] == "products" && num(1) > 0:
		return (*call).getProduct, num(1), 0
	case get && len(p) == 1 && p[0] == "customers":
		return (*call).listCustomers, 0, 0
	case get && len(p) == 2 && p[0] == "customers" && num(1) > 0:
		return (*call).getCustomer, num(1), 0
	case get && len(p) == 2 && p[0] == "settings" && p[1] == "general":
		return (*call).listSettings, 0, 0
	case get && len(p) == 3 && p[0] == "settings" && p[1] == "general":
		return (*call).getSetting, 0, 0
	case get && len(p) == 3 && p[0] == "data" && p[1] == "currencies" && p[2] == "current":
		return (*call).currentCurrency, 0, 0
	case len(p) == 1 && p[0] == "webhooks" && (get || method == http.MethodPost):
		if get {
			return (*call).listWebhooks, 0, 0
		}
		return (*call).createWebhook, 0, 0
	case len(p) == 2 && p[0] == "webhooks" && num(1) > 0:
		switch method {
		case http.MethodGet, http.MethodHead:
			return (*call).getWebhook, num(1), 0
		case http.MethodPut, http.MethodPatch, http.MethodPost:
			return (*call).updateWebhook, num(1), 0
		case http.MethodDelete:
			return (*call).deleteWebhook, num(1), 0
		}
	}
	return nil, 0, 0
}

// listQuery is the collection parameters every v3 list shares.
type listQuery struct {
	page, perPage, offset int
	asc                   bool
	orderby               string
	after, before         time.Time // created
	modAfter, modBefore   time.Time
	gmt                   bool
	include               map[int64]bool
}

var isoDateRE = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:?\d{2})?$`)

// parseList validates the shared parameters; it writes the 400 and returns
// false on a bad one. orderbys are the route's allowed values.
func (c *call) parseList(orderbys ...string) (listQuery, bool) {
	q := c.r.URL.Query()
	lq := listQuery{page: 1, perPage: 10, orderby: orderbys[0]}
	ints := []struct {
		name     string
		dst      *int
		min, max int
	}{{"page", &lq.page, 1, 1 << 30}, {"per_page", &lq.perPage, 1, 100}, {"offset", &lq.offset, 0, 1 << 30}}
	for _, p := range ints {
		if v := q.Get(p.name); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil {
				invalidParam(c.w, p.name, p.name+" is not of type integer.")
				return lq, false
			}
			if n < p.min || n > p.max {
				why := fmt.Sprintf("%s must be greater than or equal to %d", p.name, p.min)
				if p.name == "per_page" {
					why = "per_page must be between 1 (inclusive) and 100 (inclusive)"
				}
				invalidParam(c.w, p.name, why)
				return lq, false
			}
			*p.dst = n
		}
	}
	switch q.Get("order") {
	case "", "desc":
	case "asc":
		lq.asc = true
	default:
		invalidParam(c.w, "order", "order is not one of asc and desc.")
		return lq, false
	}
	if v := q.Get("orderby"); v != "" {
		if !slices.Contains(orderbys, v) {
			invalidParam(c.w, "orderby", "orderby is not one of "+strings.Join(orderbys, ", ")+".")
			return lq, false
		}
		lq.orderby = v
	}
	switch q.Get("dates_are_gmt") {
	case "", "false", "0":
	case "true", "1":
		lq.gmt = true
	default:
		invalidParam(c.w, "dates_are_gmt", "dates_are_gmt is not of type boolean.")
		return lq, false
	}
	loc := c.st.loc
	if lq.gmt {
		loc = time.UTC
	}
	for _, d := range []struct {
		name string
		dst  *time.Time
	}{{"after", &lq.after}, {"before", &lq.before}, {"modified_after", &lq.modAfter}, {"modified_before", &lq.modBefore}} {
		v := q.Get(d.name)
		if v == "" {
			continue
		}
		t, ok := parseDate(v, loc)
		if !ok {
			invalidParam(c.w, d.name, "Invalid date.")
			return lq, false
		}
		*d.dst = t
	}
	if v := listParam(q, "include"); len(v) > 0 {
		lq.include = map[int64]bool{}
		for _, x := range v {
			n, err := strconv.ParseInt(x, 10, 64)
			if err != nil {
				invalidParam(c.w, "include", "include[0] is not of type integer.")
				return lq, false
			}
			lq.include[n] = true
		}
	}
	return lq, true
}

// parseDate reads a REST date: without an offset it is in loc (the site's
// zone, or UTC with dates_are_gmt); with one, that instant.
func parseDate(v string, loc *time.Location) (time.Time, bool) {
	if !isoDateRE.MatchString(v) {
		return time.Time{}, false
	}
	v = strings.Replace(strings.Replace(v, " ", "T", 1), "t", "T", 1)
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05Z0700"} {
		if t, err := time.Parse(layout, strings.Replace(v, "z", "Z", 1)); err == nil {
			return t, true
		}
	}
	t, err := time.ParseInLocation("2006-01-02T15:04:05.999999999", v, loc)
	return t, err == nil
}

// listParam reads an array parameter sent as a comma list or as name[]=.
func listParam(q url.Values, name string) []string {
	var out []string
	for _, v := range append(q[name], q[name+"[]"]...) {
		for x := range strings.SplitSeq(v, ",") {
			if x = strings.TrimSpace(x); x != "" {
				out = append(out, x)
			}
		}
	}
	return out
}

// inDates applies the created and modified windows (both ends exclusive).
func (lq listQuery) inDates(created, modified time.Time) bool {
	return (lq.after.IsZero() || created.After(lq.after)) && (lq.before.IsZero() || created.Before(lq.before)) &&
		(lq.modAfter.IsZero() || modified.After(lq.modAfter)) && (lq.modBefore.IsZero() || modified.Before(lq.modBefore))
}

// item is one row of a collection with what it may be sorted by.
type item struct {
	id                int64
	created, modified time.Time
	title             string
	render            func() any
}

// page sorts, pages and writes a collection with WordPress's headers:
// X-WP-Total, X-WP-TotalPages and a Link with prev and next.
func (c *call) page(lq listQuery, items []item) {
	if lq.include != nil {
		items = slices.DeleteFunc(items, func(it item) bool { return !lq.include[it.id] })
	}
	less := func(a, b item) int {
		var d int
		switch lq.orderby {
		case "date":
			d = a.created.Compare(b.created)
		case "modified":
			d = a.modified.Compare(b.modified)
		case "title", "slug", "name":
			d = strings.Compare(a.title, b.title)
		}
		if d == 0 { // WooCommerce appends the id as a tie-break
			d = cmp.Compare(a.id, b.id)
		}
		if !lq.asc {
			d = -d
		}
		return d
	}
	sort.SliceStable(items, func(i, j int) bool { return less(items[i], items[j]) < 0 })
	total := len(items)
	pages := (total + lq.perPage - 1) / lq.perPage
	start := lq.offset
	if start == 0 {
		start = (lq.page - 1) * lq.perPage
	}
	out := []any{}
	for i := start; i < total && i < start+lq.perPage; i++ {
		out = append(out, items[i].render())
	}
	h := c.w.Header()
	// WordPress's spelling, kept out of Go's canonical X-Wp-Total
	h["X-WP-Total"] = []string{strconv.Itoa(total)}
	h["X-WP-TotalPages"] = []string{strconv.Itoa(pages)}
	var links []string
	link := func(p int, rel string) {
		u := *c.r.URL
		q := u.Query()
		q.Set("page", strconv.Itoa(p))
		q.Del("consumer_key") // WordPress's links never carry credentials
		q.Del("consumer_secret")
		u.RawQuery = q.Encode()
		links = append(links, fmt.Sprintf("<%s%s>; rel=\"%s\"", c.s.baseURL, u.RequestURI(), rel))
	}
	if lq.page > 1 {
		link(min(lq.page-1, max(pages, 1)), "prev")
	}
	if lq.page < pages {
		link(lq.page+1, "next")
	}
	if len(links) > 0 {
		h.Set("Link", strings.Join(links, ", "))
	}
	writeJSON(c.w, http.StatusOK, out)
}

func (c *call) listOrders() {
	lq, ok := c.parseList("date", "id", "include", "title", "slug", "modified")
	if !ok {
		return
	}
	q := c.r.URL.Query()
	statuses := listParam(q, "status")
	for i, v := range statuses {
		if !slices.Contains(orderStatusParam, v) {
			invalidParam(c.w, "status", fmt.Sprintf("status[%d] is not one of %s.", i, strings.Join(orderStatusParam, ", ")))
			return
		}
	}
	if len(statuses) == 0 {
		statuses = []string{"any"}
	}
	var customer int64 = -1
	if v := q.Get("customer"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			invalidParam(c.w, "customer", "customer is not of type integer.")
			return
		}
		customer = n
	}
	loc := c.st.loc
	var items []item
	for _, od := range c.st.orders {
		want := slices.Contains(statuses, od.status) || (slices.Contains(statuses, "any") && od.status != "trash")
		if !want || (customer >= 0 && od.customerID != customer) || !lq.inDates(od.createdAt, od.modifiedAt) {
			continue
		}
		items = append(items, item{id: od.id, created: od.createdAt, modified: od.modifiedAt, title: strconv.FormatInt(od.id, 10),
			render: func() any { return c.s.orderJSON(c.st, od, loc) }})
	}
	c.page(lq, items)
}

func (c *call) order() *order {
	od, ok := c.st.orders[c.id]
	if !ok {
		wcError(c.w, http.StatusNotFound, "woocommerce_rest_shop_order_invalid_id", "Invalid ID.")
		return nil
	}
	return od
}

func (c *call) getOrder() {
	if od := c.order(); od != nil {
		writeJSON(c.w, http.StatusOK, c.s.orderJSON(c.st, od, c.st.loc))
	}
}

func (c *call) listOrderRefunds() {
	od := c.order()
	if od == nil {
		return
	}
	lq, ok := c.parseList("date", "id", "include", "title", "slug", "modified")
	if !ok {
		return
	}
	var items []item
	for _, rf := range od.refunds {
		if lq.inDates(rf.createdAt, rf.createdAt) {
			items = append(items, item{id: rf.id, created: rf.createdAt, modified: rf.createdAt,
				render: func() any { return refundJSON(od, rf, c.st.loc, false) }})
		}
	}
	c.page(lq, items)
}

func (c *call) getRefund() {
	od := c.order()
	if od == nil {
		return
	}
	for _, rf := range od.refunds {
		if rf.id == c.sub {
			writeJSON(c.w, http.StatusOK, refundJSON(od, rf, c.st.loc, false))
			return
		}
	}
	wcError(c.w, http.StatusNotFound, "woocommerce_rest_shop_order_refund_invalid_id", "Invalid ID.")
}

// listRefunds is WooCommerce 9.0's /refunds: every refund of every order, with parent_id.
func (c *call) listRefunds() {
	lq, ok := c.parseList("date", "id", "include", "title", "slug", "modified")
	if !ok {
		return
	}
	var items []item
	for _, od := range c.st.orders {
		if od.status == "trash" {
			continue
		}
		for _, rf := range od.refunds {
			if lq.inDates(rf.createdAt, rf.createdAt) {
				items = append(items, item{id: rf.id, created: rf.createdAt, modified: rf.createdAt,
					render: func() any { return refundJSON(od, rf, c.st.loc, true) }})
			}
		}
	}
	c.page(lq, items)
}

func (c *call) listProducts() {
	lq, ok := c.parseList("date", "id", "include", "title", "slug", "modified", "price", "popularity", "rating", "menu_order")
	if !ok {
		return
	}
	q := c.r.URL.Query()
	status := q.Get("status")
	if status == "" {
		status = "any"
	}
	if !slices.Contains([]string{"any", "future", "trash", "draft", "pending", "private", "publish"}, status) {
		invalidParam(c.w, "status", "status is not one of any, future, trash, draft, pending, private and publish.")
		return
	}
	typ, sku := q.Get("type"), q.Get("sku")
	var items []item
	for _, p := range c.st.products {
		if (status != "any" && p.spec.Status != status) || (typ != "" && typ != "simple") || (sku != "" && !slices.Contains(strings.Split(sku, ","), p.spec.SKU)) ||
			!lq.inDates(p.createdAt, p.updatedAt) {
			continue
		}
		items = append(items, item{id: p.spec.ID, created: p.createdAt, modified: p.updatedAt, title: p.spec.Name,
			render: func() any { return c.s.productJSON(c.st, p) }})
	}
	c.page(lq, items)
}

func (c *call) getProduct() {
	p, ok := c.st.products[c.id]
	if !ok {
		wcError(c.w, http.StatusNotFound, "woocommerce_rest_product_invalid_id", "Invalid ID.")
		return
	}
	writeJSON(c.w, http.StatusOK, c.s.productJSON(c.st, p))
}

func (c *call) listCustomers() {
	lq, ok := c.parseList("name", "id", "include", "registered_date")
	if !ok {
		return
	}
	if lq.orderby == "registered_date" {
		lq.orderby = "date"
	}
	if c.r.URL.Query().Get("order") == "" {
		lq.asc = true // customers, unlike posts, list by name from A
	}
	role := c.r.URL.Query().Get("role")
	if role != "" && role != "all" && role != "customer" {
		// Only customers are simulated: any other role lists nobody.
		c.page(lq, nil)
		return
	}
	var items []item
	for _, cu := range c.st.customers {
		if lq.inDates(cu.createdAt, cu.updatedAt) {
			items = append(items, item{id: cu.id, created: cu.createdAt, modified: cu.updatedAt, title: fmt.Sprintf("Customer %06d", cu.id),
				render: func() any { return c.s.customerJSON(c.st, cu) }})
		}
	}
	c.page(lq, items)
}

func (c *call) getCustomer() {
	cu, ok := c.st.customers[c.id]
	if !ok {
		wcError(c.w, http.StatusNotFound, "woocommerce_rest_invalid_id", "Invalid resource ID.")
		return
	}
	writeJSON(c.w, http.StatusOK, c.s.customerJSON(c.st, cu))
}

func (c *call) settings() []map[string]any {
	sp := c.st.spec
	opt := func(id, label, typ, def, value string) map[string]any {
		return map[string]any{"id": id, "label": label, "description": "", "type": typ, "default": def, "tip": "", "value": value, "group_id": "general"}
	}
	return []map[string]any{
		opt("woocommerce_store_address", "Address line 1", "text", "", "1 Leaf Lane"),
		opt("woocommerce_default_country", "Country / State", "select", "US:CA", "US:NY"),
		opt("woocommerce_currency", "Currency", "select", "USD", sp.Currency),
		opt("woocommerce_currency_pos", "Currency position", "select", "left", "left"),
		opt("woocommerce_price_thousand_sep", "Thousand separator", "text", ",", ","),
		opt("woocommerce_price_decimal_sep", "Decimal separator", "text", ".", "."),
		opt("woocommerce_price_num_decimals", "Number of decimals", "number", "2", "2"),
		opt("woocommerce_calc_taxes", "Enable tax rates and calculations", "checkbox", "no", map[bool]string{true: "yes", false: "no"}[sp.TaxPercent > 0]),
	}
}

func (c *call) listSettings() { writeJSON(c.w, http.StatusOK, c.settings()) }

func (c *call) getSetting() {
	id := strings.Split(strings.Trim(c.r.PathValue("route"), "/"), "/")[2]
	for _, o := range c.settings() {
		if o["id"] == id {
			writeJSON(c.w, http.StatusOK, o)
			return
		}
	}
	wcError(c.w, http.StatusNotFound, "rest_setting_setting_invalid", "Invalid setting.")
}

var currencyNames = map[string][2]string{"USD": {"United States (US) dollar", "&#36;"}, "GBP": {"Pound sterling", "&pound;"}, "EUR": {"Euro", "&euro;"}}

func (c *call) currentCurrency() {
	cur := c.st.spec.Currency
	n, ok := currencyNames[cur]
	if !ok {
		n = [2]string{cur, cur}
	}
	writeJSON(c.w, http.StatusOK, map[string]string{"code": cur, "name": n[0], "symbol": n[1]})
}
