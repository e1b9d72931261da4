// Package fuzz throws bad input at every route of the running stack,
// driven by the gateway's own OpenAPI document, so a route added later is
// covered without anyone remembering to.
package fuzz

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"uplift.dev/gateway/internal/openapi"
	"uplift.dev/gateway/internal/stacktest"
)

type param struct {
	Name, In, Type string
	Schema         struct {
		Ref string `json:"$ref"`
	}
}

type operation struct {
	Parameters []param
}

type schema struct {
	Type       string
	Properties map[string]schema
	Items      *schema
	Ref        string `json:"$ref"`
}

type document struct {
	Paths       map[string]map[string]operation
	Definitions map[string]schema
}

// request is one fuzz case.
type request struct {
	method, path, what string
	body               []byte
}

var pathParam = regexp.MustCompile(`\{([^}]+)\}`)

// badIDs are path segments no id looks like; each must be a 4xx.
var badIDs = map[string]string{
	"unknown id":   "does-not-exist-0000",
	"huge id":      strings.Repeat("a", 10<<10),
	"NUL and 0xff": "%00%FF%FE",
	"traversal":    "..%2F..%2Fadmin",
	"unicode":      url.PathEscape("ünï🙂code"),
	"newline":      "a%0D%0ASet-Cookie:x=1",
}

// badQueries are values for any query parameter.
var badQueries = map[string]string{
	"empty": "", "negative": "-1", "overflow": "99999999999999999999999", "float": "1e309",
	"word": "abc", "huge": strings.Repeat("9", 100<<10), "NUL": "%00", "invalid UTF-8": "%FF%FE",
	"date garbage": "2026-13-45", "array": "a&{name}=b",
}

// malformedBodies are bodies no schema accepts, or accepts only as empty.
var malformedBodies = map[string][]byte{
	"truncated":       []byte(`{"a":`),
	"trailing comma":  []byte(`{"a":1,}`),
	"array":           []byte(`[1,2,3]`),
	"string":          []byte(`"just a string"`),
	"number":          []byte(`12345`),
	"binary":          {0xff, 0xfe, 0x00, 0x01, 0x80, 0x7f},
	"invalid UTF-8":   []byte("{\"x\":\"\xff\xfe\"}"),
	"deep nesting":    []byte(strings.Repeat("[", 100000) + strings.Repeat("]", 100000)),
	"nested object":   []byte(strings.Repeat(`{"a":`, 5000) + "1" + strings.Repeat("}", 5000)),
	"duplicate keys":  []byte(`{"a":1,"a":"two"}`),
	"over the limit":  []byte(`{"x":"` + strings.Repeat("x", 2<<20) + `"}`),
	"unicode escapes": []byte(`{"x":"\ud800\udfff\u0000"}`),
}

// wrongValues are values of the wrong type (or wrong size) for a field of
// the given type.
func wrongValues(typ string) map[string]any {
	v := map[string]any{
		"object": map[string]any{"nested": []any{1, "two", nil}},
		"array":  []any{"a", 1, true},
		"huge":   strings.Repeat("é", 200<<10),
		"binary": "\x00\x01\u202e\ufffd" + strings.Repeat("\u0000", 100),
		"float":  1.5e308,
	}
	switch typ {
	case "string":
		v["number"], v["bool"] = 12345, true
	case "integer", "number":
		v["string"], v["negative"], v["overflow"] = "twelve", -1, json.Number("1e400")
	case "boolean":
		v["string"], v["number"] = "yes", 2
	}
	return v
}

