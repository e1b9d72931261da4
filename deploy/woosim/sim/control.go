package sim

import (
	"net/http"
	"time"

	"uplift.dev/simkit"
)

// The /_control API mirrors the Go API for tools and other languages (the
// web end-to-end tests, make run). Errors are {"error": "..."}.

var ctl = simkit.Control{NotFound: []error{ErrNoStore, ErrNoOrder}, Conflict: []error{ErrExists}}

func (s *Server) ctlHealth(w http.ResponseWriter, _ *http.Request) { ctl.OK(w, http.StatusOK, nil) }

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
			ctl.Error(w, err)
			return
		}
	}
	ctl.OK(w, http.StatusOK, nil)
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
		ctl.Error(w, err)
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
		ctl.Error(w, err)
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
		ctl.Error(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]int64{"id": id})
}

func (s *Server) ctlStatus(w http.ResponseWriter, r *http.Request) {
	id, okID := ctl.PathID(w, r, "id", "order id")
	var body struct {
		Status string    `json:"status"`
		At     time.Time `json:"at"`
	}
	if !okID || !simkit.Decode(w, r, &body) {
		return
	}
	ctl.OK(w, http.StatusOK, s.SetStatus(r.PathValue("store"), id, body.Status, body.At))
}

func (s *Server) ctlRefund(w http.ResponseWriter, r *http.Request) {
	id, okID := ctl.PathID(w, r, "id", "order id")
	var rs RefundSpec
	if !okID || !simkit.Decode(w, r, &rs) {
		return
	}
	rid, err := s.Refund(r.PathValue("store"), id, rs)
	if err != nil {
		ctl.Error(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]int64{"id": rid})
}

func (s *Server) ctlDeleteRefund(w http.ResponseWriter, r *http.Request) {
	id, okID := ctl.PathID(w, r, "id", "order id")
	if !okID {
		return
	}
	rid, okID := ctl.PathID(w, r, "refund", "refund id")
	if !okID {
		return
	}
	ctl.OK(w, http.StatusOK, s.DeleteRefund(r.PathValue("store"), id, rid))
}

// ctlDeleteOrder trashes an order, or with ?force=true deletes it for good.
func (s *Server) ctlDeleteOrder(w http.ResponseWriter, r *http.Request) {
	id, okID := ctl.PathID(w, r, "id", "order id")
	if !okID {
		return
	}
	ctl.OK(w, http.StatusOK, s.DeleteOrder(r.PathValue("store"), id, r.URL.Query().Get("force") == "true"))
}

func (s *Server) ctlProduct(w http.ResponseWriter, r *http.Request) {
	var p ProductSpec
	if !simkit.Decode(w, r, &p) {
		return
	}
	id, err := s.SaveProduct(r.PathValue("store"), p)
	if err != nil {
		ctl.Error(w, err)
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
		ctl.Error(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]int64{"id": id})
}

func (s *Server) ctlFault(w http.ResponseWriter, r *http.Request) {
	f, decoded := simkit.DecodeFault(w, r)
	if !decoded {
		return
	}
	ctl.OK(w, http.StatusOK, s.InjectFault(r.PathValue("store"), f))
}

func (s *Server) ctlRetries(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Retries int `json:"retries"`
	}
	if !simkit.Decode(w, r, &body) {
		return
	}
	ctl.OK(w, http.StatusOK, s.SetWebhookRetries(r.PathValue("store"), body.Retries))
}

func (s *Server) knownStore(w http.ResponseWriter, slug string) bool {
	s.mu.Lock()
	_, found := s.stores[slug]
	s.mu.Unlock()
	if !found {
		ctl.Error(w, ErrNoStore)
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
