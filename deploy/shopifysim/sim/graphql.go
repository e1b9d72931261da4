package sim

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"regexp"
	"strconv"
	"time"

	"github.com/graphql-go/graphql"
	"github.com/graphql-go/graphql/language/ast"
	"github.com/graphql-go/graphql/language/parser"

	"uplift.dev/simkit"
)

// maxQueryCost is Shopify's single-query cap.
const maxQueryCost = 1000

// mutationCost is what Shopify charges for each top-level mutation field.
const mutationCost = 10

var versionRE = regexp.MustCompile(`^\d{4}-\d{2}$|^unstable$`)

// Fault makes the next Count GraphQL calls (or webhook deliveries, or bulk
// operations) of a shop misbehave, to test the client's recovery paths:
//
//	5xx               answer 503 {"errors":"Service Unavailable"}
//	429               answer 429 with Retry-After (Delay, default 2 s)
//	throttle          answer Shopify's THROTTLED error, whatever the bucket holds
//	slow              wait Delay (default 1 s) before answering
//	bulk-fail         the next bulk operation ends FAILED / INTERNAL_SERVER_ERROR
//	webhook-fail      the next delivery attempt is signed with the wrong secret
//	webhook-duplicate the next event is delivered twice with the same event id
type Fault = simkit.Fault

var faultKinds = map[string]bool{"5xx": true, "429": true, "throttle": true, "slow": true, "bulk-fail": true, "webhook-fail": true, "webhook-duplicate": true}

