package fuzz

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"uplift.dev/gateway/internal/openapi"
	"uplift.dev/gateway/internal/stacktest"
	"uplift.dev/platform/validation"
)

// textField is one text field of one operation, with its documented bound.
type textField struct {
	method, path, in, name string
	max                    int
	// wrap puts a body field's value where it goes ({"competitors":{"urls":[v]}}).
	wrap func(v string) any
}

// lengthRefusal is how a refusal for length reads, from the gRPC server's
// bound ("email is too long: at most 254 characters.") or a service's own.
var lengthRefusal = regexp.MustCompile(`(?i)too long|too large|larger than|at most \d+ characters`)

// textFields lists every text field the document's requests carry: path
// and query parameters and body fields, nested ones included. A string
// without a maxLength is an error: every text field has a bound.
func textFields(t *testing.T, raw map[string]any) []textField {
	defs, _ := raw["definitions"].(map[string]any)
	var out []textField
	var body func(method, path, name string, s map[string]any, wrap func(any) any, seen map[string]bool)
	body = func(method, path, name string, s map[string]any, wrap func(any) any, seen map[string]bool) {
		if ref, ok := s["$ref"].(string); ok {
			def := strings.TrimPrefix(ref, "#/definitions/")
			if seen[def] {
				return
			}
			seen[def] = true
			body(method, path, name, defs[def].(map[string]any), wrap, seen)
			delete(seen, def)
			return
		}
		switch s["type"] {
		case "string":
			if _, formatted := s["format"]; formatted {
				return
			}
			max, ok := s["maxLength"].(float64)
			if !ok {
				t.Errorf("%s %s: body field %s has no maxLength", method, path, name)
				return
			}
			out = append(out, textField{method, path, "body", name, int(max), func(v string) any { return wrap(v) }})
		case "array":
			items, _ := s["items"].(map[string]any)
			body(method, path, name+"[]", items, func(v any) any { return wrap([]any{v}) }, seen)
		default:
			props, _ := s["properties"].(map[string]any)
			for field, p := range props {
				full := field
				if name != "" {
					full = name + "." + field
				}
				body(method, path, full, p.(map[string]any), func(v any) any { return wrap(map[string]any{field: v}) }, seen)
			}
		}
	}
	paths, _ := raw["paths"].(map[string]any)
	for path, ops := range paths {
		for method, op := range ops.(map[string]any) {
			method = strings.ToUpper(method)
			params, _ := op.(map[string]any)["parameters"].([]any)
			for _, p := range params {
				p := p.(map[string]any)
				name, _ := p["name"].(string)
				if schema, ok := p["schema"].(map[string]any); ok {
					body(method, path, "", schema, func(v any) any { return v }, map[string]bool{})
					continue
				}
				if p["type"] != "string" {
					continue
				}
				max, ok := p["maxLength"].(float64)
				if !ok {
					t.Errorf("%s %s: parameter %s has no maxLength", method, path, name)
					continue
				}
				out = append(out, textField{method: method, path: path, in: p["in"].(string), name: name, max: int(max)})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i].path+out[i].method+out[i].name < out[j].path+out[j].method+out[j].name
	})
	return out
}

// request is the operation with f set to v and the path's other ids the
// owner's own (or unknown ones).
func (f textField) request(v string, ids map[string]string) (method, target string, body []byte) {
	target = pathParam.ReplaceAllStringFunc(f.path, func(m string) string {
		name := m[1 : len(m)-1]
		switch {
		case f.in == "path" && name == f.name:
			return url.PathEscape(v)
		case ids[name] != "":
			return ids[name]
		}
		return "unknown-" + name
	})
	switch f.in {
	case "query":
		target += "?" + url.Values{f.name: {v}}.Encode()
	case "body":
		fields := f.wrap(v)
		// The streamed order import reads its file after its format (the
		// service refuses a wrong format before taking a byte of the file),
		// so the file's own bound is only reached with a format it takes.
		if m, ok := fields.(map[string]any); ok && f.name == "csv" && strings.HasSuffix(f.path, "/orders/import") {
			m["format"] = "shopify-orders-csv"
		}
		body, _ = json.Marshal(fields)
	}
	if body == nil && f.method != http.MethodGet && f.method != http.MethodDelete {
		body = []byte(`{}`)
	}
	return f.method, target, body
}

// TestEveryTextFieldHasItsBound: every text field of every route states
// its bound in the OpenAPI document, and the running stack keeps it. A
// value one character over the bound is a 4xx saying it is too long (not
// a 5xx, not accepted); a value exactly at the bound, in ASCII and (in
// paths and bodies) in two-byte characters, is not refused for its length
// (it may be refused for what it is: "xxx…" is not an email).
func TestEveryTextFieldHasItsBound(t *testing.T) {
	s := stacktest.FromEnv(t)
	var raw map[string]any
	if err := json.Unmarshal(openapi.Document, &raw); err != nil {
		t.Fatal(err)
	}
	fields := textFields(t, raw)
	if len(fields) < 40 {
		t.Fatalf("only %d text fields: the OpenAPI document was not read", len(fields))
	}
	owner := s.SignUp(t)
	ids := map[string]string{"categoryId": owner.CategoryID, "userId": owner.ID}

	type check struct {
		f    textField
		what string
		v    string
		over bool
	}
	var checks []check
	for _, f := range fields {
		checks = append(checks,
			check{f, "one over", strings.Repeat("x", f.max+1), true},
			check{f, "at the bound", strings.Repeat("x", f.max), false})
		// Bounds count characters, not bytes. Not in a query string: escaped,
		// 2048 é are 12 KiB, over the address's own 8 KiB bound (the gateway's).
		// Nor in a document, which the service bounds in bytes.
		if f.in != "query" && f.max < validation.MaxDocumentBytes {
			checks = append(checks, check{f, "at the bound in é", strings.Repeat("é", f.max), false})
		}
	}
	var (
		mu       sync.Mutex
		failures []string
	)
	run := func(c check) {
		method, target, body := c.f.request(c.v, ids)
		code, b, err := s.Do(method, target, owner.Token, body)
		var problem string
		switch {
		case err != nil:
			problem = err.Error()
		case code >= 500:
			problem = "a server error"
		case c.over && code < 400:
			problem = "not refused"
		// An API error says why; a page (an unsubscribe link) in its own words.
		case c.over && !lengthRefusal.Match(b) && !bytes.HasPrefix(b, []byte("<!doctype html>")):
			problem = "refused, but not as too long"
		case !c.over && code >= 400 && lengthRefusal.Match(b):
			problem = "refused for its length"
		}
		if problem != "" {
			mu.Lock()
			failures = append(failures, fmt.Sprintf("%s %s %s %s (maxLength %d, %s): %s: %d %s",
				c.f.method, c.f.path, c.f.in, c.f.name, c.f.max, c.what, problem, code, stacktest.Excerpt(b)))
			mu.Unlock()
		}
	}
	// A document (the order export) is sent alone: the service runs one
	// import per store at a time and answers a second with 409, which is
	// that bound working, not this one.
	var documents []check
	work := make(chan check)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for c := range work {
				run(c)
			}
		})
	}
	for _, c := range checks {
		if c.f.max >= validation.MaxDocumentBytes {
			documents = append(documents, c)
			continue
		}
		work <- c
	}
	close(work)
	wg.Wait()
	for _, c := range documents {
		run(c)
	}
	t.Logf("%d text fields, %d requests", len(fields), len(checks))
	sort.Strings(failures)
	for _, f := range failures {
		t.Error(f)
	}
}