func cases(t *testing.T, doc document, ids map[string]string) []request {
	var out []request
	paths := make([]string, 0, len(doc.Paths))
	for p := range doc.Paths {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, tmpl := range paths {
		for method, op := range doc.Paths[tmpl] {
			method = strings.ToUpper(method)
			fill := func(override map[string]string) string {
				return pathParam.ReplaceAllStringFunc(tmpl, func(m string) string {
					name := m[1 : len(m)-1]
					if v, ok := override[name]; ok {
						return v
					}
					if v, ok := ids[name]; ok {
						return url.PathEscape(v)
					}
					return "unknown-" + name
				})
			}
			var bodySchema *schema
			for _, p := range op.Parameters {
				switch p.In {
				case "path":
					for what, bad := range badIDs {
						out = append(out, request{method, fill(map[string]string{p.Name: bad}), p.Name + ": " + what, []byte(`{}`)})
					}
				case "query":
					for what, bad := range badQueries {
						out = append(out, request{method, fill(nil) + "?" + p.Name + "=" + strings.ReplaceAll(bad, "{name}", p.Name), p.Name + ": " + what, nil})
					}
				case "body":
					s := doc.resolve(p.Schema.Ref)
					bodySchema = &s
				}
			}
			if method == http.MethodGet || method == http.MethodDelete {
				continue
			}
			base := fill(nil)
			for what, b := range malformedBodies {
				out = append(out, request{method, base, "body: " + what, b})
			}
			if bodySchema == nil {
				continue
			}
			fields := make([]string, 0, len(bodySchema.Properties))
			for f := range bodySchema.Properties {
				fields = append(fields, f)
			}
			sort.Strings(fields)
			for _, f := range fields {
				for what, v := range wrongValues(doc.resolve(bodySchema.Properties[f].Ref).typeOr(bodySchema.Properties[f].Type)) {
					b, err := json.Marshal(map[string]any{f: v})
					if err != nil {
						t.Fatal(err)
					}
					out = append(out, request{method, base, f + ": " + what, b})
				}
			}
		}
	}
	return out
}

func (d document) resolve(ref string) schema {
	if ref == "" {
		return schema{}
	}
	return d.Definitions[strings.TrimPrefix(ref, "#/definitions/")]
}

func (s schema) typeOr(t string) string {
	if s.Type != "" {
		return s.Type
	}
	return t
}

// extraRoutes are the gateway's own routes that are not gRPC calls and so
// not in the OpenAPI document.
var extraRoutes = []string{"POST /webhooks/stripe", "POST /webhooks/shopify", "GET /connections/shopify/callback", "GET /connections/shopify/authorize"}

// TestNoInputMakesA5xx: every route of the OpenAPI document (and the
// gateway's webhook and OAuth routes), signed out, as a store owner and as
// an admin, with
// malformed JSON, wrong types for each field, huge and binary strings, and
// bad or unknown ids and query values, answers below 500: a clear 4xx (or a
// 2xx where the input is harmless), never a 500, a panic or a hang.
func TestNoInputMakesA5xx(t *testing.T) {
	s := stacktest.FromEnv(t)
	var doc document
	if err := json.Unmarshal(openapi.Document, &doc); err != nil {
		t.Fatal(err)
	}
	owner, admin := s.SignUp(t), s.SignUpAdmin(t)
	all := cases(t, doc, map[string]string{"categoryId": owner.CategoryID, "userId": owner.ID})
	for _, r := range extraRoutes {
		method, path, _ := strings.Cut(r, " ")
		for what, q := range badQueries {
			all = append(all, request{method, path + "?shop=" + q + "&hmac=" + q + "&state=" + q, "query: " + what, nil})
		}
		if method == http.MethodPost {
			for what, b := range malformedBodies {
				all = append(all, request{method, path, "body: " + what, b})
			}
		}
	}
	if len(all) < 500 {
		t.Fatalf("only %d cases: the OpenAPI document was not read", len(all))
	}

	var (
		mu       sync.Mutex
		failures []string
		sent     atomic.Int64
		byStatus sync.Map
	)
	work := make(chan request)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for r := range work {
				for who, token := range map[string]string{"signed out": "", "owner": owner.Token, "admin": admin.Token} {
					code, body, err := s.Do(r.method, r.path, token, r.body)
					sent.Add(1)
					n, _ := byStatus.LoadOrStore(code, new(atomic.Int64))
					n.(*atomic.Int64).Add(1)
					if err != nil || code >= 500 {
						mu.Lock()
						failures = append(failures, fmt.Sprintf("%s %.120s (%s, %s): %d %s %v", r.method, r.path, r.what, who, code, stacktest.Excerpt(body), err))
						mu.Unlock()
					}
				}
			}
		})
	}
	for _, r := range all {
		work <- r
	}
	close(work)
	wg.Wait()

	var counts []string
	byStatus.Range(func(k, v any) bool {
		counts = append(counts, fmt.Sprintf("%d×%d", k, v.(*atomic.Int64).Load()))
		return true
	})
	slices.Sort(counts)
	t.Logf("%d requests over %d operations: %s", sent.Load(), countOps(doc)+len(extraRoutes), strings.Join(counts, " "))
	slices.Sort(failures)
	for i, f := range failures {
		if i == 40 {
			t.Errorf("… and %d more", len(failures)-40)
			break
		}
		t.Error(f)
	}

	// The stack is still whole: the owner's own data reads back.
	if code, b, err := s.Do(http.MethodGet, "/internal/users/"+owner.ID+"/profile", owner.Token, nil); err != nil || code != http.StatusOK {
		t.Fatalf("after the fuzzing the owner's profile answers %d %s %v", code, b, err)
	}
}

func countOps(d document) int {
	n := 0
	for _, ops := range d.Paths {
		n += len(ops)
	}
	return n
}
