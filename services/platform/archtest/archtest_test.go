// Package archtest checks rules of the one event and transaction path
// that no behaviour test sees, because they are about how the
// services' code is put together: every event consumer goes through
// events.On or events.OnEach, ports decode nothing and run no SQL, there is
// one ValidationError, one way to dial another service, and every read says
// in its proto that it may be retried.
package archtest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// servicesDir is services/, seen from this package's folder.
var servicesDir = filepath.Join("..", "..")

// sourceFile is one parsed non-test file of a service.
type sourceFile struct {
	path string // from services/, with slashes
	fset *token.FileSet
	ast  *ast.File
}

// at is "path:line" of a node, for a failure message.
func (f sourceFile) at(n ast.Node) string {
	return f.path + ":" + strconv.Itoa(f.fset.Position(n.Pos()).Line)
}

// majorVersion is a module path's /vN suffix, which is not the package's name.
var majorVersion = regexp.MustCompile(`^v[0-9]+$`)

// localName is the name the file uses for the package at importPath, or ""
// when it does not import it.
func (f sourceFile) localName(importPath string) string {
	for _, spec := range f.ast.Imports {
		if p, _ := strconv.Unquote(spec.Path.Value); p == importPath {
			if spec.Name != nil {
				return spec.Name.Name
			}
			name := importPath[strings.LastIndex(importPath, "/")+1:]
			if majorVersion.MatchString(name) {
				// github.com/jackc/pgx/v5 is package pgx.
				rest := strings.TrimSuffix(importPath, "/"+name)
				name = rest[strings.LastIndex(rest, "/")+1:]
			}
			return name
		}
	}
	return ""
}

// serviceFiles parses every service's non-test Go files; the platform, which
// provides the one way, and generated code are left out.
func serviceFiles(t *testing.T) []sourceFile {
	t.Helper()
	return goFiles(t, func(rel string) bool { return rel == "platform" })
}

// goFiles parses the non-test Go files under services/ outside the folders
// skip reports (rel is from services/, with slashes).
func goFiles(t *testing.T, skip func(rel string) bool) []sourceFile {
	t.Helper()
	fset := token.NewFileSet()
	var files []sourceFile
	err := filepath.WalkDir(servicesDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(servicesDir, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if skip(rel) || d.Name() == "node_modules" || d.Name() == "testdata" || rel != "." && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files = append(files, sourceFile{path: rel, fset: fset, ast: f})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// A walk from the wrong folder would find nothing and pass.
	if len(files) < 100 {
		t.Fatalf("read %d service files under %s; the walk is not reaching the services", len(files), servicesDir)
	}
	return files
}

// calls reports each call pkg.Name(...) in f for a name in names, where pkg
// is the file's name for importPath.
func calls(f sourceFile, importPath string, names ...string) []string {
	pkg := f.localName(importPath)
	if pkg == "" {
		return nil
	}
	var found []string
	ast.Inspect(f.ast, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		if x, ok := sel.X.(*ast.Ident); ok && x.Name == pkg {
			for _, name := range names {
				if sel.Sel.Name == name {
					found = append(found, f.at(call)+": "+pkg+"."+name)
				}
			}
		}
		return true
	})
	return found
}

var sqlStatement = regexp.MustCompile(`(?i)\b(DELETE\s+FROM|INSERT\s+INTO|UPDATE\s+\w+\s+SET|SELECT\s[\s\S]+\sFROM)\b`)

// TestEveryConsumerGoesThroughOn: consumers were written four ways, three
// reaching past the app (a raw pgx.Tx handed to users' repository, DELETE
// FROM in a billing port). Now each goes through events.On or events.OnEach,
// which check the sender and decode the event, and a port hands the event to
// the app: no port decodes a payload, runs SQL or calls the database.
func TestEveryConsumerGoesThroughOn(t *testing.T) {
	var bad []string
	for _, f := range serviceFiles(t) {
		for _, c := range calls(f, "uplift.dev/platform/events", "Consume", "ConsumeEach") {
			bad = append(bad, c+" (consume with events.On or events.OnEach)")
		}
		if !strings.Contains(f.path, "/internal/ports/") {
			continue
		}
		for _, c := range calls(f, "google.golang.org/protobuf/proto", "Unmarshal") {
			bad = append(bad, c+" (a port decoding a payload: events.On decodes)")
		}
		ast.Inspect(f.ast, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BasicLit:
				if n.Kind == token.STRING && sqlStatement.MatchString(n.Value) {
					bad = append(bad, f.at(n)+": SQL in a port (storage belongs to the adapters, called by the app)")
				}
			case *ast.CallExpr:
				if sel, ok := n.Fun.(*ast.SelectorExpr); ok {
					switch sel.Sel.Name {
					case "Exec", "Query", "QueryRow", "SendBatch", "CopyFrom":
						bad = append(bad, f.at(n)+": ."+sel.Sel.Name+" in a port (storage belongs to the adapters, called by the app)")
					}
				}
			}
			return true
		})
	}
	sort.Strings(bad)
	if len(bad) > 0 {
		t.Errorf("%d places go around the one event path:\n%s", len(bad), strings.Join(bad, "\n"))
	}
}

