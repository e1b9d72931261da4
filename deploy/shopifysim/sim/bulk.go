package sim

import (
	"bytes"
	"encoding/json"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/graphql-go/graphql"
	"github.com/graphql-go/graphql/language/ast"
	"github.com/graphql-go/graphql/language/parser"
)

// Shopify's bulk query limits (API 2026-01+).
const (
	bulkMaxConnections = 5
	bulkMaxNesting     = 2 // nested connection levels below the top-level one
	bulkMaxConcurrent  = 5
)

type bulkOp struct {
	id                     int64
	sh                     *shop
	status, errorCode      string
	query                  string
	createdAt              time.Time
	completedAt            *time.Time
	objectCount, rootCount int64
	data                   []byte
	url                    string
	fail                   bool // a bulk-fail fault was pending when it started
}

func findBulk(sh *shop, id string) *bulkOp {
	n, ok := parseGID(id, "BulkOperation")
	if !ok {
		return nil
	}
	for _, b := range sh.bulks {
		if b.id == n {
			return b
		}
	}
	return nil
}

func (s *Server) startBulkLocked(sh *shop, query string) (*bulkOp, []any) {
	bad := func(msg string) (*bulkOp, []any) { return nil, []any{uerr([]string{"query"}, msg)} }
	doc, err := parser.Parse(parser.ParseParams{Source: query})
	if err != nil {
		return bad("Invalid bulk query: " + err.Error())
	}
	if vr := graphql.ValidateDocument(&s.schema, doc, nil); !vr.IsValid {
		return bad("Invalid bulk query: " + vr.Errors[0].Message)
	}
	var op *ast.OperationDefinition
	frags := map[string]*ast.FragmentDefinition{}
	for _, d := range doc.Definitions {
		switch d := d.(type) {
		case *ast.OperationDefinition:
			op = d
		case *ast.FragmentDefinition:
			frags[d.Name.Value] = d
		}
	}
	if op == nil || op.Operation != ast.OperationTypeQuery {
		return bad("Bulk queries must be queries, not mutations or subscriptions.")
	}
	conns, depth := countConnections(op.SelectionSet, frags, 0)
	switch {
	case conns == 0:
		return bad("Bulk queries must contain at least one connection.")
	case conns > bulkMaxConnections:
		return bad("Bulk queries cannot contain more than 5 connections.")
	case depth > bulkMaxNesting+1:
		return bad("Bulk queries cannot contain connections with a nesting depth greater than 2.")
	}
	running := 0
	for _, b := range sh.bulks {
		if b.status == "CREATED" || b.status == "RUNNING" {
			running++
		}
	}
	if running >= bulkMaxConcurrent {
		return bad("A bulk query operation for this app and shop is already in progress: " + gid("BulkOperation", sh.bulks[len(sh.bulks)-1].id) + ".")
	}
	s.bulkSeq++
	b := &bulkOp{id: s.bulkSeq, sh: sh, status: "CREATED", query: query, createdAt: s.now(), fail: sh.faults.Take("bulk-fail") != nil}
	s.bulks[b.id] = b
	sh.bulks = append(sh.bulks, b)
	s.wg.Add(1)
	go s.runBulk(b)
	return b, []any{}
}

// countConnections returns how many connection fields a selection holds and
// how deep they nest (1 = a top-level connection only).
func countConnections(ss *ast.SelectionSet, frags map[string]*ast.FragmentDefinition, level int) (n, depth int) {
	if ss == nil || level > 20 {
		return 0, 0
	}
	depth = 0
	for _, sel := range ss.Selections {
		var sub *ast.SelectionSet
		isConn := false
		switch sel := sel.(type) {
		case *ast.Field:
			sub = sel.SelectionSet
			if sub != nil {
				_, isConn = connectionNode(sub)
			}
		case *ast.InlineFragment:
			sub = sel.SelectionSet
		case *ast.FragmentSpread:
			if f, ok := frags[sel.Name.Value]; ok {
				sub = f.SelectionSet
			}
		}
		cn, cd := countConnections(sub, frags, level+1)
		if isConn {
			cn++
			cd++
		}
		n += cn
		depth = max(depth, cd)
	}
	return n, depth
}

