package sim

import (
	"errors"
	"net/http"
	"strconv"
	"time"

	"uplift.dev/simkit"
)

// The /_control API mirrors the Go API for tools and other languages (the
// web end-to-end tests, make run). Errors are {"error": "..."}.

func ctlError(w http.ResponseWriter, err error) {
	status := http.StatusBadRequest
	if errors.Is(err, ErrNoStore) || errors.Is(err, ErrNoOrder) {
		status = http.StatusNotFound
	} else if errors.Is(err, ErrExists) {
		status = http.StatusConflict
	}
	writeJSON(w, status, map[string]string{"error": err.Error()})
}

func pathID(w http.ResponseWriter, r *http.Request) (int64, bool) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "order id must be a number"})
		return 0, false
	}
	return id, true
}

func ok(w http.ResponseWriter, status int) { writeJSON(w, status, map[string]bool{"ok": true}) }

func (s *Server) ctlHealth(w http.ResponseWriter, _ *http.Request) { ok(w, http.StatusOK) }

// ctlReset forgets every store; {"demo": true} seeds the demo store again.
func (s *Server) ctlReset(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Demo bool `json:"demo"`
	}
	if r.ContentLength != 0 && !simkit.Decode(w, r, &body) {
		return
	}
	s.mu.Lock()
	s.stores = map[string]*store{}
	s.mu.Unlock()
	if body.Demo {
		if err := SeedDemo(s, s.now()); err != nil {
			ctlError(w, err)
			return
		}
	}
	ok(w, http.StatusOK)
}

// ctlCreateStore creates a store; {"demo": true} gives it the demo store's
// history (only the slug and name of the spec are used then).
func (s *Server) ctlCreateStore(w http.ResponseWriter, r *http.Request) {
	var body struct {
		StoreSpec
		Demo bool `json:"demo"`
	}
	if !simkit.Decode(w, r, &body) {
		return
	}
	create := func() error { return s.CreateStore(body.StoreSpec) }
	if body.Demo {
		create = func() error { return SeedDemoAs(s, body.Slug, body.Name, s.now()) }
	}
	if err := create(); err != nil {
		ctlError(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]string{"slug": body.Slug, "url": s.StoreURL(body.Slug)})
}

// ctlKey mints an API key without the authorize flow, for tests that are not about it.
func (s *Server) ctlKey(w http.ResponseWriter, r *http.Request) {
	var body struct {
		AppName     string `json:"appName"`
		UserID      string `json:"userId"`
		Permissions string `json:"permissions"`
	}
	if !simkit.Decode(w, r, &body) {
		return
	}
	if body.AppName == "" {
		body.AppName = "Test app"
	}
	k, err := s.IssueKey(r.PathValue("store"), body.AppName, body.UserID, body.Permissions)
	if err != nil {
		ctlError(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, k)
}

func (s *Server) ctlAddOrder(w http.ResponseWriter, r *http.Request) {
	var o OrderSpec
	if !simkit.Decode(w, r, &o) {
		return
	}
	id, err := s.AddOrder(r.PathValue("store"), o)
	if err != nil {
		ctlError(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]int64{"id": id})
}

func (s *Server) ctlStatus(w http.ResponseWriter, r *http.Request) {
	id, okID := pathID(w, r)
	var body struct {
		Status string    `json:"status"`
		At     time.Time `json:"at"`
	}
	if !okID || !simkit.Decode(w, r, &body) {
		return
	}
	if err := s.SetStatus(r.PathValue("store"), id, body.Status, body.At); err != nil {
		ctlError(w, err)
		return
	}
	ok(w, http.StatusOK)
}

func (s *Server) ctlRefund(w http.ResponseWriter, r *http.Request) {
	id, okID := pathID(w, r)
	var rs RefundSpec
	if !okID || !simkit.Decode(w, r, &rs) {
		return
	}
	rid, err := s.Refund(r.PathValue("store"), id, rs)
	if err != nil {
		ctlError(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]int64{"id": rid})
}

func (s *Server) ctlDeleteRefund(w http.ResponseWriter, r *http.Request) {
	id, okID := pathID(w, r)
	rid, err := strconv.ParseInt(r.PathValue("refund"), 10, 64)
	if !okID {
		return
	}
	if err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "refund id must be a number"})
		return
	}
	if err := s.DeleteRefund(r.PathValue("store"), id, rid); err != nil {
		ctlError(w, err)
		return
	}
	ok(w, http.StatusOK)
}

// ctlDeleteOrder trashes an order, or with ?force=true deletes it for good.
func (s *Server) ctlDeleteOrder(w http.ResponseWriter, r *http.Request) {
	id, okID := pathID(w, r)
	if !okID {
		return
	}
	if err := s.DeleteOrder(r.PathValue("store"), id, r.URL.Query().Get("force") == "true"); err != nil {
		ctlError(w, err)
		return
	}
	ok(w, http.StatusOK)
}

func (s *Server) ctlProduct(w http.ResponseWriter, r *http.Request) {
	var p ProductSpec
	if !simkit.Decode(w, r, &p) {
		return
	}
	id, err := s.SaveProduct(r.PathValue("store"), p)
	if err != nil {
		ctlError(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]int64{"id": id})
}

func (s *Server) ctlCustomer(w http.ResponseWriter, r *http.Request) {
	var body struct {
		CreatedAt time.Time `json:"createdAt"`
	}
	if r.ContentLength != 0 && !simkit.Decode(w, r, &body) {
		return
	}
	id, err := s.AddCustomer(r.PathValue("store"), body.CreatedAt)
	if err != nil {
		ctlError(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]int64{"id": id})
}

func (s *Server) ctlFault(w http.ResponseWriter, r *http.Request) {
	f, decoded := simkit.DecodeFault(w, r)
	if !decoded {
		return
	}
	if err := s.InjectFault(r.PathValue("store"), f); err != nil {
		ctlError(w, err)
		return
	}
	ok(w, http.StatusOK)
}

func (s *Server) ctlRetries(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Retries int `json:"retries"`
	}
	if !simkit.Decode(w, r, &body) {
		return
	}
	if err := s.SetWebhookRetries(r.PathValue("store"), body.Retries); err != nil {
		ctlError(w, err)
		return
	}
	ok(w, http.StatusOK)
}

func (s *Server) knownStore(w http.ResponseWriter, slug string) bool {
	s.mu.Lock()
	_, found := s.stores[slug]
	s.mu.Unlock()
	if !found {
		ctlError(w, ErrNoStore)
	}
	return found
}

func (s *Server) ctlWebhooks(w http.ResponseWriter, r *http.Request) {
	if s.knownStore(w, r.PathValue("store")) {
		writeJSON(w, http.StatusOK, s.Webhooks(r.PathValue("store")))
	}
}

func (s *Server) ctlDeliveries(w http.ResponseWriter, r *http.Request) {
	if !s.knownStore(w, r.PathValue("store")) {
		return
	}
	d := s.Deliveries(r.PathValue("store"))
	if d == nil {
		d = []Delivery{}
	}
	writeJSON(w, http.StatusOK, d)
}
