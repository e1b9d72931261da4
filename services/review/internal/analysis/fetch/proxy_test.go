package fetch

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"
)

func TestProxyKeepsThePolicy(t *testing.T) {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "shop") }))
	defer site.Close()
	tls := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "secure shop") }))
	defer tls.Close()
	through := func(f *Fetcher, target string, tlsTarget bool) (*http.Response, error) {
		addr, stop, err := f.Proxy()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(stop)
		pu, _ := url.Parse("http://" + addr)
		tr := &http.Transport{Proxy: http.ProxyURL(pu)}
		if tlsTarget {
			tr.TLSClientConfig = tls.Client().Transport.(*http.Transport).TLSClientConfig
		}
		c := &http.Client{Transport: tr, Timeout: 5 * time.Second}
		return c.Get(target)
	}
	open := New(Options{AllowLoopback: true, Timeout: 2 * time.Second})
	for _, tt := range []struct {
		url  string
		tls  bool
		body string
	}{{site.URL, false, "shop"}, {tls.URL, true, "secure shop"}} {
		resp, err := through(open, tt.url, tt.tls)
		if err != nil {
			t.Fatalf("%s through the proxy: %v", tt.url, err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if string(b) != tt.body {
			t.Errorf("%s: %q", tt.url, b)
		}
	}
	// Without the test allowance, loopback (and any private address) is
	// refused through the proxy as it is to the fetcher itself.
	closed := New(Options{Timeout: 2 * time.Second})
	if resp, err := through(closed, site.URL, false); err == nil {
		if resp.StatusCode < 400 {
			t.Errorf("plain HTTP to loopback went through: %d", resp.StatusCode)
		}
		resp.Body.Close()
	}
	if _, err := through(closed, tls.URL, true); err == nil {
		t.Error("CONNECT to loopback went through")
	}
}
