package sim

import (
	"errors"
	"net/http"

	"uplift.dev/simkit"
)

// The /_control API mirrors the Go API for tools and other languages
// (the web end-to-end tests, make run). Errors are {"error": "..."}.

func ctlError(w http.ResponseWriter, err error) {
	status := http.StatusBadRequest
	if errors.Is(err, ErrNotFound) {
		status = http.StatusNotFound
	} else if errors.Is(err, ErrExists) {
		status = http.StatusConflict
	}
	writeJSON(w, status, map[string]string{"error": err.Error()})
}

func reply(w http.ResponseWriter, status int, err error) {
	if err != nil {
		ctlError(w, err)
		return
	}
	writeJSON(w, status, map[string]bool{"ok": true})
}

func (s *Server) ctlHealth(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
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
	reply(w, http.StatusOK, err)
}

func (s *Server) ctlCreateUser(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Email string `json:"email"`
	}
	if simkit.Decode(w, r, &body) {
		reply(w, http.StatusCreated, s.CreateUser(body.Email))
	}
}

func (s *Server) ctlCreateAccount(w http.ResponseWriter, r *http.Request) {
	var a AccountSpec
	if simkit.Decode(w, r, &a) {
		reply(w, http.StatusCreated, s.CreateAccount(a))
	}
}

func (s *Server) ctlCreateProperty(w http.ResponseWriter, r *http.Request) {
	var p PropertySpec
	if simkit.Decode(w, r, &p) {
		reply(w, http.StatusCreated, s.CreateProperty(p))
	}
}

// ctlSetDays takes a list of days for the property.
func (s *Server) ctlSetDays(w http.ResponseWriter, r *http.Request) {
	var days []Day
	if simkit.Decode(w, r, &days) {
		reply(w, http.StatusOK, s.SetDays(r.PathValue("id"), days))
	}
}

func (s *Server) ctlQuality(w http.ResponseWriter, r *http.Request) {
	var q Quality
	if simkit.Decode(w, r, &q) {
		reply(w, http.StatusOK, s.SetQuality(r.PathValue("id"), q))
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
	reply(w, http.StatusOK, s.ExhaustQuota(r.PathValue("id"), body.Quota))
}

func (s *Server) ctlFail(w http.ResponseWriter, r *http.Request) {
	var f Failure
	if simkit.Decode(w, r, &f) {
		reply(w, http.StatusOK, s.FailNext(f))
	}
}

func (s *Server) ctlExpireTokens(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]int{"expired": s.ExpireTokens()})
}
