package sim

import (
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"uplift.dev/simkit"
)

// The /_sim control API mirrors the Go API for tools and other languages
// (the web end-to-end tests, make run). Errors are {"error": "..."}.

var ctl = simkit.Control{NotFound: []error{ErrNoShop, ErrNoOrder}, Conflict: []error{ErrExists}}

func (s *Server) ctlHealth(w http.ResponseWriter, _ *http.Request) {
	ctl.OK(w, http.StatusOK, nil)
}

// ctlReset forgets everything; {"demo": true} seeds the demo shop again.
func (s *Server) ctlReset(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Demo bool `json:"demo"`
	}
	if r.ContentLength != 0 && !simkit.Decode(w, r, &body) {
		return
	}
	s.mu.Lock()
	s.resetLocked()
	s.mu.Unlock()
	if body.Demo {
		if err := SeedDemo(s, s.now()); err != nil {
			ctl.Error(w, err)
			return
		}
	}
	ctl.OK(w, http.StatusOK, nil)
}

// ctlInstallLink returns the signed install query; with ?app_url= also the full URL.
func (s *Server) ctlInstallLink(w http.ResponseWriter, r *http.Request) {
	domain := r.URL.Query().Get("shop")
	s.mu.Lock()
	_, ok := s.shops[domain]
	s.mu.Unlock()
	if !ok {
		ctl.Error(w, ErrNoShop)
		return
	}
	q := s.InstallLink(domain)
	out := map[string]string{"query": q}
	if app := r.URL.Query().Get("app_url"); app != "" {
		sep := "?"
		if strings.Contains(app, "?") {
			sep = "&"
		}
		out["url"] = app + sep + q
	}
	writeJSON(w, http.StatusOK, out)
}

// ctlCreateShop creates a shop; {"demo": true} gives it the demo shop's
// history (only the domain and name of the spec are used then).
func (s *Server) ctlCreateShop(w http.ResponseWriter, r *http.Request) {
	var body struct {
		ShopSpec
		Demo bool `json:"demo"`
	}
	if !simkit.Decode(w, r, &body) {
		return
	}
	sp := body.ShopSpec
	create := func() error { return s.CreateShop(sp) }
	if body.Demo {
		create = func() error { return SeedDemoAs(s, sp.Domain, sp.Name, s.now()) }
	}
	if err := create(); err != nil {
		ctl.Error(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]string{"domain": sp.Domain})
}

func (s *Server) ctlAddOrder(w http.ResponseWriter, r *http.Request) {
	var o OrderSpec
	if !simkit.Decode(w, r, &o) {
		return
	}
	id, err := s.AddOrder(r.PathValue("shop"), o)
	if err != nil {
		ctl.Error(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]any{"id": id, "admin_graphql_api_id": gid("Order", id)})
}

func (s *Server) ctlRefund(w http.ResponseWriter, r *http.Request) {
	id, ok := ctl.PathID(w, r, "id", "order id")
	var rs RefundSpec
	if !ok || !simkit.Decode(w, r, &rs) {
		return
	}
	ctl.OK(w, http.StatusCreated, s.Refund(r.PathValue("shop"), id, rs))
}

func (s *Server) ctlCancel(w http.ResponseWriter, r *http.Request) {
	id, ok := ctl.PathID(w, r, "id", "order id")
	var body struct {
		At time.Time `json:"at"`
	}
	if !ok || (r.ContentLength != 0 && !simkit.Decode(w, r, &body)) {
		return
	}
	ctl.OK(w, http.StatusOK, s.Cancel(r.PathValue("shop"), id, body.At))
}

func (s *Server) ctlDeleteOrder(w http.ResponseWriter, r *http.Request) {
	id, ok := ctl.PathID(w, r, "id", "order id")
	if !ok {
		return
	}
	ctl.OK(w, http.StatusOK, s.DeleteOrder(r.PathValue("shop"), id))
}

func (s *Server) ctlAddProduct(w http.ResponseWriter, r *http.Request) {
	var body struct {
		ID    int64  `json:"id"`
		Title string `json:"title"`
	}
	if !simkit.Decode(w, r, &body) {
		return
	}
	ctl.OK(w, http.StatusCreated, s.AddProduct(r.PathValue("shop"), body.ID, body.Title))
}

func (s *Server) ctlAddCustomer(w http.ResponseWriter, r *http.Request) {
	var body struct {
		ID int64 `json:"id"`
	}
	if !simkit.Decode(w, r, &body) {
		return
	}
	ctl.OK(w, http.StatusCreated, s.AddCustomer(r.PathValue("shop"), body.ID))
}

type sessionDay struct {
	Day       string `json:"day"`
	Sessions  int64  `json:"sessions"`
	Completed int64  `json:"completed"`
}

// ctlSessions takes one {"day","sessions","completed"} object or a list of them.
func (s *Server) ctlSessions(w http.ResponseWriter, r *http.Request) {
	var raw json.RawMessage
	if !simkit.Decode(w, r, &raw) {
		return
	}
	var days []sessionDay
	if err := json.Unmarshal(raw, &days); err != nil {
		var one sessionDay
		if err := json.Unmarshal(raw, &one); err != nil {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": "body must be {day, sessions, completed} or a list of them"})
			return
		}
		days = []sessionDay{one}
	}
	for _, d := range days {
		if err := s.SetSessions(r.PathValue("shop"), d.Day, d.Sessions, d.Completed); err != nil {
			ctl.Error(w, err)
			return
		}
	}
	ctl.OK(w, http.StatusOK, nil)
}

func (s *Server) ctlFault(w http.ResponseWriter, r *http.Request) {
	f, decoded := simkit.DecodeFault(w, r)
	if !decoded {
		return
	}
	ctl.OK(w, http.StatusOK, s.InjectFault(r.PathValue("shop"), f))
}

func (s *Server) ctlDeliveries(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	_, ok := s.shops[r.PathValue("shop")]
	s.mu.Unlock()
	if !ok {
		ctl.Error(w, ErrNoShop)
		return
	}
	d := s.Deliveries(r.PathValue("shop"))
	if d == nil {
		d = []Delivery{}
	}
	writeJSON(w, http.StatusOK, d)
}

func (s *Server) ctlUninstall(w http.ResponseWriter, r *http.Request) {
	ctl.OK(w, http.StatusOK, s.Uninstall(r.PathValue("shop")))
}

func (s *Server) ctlCompliance(w http.ResponseWriter, r *http.Request) {
	var body struct {
		CustomerID int64   `json:"customerId"`
		OrderIDs   []int64 `json:"orderIds"`
	}
	if r.ContentLength != 0 && !simkit.Decode(w, r, &body) {
		return
	}
	ctl.OK(w, http.StatusOK, s.SendCompliance(r.PathValue("shop"), r.PathValue("topic"), body.CustomerID, body.OrderIDs))
}