// InjectFault queues a fault for the shop; faults of one kind are used up in order.
func (s *Server) InjectFault(domain string, f Fault) error {
	if !faultKinds[f.Kind] {
		return fmt.Errorf("%w: fault kind %q", ErrInvalid, f.Kind)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	sh, err := s.shopLocked(domain)
	if err != nil {
		return err
	}
	sh.faults.Add(f)
	return nil
}

type bucket struct {
	avail float64
	at    time.Time
}

// bucketLocked returns the token's leaky bucket refilled up to now.
func (sh *shop) bucketLocked(key string, now time.Time) *bucket {
	b, ok := sh.buckets[key]
	if !ok {
		b = &bucket{avail: sh.spec.MaxAvailable, at: now}
		sh.buckets[key] = b
	}
	if el := now.Sub(b.at).Seconds(); el > 0 {
		b.avail = math.Min(sh.spec.MaxAvailable, b.avail+el*sh.spec.RestoreRate)
		b.at = now
	}
	return b
}

func costExt(sh *shop, b *bucket, requested int, actual any) map[string]any {
	return map[string]any{"cost": map[string]any{
		"requestedQueryCost": requested,
		"actualQueryCost":    actual,
		"throttleStatus": map[string]any{
			"maximumAvailable":   sh.spec.MaxAvailable,
			"currentlyAvailable": int(b.avail),
			"restoreRate":        sh.spec.RestoreRate,
		},
	}}
}

const invalidToken = "[API] Invalid API key or access token (unrecognized login or wrong password)"

func (s *Server) handleGraphQL(w http.ResponseWriter, r *http.Request) {
	version := r.PathValue("version")
	if !versionRE.MatchString(version) {
		writeJSON(w, http.StatusNotFound, map[string]any{"errors": "Not Found"})
		return
	}
	w.Header().Set("X-Shopify-API-Version", version)
	domain := r.PathValue("shop")
	token := r.Header.Get("X-Shopify-Access-Token")

	s.mu.Lock()
	tok, ok := s.tokens[token]
	sh := s.shops[domain]
	if ok && (tok.shop != domain || sh == nil || (!tok.expires.IsZero() && !s.now().Before(tok.expires))) {
		ok = false
	}
	var slow, fail5, fail429 *Fault
	if ok {
		slow, fail5 = sh.faults.Take("slow"), sh.faults.Take("5xx")
		if fail5 == nil {
			fail429 = sh.faults.Take("429")
		}
	}
	s.mu.Unlock()
	if !ok {
		writeJSON(w, http.StatusUnauthorized, map[string]any{"errors": invalidToken})
		return
	}
	if slow != nil && !slow.Stall(r.Context()) {
		return
	}
	if fail5 != nil {
		writeJSON(w, http.StatusServiceUnavailable, map[string]any{"errors": "Service Unavailable"})
		return
	}
	if fail429 != nil {
		ra := "2.0"
		if fail429.Delay > 0 {
			ra = strconv.FormatFloat(fail429.Delay.Seconds(), 'f', 1, 64)
		}
		w.Header().Set("Retry-After", ra)
		writeJSON(w, http.StatusTooManyRequests, map[string]any{"errors": "Exceeded 2 calls per second for api client. Reduce request rates to resume uninterrupted service."})
		return
	}

	var body struct {
		Query         string         `json:"query"`
		Variables     map[string]any `json:"variables"`
		OperationName string         `json:"operationName"`
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<20)).Decode(&body); err != nil || body.Query == "" {
		writeJSON(w, http.StatusBadRequest, map[string]any{"errors": map[string]string{"query": "Required parameter missing or invalid"}})
		return
	}
	requested := 0
	doc, perr := parser.Parse(parser.ParseParams{Source: body.Query})
	if perr == nil {
		requested = queryCost(doc, body.Variables, nil)
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	b := sh.bucketLocked(token, s.now())
	if requested > maxQueryCost {
		writeJSON(w, http.StatusOK, map[string]any{
			"errors": []any{map[string]any{
				"message":    fmt.Sprintf("Query cost is %d, which exceeds the single query max cost limit (%d).\n\nSee https://shopify.dev/concepts/about-apis/rate-limits for more information on how the\ncost of a query is calculated.\n\nTo query larger amounts of data with fewer limits, bulk operations should be used instead.\nSee https://shopify.dev/tutorials/perform-bulk-operations-with-admin-api for usage details.\n", requested, maxQueryCost),
				"extensions": map[string]any{"code": "MAX_COST_EXCEEDED", "cost": requested, "maxCost": maxQueryCost},
			}},
			"extensions": costExt(sh, b, requested, nil),
		})
		return
	}
	if sh.faults.Take("throttle") != nil || float64(requested) > b.avail {
		writeJSON(w, http.StatusOK, map[string]any{
			"errors": []any{map[string]any{"message": "Throttled", "extensions": map[string]any{
				"code": "THROTTLED", "documentation": "https://shopify.dev/api/usage/rate-limits"}}},
			"extensions": costExt(sh, b, requested, nil),
		})
		return
	}
	res := graphql.Do(graphql.Params{
		Schema: s.schema, RequestString: body.Query, VariableValues: body.Variables, OperationName: body.OperationName,
		Context: withInfo(r.Context(), &reqInfo{sh: sh, tok: tok}),
	})
	actual := 0
	if perr == nil && res.Data != nil {
		actual = queryCost(doc, body.Variables, res.Data)
	}
	b.avail = math.Max(0, b.avail-float64(actual))
	out := map[string]any{"data": res.Data, "extensions": costExt(sh, b, requested, actual)}
	if len(res.Errors) > 0 {
		out["errors"] = res.Errors
	}
	s.log.Debug("graphql", "shop", domain, "requested", requested, "actual", actual, "errors", len(res.Errors))
	writeJSON(w, http.StatusOK, out)
}

// coster estimates Shopify's calculated query cost, deterministically:
//
//   - scalars, enums and __typename cost 0;
//   - an object field costs 1 plus its selections;
//   - a connection (a field selecting edges or nodes) costs 2 plus first × (1 +
//     the node's selections) when requested, or 2 plus the sum over the nodes
//     actually returned when actual;
//   - each top-level mutation field costs 10.
//
// Inline fragments add up all branches (an over-estimate on interfaces).
type coster struct {
	frags map[string]*ast.FragmentDefinition
	vars  map[string]any
	depth int
}

// queryCost is the requested cost when data is nil, else the actual cost of the result.
func queryCost(doc *ast.Document, vars map[string]any, data any) int {
	c := &coster{frags: map[string]*ast.FragmentDefinition{}, vars: vars}
	var op *ast.OperationDefinition
	for _, d := range doc.Definitions {
		switch d := d.(type) {
		case *ast.FragmentDefinition:
			c.frags[d.Name.Value] = d
		case *ast.OperationDefinition:
			if op == nil {
				op = d
			}
		}
	}
	if op == nil {
		return 0
	}
	if op.Operation == ast.OperationTypeMutation {
		return mutationCost * len(op.SelectionSet.Selections)
	}
	return c.set(op.SelectionSet, data, data != nil)
}

func (c *coster) set(ss *ast.SelectionSet, data any, actual bool) int {
	if ss == nil || c.depth > 50 {
		return 0
	}
	c.depth++
	defer func() { c.depth-- }()
	total := 0
	for _, sel := range ss.Selections {
		switch sel := sel.(type) {
		case *ast.Field:
			total += c.field(sel, data, actual)
		case *ast.InlineFragment:
			total += c.set(sel.SelectionSet, data, actual)
		case *ast.FragmentSpread:
			if f, ok := c.frags[sel.Name.Value]; ok {
				total += c.set(f.SelectionSet, data, actual)
			}
		}
	}
	return total
}

func (c *coster) field(f *ast.Field, data any, actual bool) int {
	if f.SelectionSet == nil {
		return 0
	}
	var v any
	if actual {
		m, _ := data.(map[string]any)
		key := f.Name.Value
		if f.Alias != nil {
			key = f.Alias.Value
		}
		if v = m[key]; v == nil {
			return 0
		}
	}
	if nodeSel, edges := connectionNode(f.SelectionSet); nodeSel != nil || edges {
		if !actual {
			return 2 + c.intArg(f, "first")*(1+c.set(nodeSel, nil, false))
		}
		cost := 2
		m, _ := v.(map[string]any)
		list, _ := m["nodes"].([]any)
		if es, ok := m["edges"].([]any); ok {
			list = list[:0:0]
			for _, e := range es {
				em, _ := e.(map[string]any)
				list = append(list, em["node"])
			}
		}
		for _, n := range list {
			cost += 1 + c.set(nodeSel, n, true)
		}
		return cost
	}
	if l, ok := v.([]any); ok {
		cost := 0
		for _, e := range l {
			cost += 1 + c.set(f.SelectionSet, e, true)
		}
		return cost
	}
	return 1 + c.set(f.SelectionSet, v, actual)
}

// connectionNode finds the node selection of a connection field: edges { node
// {…} } or nodes {…}. isConn is true when edges or nodes is selected at all.
func connectionNode(ss *ast.SelectionSet) (node *ast.SelectionSet, isConn bool) {
	for _, sel := range ss.Selections {
		f, ok := sel.(*ast.Field)
		if !ok {
			continue
		}
		switch f.Name.Value {
		case "nodes":
			return f.SelectionSet, true
		case "edges":
			isConn = true
			if f.SelectionSet != nil {
				for _, e := range f.SelectionSet.Selections {
					if n, ok := e.(*ast.Field); ok && n.Name.Value == "node" {
						return n.SelectionSet, true
					}
				}
			}
		}
	}
	return nil, isConn
}

func (c *coster) intArg(f *ast.Field, name string) int {
	for _, a := range f.Arguments {
		if a.Name.Value != name {
			continue
		}
		switch v := a.Value.(type) {
		case *ast.IntValue:
			n, _ := strconv.Atoi(v.Value)
			return n
		case *ast.Variable:
			if x, ok := c.vars[v.Name.Value].(float64); ok {
				return int(x)
			}
		}
	}
	return 0
}
