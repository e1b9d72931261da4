// Package openapi embeds the merged OpenAPI document that `make proto`
// generates from the protos' comments and HTTP rules, with the bound of
// every request text field added.
package openapi

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"

	"uplift.dev/platform/validation"
)

//go:embed uplift.swagger.json
var generated []byte

// Document is the OpenAPI (Swagger 2.0) JSON for every REST call. Each text
// field of a request (path, query and body) states its bound as maxLength:
// its kind's (validation.KindOf), which every service's gRPC server
// enforces, answering 400 naming the field for a longer value.
var Document = mustBound(generated)

func mustBound(doc []byte) []byte {
	out, err := withBounds(doc)
	if err != nil {
		panic(fmt.Sprintf("openapi: the generated document: %v", err))
	}
	return out
}

// withBounds adds maxLength to every string a request carries.
func withBounds(doc []byte) ([]byte, error) {
	var d map[string]any
	if err := json.Unmarshal(doc, &d); err != nil {
		return nil, err
	}
	defs, _ := d["definitions"].(map[string]any)
	bounded := map[string]bool{}
	var walk func(name string, s map[string]any)
	walk = func(name string, s map[string]any) {
		if ref, ok := s["$ref"].(string); ok {
			def := strings.TrimPrefix(ref, "#/definitions/")
			if target, ok := defs[def].(map[string]any); ok && !bounded[def] {
				bounded[def] = true
				walk(name, target)
			}
			return
		}
		switch s["type"] {
		case "string":
			// Formatted strings are not text: bytes (an image), int64, times.
			if _, formatted := s["format"]; !formatted {
				s["maxLength"] = validation.KindOf(name).Max()
			}
		case "array":
			if items, ok := s["items"].(map[string]any); ok {
				walk(name, items)
			}
		default:
			props, _ := s["properties"].(map[string]any)
			for field, p := range props {
				if p, ok := p.(map[string]any); ok {
					walk(field, p)
				}
			}
		}
	}
	paths, _ := d["paths"].(map[string]any)
	for _, ops := range paths {
		ops, _ := ops.(map[string]any)
		for _, op := range ops {
			op, _ := op.(map[string]any)
			params, _ := op["parameters"].([]any)
			for _, p := range params {
				p, _ := p.(map[string]any)
				name, _ := p["name"].(string)
				if schema, ok := p["schema"].(map[string]any); ok {
					walk("", schema)
				} else {
					walk(name, p)
				}
			}
		}
	}
	return json.MarshalIndent(d, "", "  ")
}