func (s *Server) runBulk(b *bulkOp) {
	defer s.wg.Done()
	s.mu.Lock()
	if b.status == "CREATED" {
		b.status = "RUNNING"
	}
	s.mu.Unlock()
	if !s.sleep(s.o.BulkDelay) {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	b.completedAt = &now
	switch {
	case b.status == "CANCELING":
		b.status = "CANCELED"
	case b.fail:
		b.status, b.errorCode = "FAILED", "INTERNAL_SERVER_ERROR"
	default:
		res := graphql.Do(graphql.Params{Schema: s.schema, RequestString: b.query, Context: withInfo(s.ctx, &reqInfo{sh: b.sh, bulk: true})})
		data, _ := res.Data.(map[string]any)
		if len(res.Errors) > 0 || data == nil {
			b.status, b.errorCode = "FAILED", "INTERNAL_SERVER_ERROR"
			break
		}
		b.data, b.objectCount, b.rootCount = toJSONL(data)
		b.status = "COMPLETED"
		if b.objectCount > 0 {
			b.url = s.baseURL + "/_sim/bulk/" + strconv.FormatInt(b.id, 10) + ".jsonl"
		}
	}
	var code any
	if b.errorCode != "" {
		code = strings.ToLower(b.errorCode)
	}
	s.emitLocked(b.sh, "bulk_operations/finish", map[string]any{
		"admin_graphql_api_id": gid("BulkOperation", b.id), "completed_at": iso(now), "created_at": iso(b.createdAt),
		"error_code": code, "status": strings.ToLower(b.status), "type": "query",
	})
}

func (s *Server) cancelBulkLocked(sh *shop, id string) (*bulkOp, []any) {
	b := findBulk(sh, id)
	if b == nil {
		return nil, []any{uerr([]string{"id"}, "Bulk operation does not exist")}
	}
	if b.status != "CREATED" && b.status != "RUNNING" {
		return b, []any{uerr(nil, "A bulk operation cannot be canceled when it is "+strings.ToLower(b.status))}
	}
	b.status = "CANCELING"
	return b, []any{}
}

// connList returns the nodes of a connection value, or ok=false if v is not one.
func connList(v any) ([]any, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, false
	}
	if es, ok := m["edges"].([]any); ok {
		out := make([]any, 0, len(es))
		for _, e := range es {
			if em, ok := e.(map[string]any); ok {
				out = append(out, em["node"])
			}
		}
		return out, true
	}
	if ns, ok := m["nodes"].([]any); ok {
		return ns, true
	}
	return nil, false
}

// toJSONL flattens a result the way Shopify writes bulk files: every node of
// a connection is its own line, nested ones carry __parentId and follow their parent.
func toJSONL(data map[string]any) ([]byte, int64, int64) {
	var buf bytes.Buffer
	var objects, roots int64
	var emit func(node any, parent string)
	emit = func(node any, parent string) {
		m, ok := node.(map[string]any)
		if !ok {
			return
		}
		line := map[string]any{}
		var childKeys []string
		for k, v := range m {
			if _, isConn := connList(v); isConn {
				childKeys = append(childKeys, k)
				continue
			}
			line[k] = v
		}
		if parent != "" {
			line["__parentId"] = parent
		}
		b, _ := json.Marshal(line)
		buf.Write(b)
		buf.WriteByte('\n')
		objects++
		id, _ := m["id"].(string)
		sort.Strings(childKeys)
		for _, k := range childKeys {
			kids, _ := connList(m[k])
			for _, kid := range kids {
				emit(kid, id)
			}
		}
	}
	keys := make([]string, 0, len(data))
	for k := range data {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		nodes, _ := connList(data[k])
		for _, n := range nodes {
			roots++
			emit(n, "")
		}
	}
	return buf.Bytes(), objects, roots
}

func (s *Server) handleBulkFile(w http.ResponseWriter, r *http.Request) {
	idStr, ok := strings.CutSuffix(r.PathValue("file"), ".jsonl")
	id, err := strconv.ParseInt(idStr, 10, 64)
	s.mu.Lock()
	b := s.bulks[id]
	var data []byte
	if b != nil && b.status == "COMPLETED" {
		data = b.data
	}
	s.mu.Unlock()
	if !ok || err != nil || data == nil {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "application/jsonl")
	_, _ = w.Write(data)
}
