package sim

import (
	"net/http"

	"uplift.dev/simkit"
)

// The /_control API mirrors the Go API for tools and other languages
// (the web end-to-end tests, make run). Errors are {"error": "..."}.

var ctl = simkit.Control{NotFound: []error{ErrNotFound}, Conflict: []error{ErrExists}}

func (s *Server) ctlHealth(w http.ResponseWriter, _ *http.Request) {
	ctl.OK(w, http.StatusOK, nil)
}

// ctlReset forgets everything; {"demo": true} seeds the demo again.
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
	var err error
	if body.Demo {
		err = SeedDemo(s, s.now())
	}
	ctl.OK(w, http.StatusOK, err)
}

func (s *Server) ctlCreateUser(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Email string `json:"email"`
	}
	if simkit.Decode(w, r, &body) {
		ctl.OK(w, http.StatusCreated, s.CreateUser(body.Email))
	}
}

func (s *Server) ctlCreateAccount(w http.ResponseWriter, r *http.Request) {
	var a AccountSpec
	if simkit.Decode(w, r, &a) {
		ctl.OK(w, http.StatusCreated, s.CreateAccount(a))
	}
}

func (s *Server) ctlCreateProperty(w http.ResponseWriter, r *http.Request) {
	var p PropertySpec
	if simkit.Decode(w, r, &p) {
		ctl.OK(w, http.StatusCreated, s.CreateProperty(p))
	}
}

// ctlSetDays takes a list of days for the property.
func (s *Server) ctlSetDays(w http.ResponseWriter, r *http.Request) {
	var days []Day
	if simkit.Decode(w, r, &days) {
		ctl.OK(w, http.StatusOK, s.SetDays(r.PathValue("id"), days))
	}
}

func (s *Server) ctlQuality(w http.ResponseWriter, r *http.Request) {
	var q Quality
	if simkit.Decode(w, r, &q) {
		ctl.OK(w, http.StatusOK, s.SetQuality(r.PathValue("id"), q))
	}
}

// ctlExhaust spends one of the property's quotas ({"quota": "tokensPerDay"}
// by default) until its window rolls over.
func (s *Server) ctlExhaust(w http.ResponseWriter, r *http.Request) {
	body := struct {
		Quota string `json:"quota"`
	}{Quota: "tokensPerDay"}
	if r.ContentLength != 0 && !simkit.Decode(w, r, &body) {
		return
	}
	ctl.OK(w, http.StatusOK, s.ExhaustQuota(r.PathValue("id"), body.Quota))
}

func (s *Server) ctlFail(w http.ResponseWriter, r *http.Request) {
	var f Failure
	if simkit.Decode(w, r, &f) {
		ctl.OK(w, http.StatusOK, s.FailNext(f))
	}
}

func (s *Server) ctlExpireTokens(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]int{"expired": s.ExpireTokens()})
}