// TestOneValidationError: five services had identical copies of a
// ValidationError type, each mapped to InvalidArgument by its own port. Each
// domain's ValidationError is now an alias of platform/validation.Error,
// which every port maps to grpcerr.InvalidField, so a new service cannot
// drift from it.
func TestOneValidationError(t *testing.T) {
	var bad []string
	aliases := 0
	for _, f := range serviceFiles(t) {
		ast.Inspect(f.ast, func(n ast.Node) bool {
			spec, ok := n.(*ast.TypeSpec)
			if !ok || spec.Name.Name != "ValidationError" {
				return true
			}
			sel, isSel := spec.Type.(*ast.SelectorExpr)
			if !spec.Assign.IsValid() || !isSel || sel.Sel.Name != "Error" {
				bad = append(bad, f.at(spec)+": a ValidationError of its own (alias validation.Error instead)")
				return true
			}
			if pkg, ok := sel.X.(*ast.Ident); !ok || pkg.Name != f.localName("uplift.dev/platform/validation") {
				bad = append(bad, f.at(spec)+": ValidationError aliases another Error than platform/validation's")
				return true
			}
			aliases++
			return true
		})
	}
	if len(bad) > 0 {
		t.Errorf("%d ValidationError types beside platform/validation.Error:\n%s", len(bad), strings.Join(bad, "\n"))
	} else if aliases == 0 {
		t.Error("no domain names ValidationError any more; is this test still looking in the right place?")
	}
}

// TestOneWayToDialAService: four places copied the caller's "authorization"
// metadata onto their outgoing calls by hand, each a little differently, and
// the studio dialled with grpc.NewClient, without the reconnect backoff.
// grpcclient.New now dials every service and forwards the caller's identity
// on every call; outside it (and the test helpers, which dial as a browser
// would) no code under services/, the platform included, dials or puts an
// authorization on an outgoing call.
func TestOneWayToDialAService(t *testing.T) {
	var bad []string
	files := goFiles(t, func(rel string) bool {
		return rel == "platform/grpcclient" || strings.HasSuffix(rel, "test")
	})
	for _, f := range files {
		for _, c := range calls(f, "google.golang.org/grpc", "NewClient", "Dial", "DialContext") {
			bad = append(bad, c+" (dial with grpcclient.New)")
		}
		if len(calls(f, "google.golang.org/grpc/metadata", "AppendToOutgoingContext", "NewOutgoingContext")) == 0 {
			continue
		}
		ast.Inspect(f.ast, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				if v, err := strconv.Unquote(lit.Value); err == nil && strings.EqualFold(v, "authorization") {
					bad = append(bad, f.at(lit)+`: "authorization" in a file that sets outgoing metadata (grpcclient.New forwards the caller's)`)
				}
			}
			return true
		})
	}
	sort.Strings(bad)
	if len(bad) > 0 {
		t.Errorf("%d places go around grpcclient:\n%s", len(bad), strings.Join(bad, "\n"))
	}
}
