package fetch

import (
	"context"
	"io"
	"net"
	"net/http"
	"time"
)

// Proxy serves a forward HTTP proxy on loopback whose every connection is
// dialled by the fetcher's guarded transport: a browser pointed at it
// (Chromium's --proxy-server, with loopback not bypassed) reaches only the
// addresses the fetcher may, on every redirect and sub-request. It returns
// the proxy's address and a function that stops it.
func (f *Fetcher) Proxy() (addr string, stop func(), err error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	// Plain-HTTP requests are forwarded with a transport that shares the
	// guarded dialer; HTTPS arrives as CONNECT and is tunnelled.
	forward := &http.Transport{Proxy: nil, DialContext: f.transport.DialContext, ResponseHeaderTimeout: f.timeout, IdleConnTimeout: 30 * time.Second}
	srv := &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodConnect {
			f.tunnel(w, r)
			return
		}
		if r.URL.Host == "" || (r.URL.Scheme != "http" && r.URL.Scheme != "https") {
			http.Error(w, "not a proxy request", http.StatusBadRequest)
			return
		}
		r.RequestURI = ""
		r.Header.Del("Proxy-Connection")
		resp, err := forward.RoundTrip(r)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		for k, v := range resp.Header {
			w.Header()[k] = v
		}
		w.WriteHeader(resp.StatusCode)
		io.Copy(w, resp.Body)
	})}
	go srv.Serve(ln)
	return ln.Addr().String(), func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		srv.Shutdown(ctx)
		srv.Close()
		forward.CloseIdleConnections()
	}, nil
}

// tunnel answers CONNECT host:port with a guarded connection, or 403.
func (f *Fetcher) tunnel(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), f.timeout)
	defer cancel()
	up, err := f.transport.DialContext(ctx, "tcp", r.Host)
	if err != nil {
		http.Error(w, err.Error(), http.StatusForbidden)
		return
	}
	hj, ok := w.(http.Hijacker)
	if !ok {
		up.Close()
		http.Error(w, "cannot tunnel", http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusOK)
	down, buf, err := hj.Hijack()
	if err != nil {
		up.Close()
		return
	}
	if n := buf.Reader.Buffered(); n > 0 {
		b, _ := buf.Reader.Peek(n)
		up.Write(b)
	}
	go func() { io.Copy(up, down); up.Close() }()
	io.Copy(down, up)
	down.Close()
}
