// Package grpcport is the categories service's gRPC API. The business profile, website review, reports, insights and ideas are built in a later issue.
package grpcport

import (
	categoriesv1 "uplift.dev/proto/gen/uplift/categories/v1"
)

// PublicMethods may be called without signing in.
var PublicMethods = []string{}

// Server implements categoriesv1.CategoriesServiceServer. Every call answers
// Unimplemented (HTTP 501) until its behaviour is built; none fakes success.
type Server struct {
	categoriesv1.UnimplementedCategoriesServiceServer
}
