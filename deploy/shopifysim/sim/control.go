package sim

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"uplift.dev/simkit"
)

// The /_sim control API mirrors the Go API for tools and other languages
// (the web end-to-end tests, make run). Errors are {"error": "..."}.

func ctlError(w http.ResponseWriter, err error) {
	status := http.StatusBadRequest
	if errors.Is(err, ErrNoShop) || errors.Is(err, ErrNoOrder) {
		status = http.StatusNotFound
	} else if errors.Is(err, ErrExists) {
		status = http.StatusConflict
	}
	writeJSON(w, status, map[string]string{"error": err.Error()})
}

func pathOrderID(w http.ResponseWriter, r *http.Request) (int64, bool) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "order id must be a number"})
		return 0, false
	}
	return id, true
}

func (s *Server) ctlHealth(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
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
			ctlError(w, err)
			return
		}
	}
	writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
}

// ctlInstallLink returns the signed install query; with ?app_url= also the full URL.
func (s *Server) ctlInstallLink(w http.ResponseWriter, r *http.Request) {
	domain := r.URL.Query().Get("shop")
	s.mu.Lock()
	_, ok := s.shops[domain]
	s.mu.Unlock()
	if !ok {
		ctlError(w, ErrNoShop)
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
		ctlError(w, err)
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
		ctlError(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]any{"id": id, "admin_graphql_api_id": gid("Order", id)})
}

func (s *Server) ctlRefund(w http.ResponseWriter, r *http.Request) {
	id, ok := pathOrderID(w, r)
	var rs RefundSpec
	if !ok || !simkit.Decode(w, r, &rs) {
		return
	}
	if err := s.Refund(r.PathValue("shop"), id, rs); err != nil {
		ctlError(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]bool{"ok": true})
}

func (s *Server) ctlCancel(w http.ResponseWriter, r *http.Request) {
	id, ok := pathOrderID(w, r)
	var body struct {
		At time.Time `json:"at"`
	}
	if !ok || (r.ContentLength != 0 && !simkit.Decode(w, r, &body)) {
		return
	}
	if err := s.Cancel(r.PathValue("shop"), id, body.At); err != nil {
		ctlError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
}

func (s *Server) ctlDeleteOrder(w http.ResponseWriter, r *http.Request) {
	id, ok := pathOrderID(w, r)
	if !ok {
		return
	}
	if err := s.DeleteOrder(r.PathValue("shop"), id); err != nil {
		ctlError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
}

func (s *Server) ctlAddProduct(w http.ResponseWriter, r *http.Request) {
	var body struct {
		ID    int64  `json:"id"`
		Title string `json:"title"`
	}
	if !simkit.Decode(w, r, &body) {
		return
	}
	if err := s.AddProduct(r.PathValue("shop"), body.ID, body.Title); err != nil {
		ctlError(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]bool{"ok": true})
}

func (s *Server) ctlAddCustomer(w http.ResponseWriter, r *http.Request) {
	var body struct {
		ID int64 `json:"id"`
	}
	if !simkit.Decode(w, r, &body) {
		return
	}
	if err := s.AddCustomer(r.PathValue("shop"), body.ID); err != nil {
		ctlError(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]bool{"ok": true})
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
			ctlError(w, err)
			return
		}
	}
	writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
}

func (s *Server) ctlFault(w http.ResponseWriter, r *http.Request) {
	f, decoded := simkit.DecodeFault(w, r)
	if !decoded {
		return
	}
	if err := s.InjectFault(r.PathValue("shop"), f); err != nil {
		ctlError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
}

func (s *Server) ctlDeliveries(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	_, ok := s.shops[r.PathValue("shop")]
	s.mu.Unlock()
	if !ok {
		ctlError(w, ErrNoShop)
		return
	}
	d := s.Deliveries(r.PathValue("shop"))
	if d == nil {
		d = []Delivery{}
	}
	writeJSON(w, http.StatusOK, d)
}

func (s *Server) ctlUninstall(w http.ResponseWriter, r *http.Request) {
	if err := s.Uninstall(r.PathValue("shop")); err != nil {
		ctlError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
}

func (s *Server) ctlCompliance(w http.ResponseWriter, r *http.Request) {
	var body struct {
		CustomerID int64   `json:"customerId"`
		OrderIDs   []int64 `json:"orderIds"`
	}
	if r.ContentLength != 0 && !simkit.Decode(w, r, &body) {
		return
	}
	if err := s.SendCompliance(r.PathValue("shop"), r.PathValue("topic"), body.CustomerID, body.OrderIDs); err != nil {
		ctlError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
}
