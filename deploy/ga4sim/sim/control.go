package sim

import (
	"encoding/json"
	"errors"
	"net/http"
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

func decode(w http.ResponseWriter, r *http.Request, v any) bool {
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, 4<<20))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "bad JSON body: " + err.Error()})
		return false
	}
	return true
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
	if r.ContentLength != 0 && !decode(w, r, &body) {
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
	if decode(w, r, &body) {
		reply(w, http.StatusCreated, s.CreateUser(body.Email))
	}
}

func (s *Server) ctlCreateAccount(w http.ResponseWriter, r *http.Request) {
	var a AccountSpec
	if decode(w, r, &a) {
		reply(w, http.StatusCreated, s.CreateAccount(a))
	}
}

func (s *Server) ctlCreateProperty(w http.ResponseWriter, r *http.Request) {
	var p PropertySpec
	if decode(w, r, &p) {
		reply(w, http.StatusCreated, s.CreateProperty(p))
	}
}

// ctlSetDays takes a list of days for the property.
func (s *Server) ctlSetDays(w http.ResponseWriter, r *http.Request) {
	var days []Day
	if decode(w, r, &days) {
		reply(w, http.StatusOK, s.SetDays(r.PathValue("id"), days))
	}
}

func (s *Server) ctlQuality(w http.ResponseWriter, r *http.Request) {
	var q Quality
	if decode(w, r, &q) {
		reply(w, http.StatusOK, s.SetQuality(r.PathValue("id"), q))
	}
}

// ctlExhaust spends one of the property's quotas ({"quota": "tokensPerDay"}
// by default) until its window rolls over.
func (s *Server) ctlExhaust(w http.ResponseWriter, r *http.Request) {
	body := struct {
		Quota string `json:"quota"`
	}{Quota: "tokensPerDay"}
	if r.ContentLength != 0 && !decode(w, r, &body) {
		return
	}
	reply(w, http.StatusOK, s.ExhaustQuota(r.PathValue("id"), body.Quota))
}

func (s *Server) ctlFail(w http.ResponseWriter, r *http.Request) {
	var f Failure
	if decode(w, r, &f) {
		reply(w, http.StatusOK, s.FailNext(f))
	}
}

func (s *Server) ctlExpireTokens(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]int{"expired": s.ExpireTokens()})
}
