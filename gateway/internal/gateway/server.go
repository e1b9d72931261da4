package gateway

import (
	"errors"
	"net/http"
	"os"
	"time"
	"unicode/utf8"

	"google.golang.org/grpc/codes"
)

// Timeouts of the public server. A client that sends its headers or body
// slowly must not hold a connection (and a goroutine) for as long as it
// likes; an idle keep-alive connection is closed after idleTimeout. There is
// no write timeout: the live report stream (/events) answers for as long as
// the page is open, and Go's server lifts the read deadline once a body has
// been read, so the stream is not cut by the read timeout either.
const (
	defaultReadTimeout = 15 * time.Second
	readHeaderTimeout  = 10 * time.Second
	idleTimeout        = 120 * time.Second
	// importReadTimeout is what the order-export import (up to 64 MiB) gets
	// for its body instead of the read timeout: about 3.5 Mbit/s at the
	// largest size.
	importReadTimeout = 3 * time.Minute
)

// slowBodyMessage answers a body that did not arrive within the read timeout.
const slowBodyMessage = "The request body took too long to arrive. Please try again."

// publicServer is the http.Server for the public address. readTimeout
// bounds reading a request's headers and body (0 means defaultReadTimeout).
func publicServer(addr string, h http.Handler, readTimeout time.Duration) *http.Server {
	if readTimeout <= 0 {
		readTimeout = defaultReadTimeout
	}
	return &http.Server{
		Addr:              addr,
		Handler:           h,
		ReadHeaderTimeout: min(readHeaderTimeout, readTimeout),
		ReadTimeout:       readTimeout,
		IdleTimeout:       idleTimeout,
	}
}

// writeBodyError answers a body the gateway could not read itself (the raw
// webhook routes): too large is 413, too slow 408, anything else (the client
// went away mid-body) 400.
func writeBodyError(w http.ResponseWriter, err error) {
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		writeJSONError(w, http.StatusRequestEntityTooLarge, codes.InvalidArgument, "The request body is too large.")
	case errors.Is(err, os.ErrDeadlineExceeded):
		writeJSONError(w, http.StatusRequestTimeout, codes.DeadlineExceeded, slowBodyMessage)
	default:
		writeJSONError(w, http.StatusBadRequest, codes.InvalidArgument, "The request body could not be read.")
	}
}

// headerText reads the headers a raw webhook route passes on to a service.
// They travel in proto string fields, which must hold UTF-8: a value with
// other bytes (0xff) would fail to marshal, a 500 for the client's mistake.
// bad names the first such header, for the handler to answer 400.
type headerText struct {
	h   http.Header
	bad string
}

func (t *headerText) get(name string) string {
	v := t.h.Get(name)
	if !utf8.ValidString(v) && t.bad == "" {
		t.bad = name
	}
	return v
}

// refuse answers 400 and reports true when a header read was not text.
func (t *headerText) refuse(w http.ResponseWriter) bool {
	if t.bad == "" {
		return false
	}
	writeJSONError(w, http.StatusBadRequest, codes.InvalidArgument, "The "+t.bad+" header is not valid UTF-8 text.")
	return true
}
