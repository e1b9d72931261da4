// Package openapi embeds the merged OpenAPI document that `make proto`
// generates from the protos' comments and HTTP rules.
package openapi

import _ "embed"

// Document is the OpenAPI (Swagger 2.0) JSON for every REST call.
//
//go:embed uplift.swagger.json
var Document []byte
