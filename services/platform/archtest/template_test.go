package archtest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// The rules below hold every service to the one template services/README.md
// draws: the same folders, one settings shape, one clock option, Caller in
// the domain, one consumer shape, one worker runtime, and imports that only
// run down the layers. Each rule reports a violation as a stable key (no
// line number) and where it is.

// violation is one break of a rule: key names it without a line number.
type violation struct{ key, at string }

// serviceNames are the services (folders of services/ with a go.mod),
// the platform kit aside.
func serviceNames(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir(servicesDir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if !e.IsDir() || e.Name() == "platform" {
			continue
		}
		if _, err := os.Stat(filepath.Join(servicesDir, e.Name(), "go.mod")); err == nil {
			out = append(out, e.Name())
		}
	}
	if len(out) < 5 {
		t.Fatalf("found services %v under %s; the walk is not reaching them", out, servicesDir)
	}
	return out
}

// report fails t with the violations of rule found.
func report(t *testing.T, rule string, found []violation) {
	t.Helper()
	var bad []string
	for _, v := range found {
		bad = append(bad, v.at+": "+v.key)
	}
	sort.Strings(bad)
	if len(bad) > 0 {
		t.Errorf("%d breaks of the service template (services/README.md), rule %s:\n%s", len(bad), rule, strings.Join(bad, "\n"))
	}
}

// layerOf is the template layer of a file at rel (from services/), or "".
func layerOf(rel string) (service, layer string) {
	parts := strings.Split(rel, "/")
	if len(parts) < 4 || parts[1] != "internal" {
		return "", ""
	}
	return parts[0], parts[2]
}

// mayNotImport says which of its own service's layers each layer never
// imports: imports run from service (the composition root) down through
// ports and adapters to app and domain, and never back up.
var mayNotImport = map[string][]string{
	"domain":   {"app", "ports", "adapters", "service", "worker"},
	"app":      {"ports", "adapters", "service", "worker"},
	"ports":    {"adapters", "service", "worker"},
	"adapters": {"ports", "service", "worker"},
}

// apiImport matches a service's generated API package.
var apiImport = regexp.MustCompile(`^uplift\.dev/proto/gen/uplift/([a-z]+)/v1$`)

// TestLayers: stores' app typed its ports in the Shopify adapter's types
// and matched on its errors (14 imports of internal/adapters/shopify from
// internal/app), categories' event port held the concrete postgres.Repo,
// the users adapter decided which events to emit. Now an app imports no
// adapter, a port no adapter (it calls the app, which holds the
// repository), no layer imports one above it, and an adapter converts from
// its own service's messages only in the ports: an adapter never imports
// its own service's gRPC API.
func TestLayers(t *testing.T) {
	var found []violation
	for _, f := range serviceFiles(t) {
		svc, layer := layerOf(f.path)
		banned, ok := mayNotImport[layer]
		if !ok {
			continue
		}
		pkg := filepath.ToSlash(filepath.Dir(f.path))
		for _, spec := range f.ast.Imports {
			p, _ := strconv.Unquote(spec.Path.Value)
			for _, b := range banned {
				if p == "uplift.dev/"+svc+"/internal/"+b || strings.HasPrefix(p, "uplift.dev/"+svc+"/internal/"+b+"/") {
					found = append(found, violation{"layers: " + pkg + " imports " + p, f.at(spec)})
				}
			}
			if m := apiImport.FindStringSubmatch(p); m != nil && m[1] == svc && layer == "adapters" {
				found = append(found, violation{"layers: " + pkg + " imports " + p, f.at(spec)})
			}
		}
	}
	report(t, "layers", dedupe(found))
}

// TestPortsHoldNoStorage: studio's event port declared its own storage
// interface, taking the consumer's pgx.Tx, and called the repository with
// it, so the use case lived in the port. A port now declares no interface
// over a transaction: it binds the transaction to the app's EventStore
// (InTx) and calls the app.
func TestPortsHoldNoStorage(t *testing.T) {
	var found []violation
	for _, f := range serviceFiles(t) {
		if _, layer := layerOf(f.path); layer != "ports" {
			continue
		}
		pgx := f.localName("github.com/jackc/pgx/v5")
		if pgx == "" {
			continue
		}
		ast.Inspect(f.ast, func(n ast.Node) bool {
			spec, ok := n.(*ast.TypeSpec)
			if !ok {
				return true
			}
			iface, ok := spec.Type.(*ast.InterfaceType)
			if !ok {
				return true
			}
			for _, m := range iface.Methods.List {
				if fn, ok := m.Type.(*ast.FuncType); ok && takes(fn, pgx, "Tx") {
					found = append(found, violation{"ports: " + filepath.ToSlash(filepath.Dir(f.path)) + " declares " +
						spec.Name.Name + ", storage over a transaction (the app's EventStore, bound by InTx)", f.at(spec)})
					break
				}
			}
			return true
		})
	}
	report(t, "ports", found)
}

// takes reports whether fn has a parameter of type pkg.name.
func takes(fn *ast.FuncType, pkg, name string) bool {
	for _, p := range fn.Params.List {
		if sel, ok := p.Type.(*ast.SelectorExpr); ok && sel.Sel.Name == name {
			if x, ok := sel.X.(*ast.Ident); ok && x.Name == pkg {
				return true
			}
		}
	}
	return false
}

// TestPlatformKnowsNoService: platform/categoryaccess imported the
// categories API. The platform kit is what every service shares; it
// imports no service's package and no service's gRPC API (the events'
// payloads are the bus's, not a service's), tests included.
func TestPlatformKnowsNoService(t *testing.T) {
	names := serviceNames(t)
	var found []violation
	for _, f := range platformFiles(t) {
		pkg := filepath.ToSlash(filepath.Dir(f.path))
		for _, spec := range f.ast.Imports {
			p, _ := strconv.Unquote(spec.Path.Value)
			known := false
			if m := apiImport.FindStringSubmatch(p); m != nil && m[1] != "events" {
				known = true
			}
			for _, s := range names {
				if p == "uplift.dev/"+s || strings.HasPrefix(p, "uplift.dev/"+s+"/") {
					known = true
				}
			}
			if known {
				found = append(found, violation{"platform: " + pkg + " imports " + p, f.at(spec)})
			}
		}
	}
	report(t, "platform", dedupe(found))
}

// TestEachProgramDeclaresWhatItReads: platform/events listed every
// service's consumers and listeners, so one service adding a consumer
// edited the kit. The kit now holds the table and no entry: a program's
// consumers and listeners are declared in its own module's package bus, in
// its own name, and nowhere else (the kit's tests declare their own).
func TestEachProgramDeclaresWhatItReads(t *testing.T) {
	programs := append(serviceNames(t), "gateway")
	var found []violation
	declares := func(call *ast.CallExpr) (fn, program string, ok bool) {
		switch f := call.Fun.(type) {
		case *ast.Ident:
			fn = f.Name
		case *ast.SelectorExpr:
			fn = f.Sel.Name
		}
		switch fn {
		case "declare", "Declare", "listen", "DeclareListener":
		default:
			return "", "", false
		}
		if len(call.Args) == 0 {
			return fn, "", true
		}
		lit, isLit := call.Args[0].(*ast.BasicLit)
		if !isLit || lit.Kind != token.STRING {
			return fn, "", true
		}
		program, _ = strconv.Unquote(lit.Value)
		return fn, program, true
	}
	for _, f := range append(fullyParsed(t, filepath.Join(servicesDir, "platform")), fullyParsed(t, filepath.Join(servicesDir, "..", "gateway"))...) {
		if strings.HasSuffix(f.path, "_test.go") {
			continue
		}
		ast.Inspect(f.ast, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			fn, program, ok := declares(call)
			if !ok {
				return true
			}
			if strings.HasPrefix(f.path, "platform/") {
				if slices.Contains(programs, program) {
					found = append(found, violation{"the kit declares " + program + "'s " + fn, f.at(call)})
				}
			} else if _, isSel := call.Fun.(*ast.SelectorExpr); isSel && (!strings.HasPrefix(f.path, "../gateway/bus/") || program != "gateway") {
				found = append(found, violation{fn + " for " + strconv.Quote(program) + " outside gateway/bus", f.at(call)})
			}
			return true
		})
	}
	for _, f := range serviceFiles(t) {
		for _, c := range calls(f, "uplift.dev/platform/events", "Declare", "DeclareListener") {
			service := strings.SplitN(f.path, "/", 2)[0]
			if !strings.HasPrefix(f.path, service+"/bus/") {
				found = append(found, violation{"a declaration outside " + service + "/bus", c})
			}
		}
		ast.Inspect(f.ast, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if _, isSel := call.Fun.(*ast.SelectorExpr); !isSel {
					return true
				}
				if fn, program, ok := declares(call); ok && program != strings.SplitN(f.path, "/", 2)[0] {
					found = append(found, violation{fn + " in another program's name " + strconv.Quote(program), f.at(call)})
				}
			}
			return true
		})
	}
	report(t, "each program declares what it reads", dedupe(found))
}

// fullyParsed parses every Go file under dir, tests included, with bodies;
// paths are from services/.
func fullyParsed(t *testing.T, dir string) []sourceFile {
	t.Helper()
	fset := token.NewFileSet()
	var out []sourceFile
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(servicesDir, path)
		out = append(out, sourceFile{path: filepath.ToSlash(rel), fset: fset, ast: f})
		return nil
	})
	if err != nil || len(out) < 20 {
		t.Fatalf("read %d files under %s: %v", len(out), dir, err)
	}
	return out
}

// platformFiles parses the platform kit's Go files, tests included.
func platformFiles(t *testing.T) []sourceFile {
	t.Helper()
	var out []sourceFile
	for _, f := range allGoFiles(t) {
		if strings.HasPrefix(f.path, "platform/") {
			out = append(out, f)
		}
	}
	return out
}

// TestEveryServiceHasTheTemplatesParts: six services were five variations
// of one template (settings in cmd, Wire(Deps), an exported clock field,
// SetClock, Caller in the app, consumers started by Run or six RunX). Each
// service now has the template's folders, a Settings embedding
// service.Base and a Wire(*Settings) that main hands to service.Main, an
// App with only unexported fields and a WithClock option, Caller (where it
// has one) in the domain, and, with an event port, one Consumers whose
// Workers() the composition root runs.
func TestEveryServiceHasTheTemplatesParts(t *testing.T) {
	files := serviceFiles(t)
	var found []violation
	for _, svc := range serviceNames(t) {
		for _, dir := range []string{"cmd/" + svc, "internal/domain", "internal/app", "internal/ports", "internal/adapters", "internal/service", "migrations", "bus"} {
			if st, err := os.Stat(filepath.Join(servicesDir, svc, dir)); err != nil || !st.IsDir() {
				found = append(found, violation{"folders: " + svc + " has no " + dir, svc})
			}
		}
		found = append(found, settingsShape(svc, files)...)
		found = append(found, appShape(svc, files)...)
		found = append(found, consumersShape(svc, files)...)
	}
	for _, rule := range []string{"folders", "settings", "app", "consumers"} {
		var mine []violation
		for _, v := range found {
			if strings.HasPrefix(v.key, rule+": ") {
				mine = append(mine, v)
			}
		}
		t.Run(rule, func(t *testing.T) { report(t, rule, mine) })
	}
	var callers []violation
	for _, f := range files {
		svc, layer := layerOf(f.path)
		if svc == "" || layer == "domain" {
			continue
		}
		for _, d := range f.ast.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.TYPE {
				for _, s := range g.Specs {
					if s.(*ast.TypeSpec).Name.Name == "Caller" {
						callers = append(callers, violation{"caller: " + svc + " declares Caller in internal/" + layer + " (it is the domain's)", f.at(s)})
					}
				}
			}
		}
	}
	t.Run("caller", func(t *testing.T) { report(t, "caller", callers) })
}

// in returns the files of svc's package dir (from services/).
func in(files []sourceFile, dir string) []sourceFile {
	var out []sourceFile
	for _, f := range files {
		if filepath.ToSlash(filepath.Dir(f.path)) == dir {
			out = append(out, f)
		}
	}
	return out
}

// settingsShape: internal/service declares Settings (embedding
// service.Base) and Wire(*Settings) service.Wire, and cmd/NAME/main.go
// calls service.Main(name, &cfg, &cfg.Base, migrations, Wire(&cfg)).
func settingsShape(svc string, files []sourceFile) []violation {
	var settings, wire, main bool
	for _, f := range in(files, svc+"/internal/service") {
		for _, d := range f.ast.Decls {
			switch d := d.(type) {
			case *ast.GenDecl:
				for _, s := range d.Specs {
					if ts, ok := s.(*ast.TypeSpec); ok && ts.Name.Name == "Settings" {
						if st, ok := ts.Type.(*ast.StructType); ok && embeds(st, "Base") {
							settings = true
						}
					}
				}
			case *ast.FuncDecl:
				if d.Recv == nil && d.Name.Name == "Wire" && len(d.Type.Params.List) == 1 && d.Type.Results != nil &&
					exprString(d.Type.Params.List[0].Type) == "*Settings" && exprString(d.Type.Results.List[0].Type) == "service.Wire" {
					wire = true
				}
			}
		}
	}
	for _, f := range in(files, svc+"/cmd/"+svc) {
		ast.Inspect(f.ast, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || exprString(call.Fun) != "service.Main" || len(call.Args) != 5 {
				return true
			}
			if inner, ok := call.Args[4].(*ast.CallExpr); ok && strings.HasSuffix(exprString(inner.Fun), ".Wire") &&
				strings.HasSuffix(exprString(call.Args[2]), ".Base") {
				main = true
			}
			return true
		})
	}
	var out []violation
	if !settings {
		out = append(out, violation{"settings: " + svc + "/internal/service has no `type Settings struct` embedding service.Base", svc})
	}
	if !wire {
		out = append(out, violation{"settings: " + svc + "/internal/service has no `func Wire(*Settings) service.Wire`", svc})
	}
	if !main {
		out = append(out, violation{"settings: " + svc + "/cmd/" + svc + "/main.go does not call service.Main(name, &cfg, &cfg.Base, …, Wire(&cfg))", svc})
	}
	return out
}

// appShape: internal/app's App has only unexported fields and a
// WithClock(clock.Clock) *App option; nothing else sets its clock.
func appShape(svc string, files []sourceFile) []violation {
	var out []violation
	withClock, app := false, false
	for _, f := range in(files, svc+"/internal/app") {
		for _, d := range f.ast.Decls {
			switch d := d.(type) {
			case *ast.GenDecl:
				for _, s := range d.Specs {
					ts, ok := s.(*ast.TypeSpec)
					if !ok || ts.Name.Name != "App" {
						continue
					}
					app = true
					st, ok := ts.Type.(*ast.StructType)
					if !ok {
						continue
					}
					for _, fld := range st.Fields.List {
						for _, n := range fld.Names {
							if n.IsExported() {
								out = append(out, violation{"app: " + svc + "/internal/app's App has the exported field " + n.Name + " (unexported, set by New or a With option)", f.at(n)})
							}
						}
						if len(fld.Names) == 0 {
							out = append(out, violation{"app: " + svc + "/internal/app's App embeds " + exprString(fld.Type) + " (unexported fields only)", f.at(fld)})
						}
					}
				}
			case *ast.FuncDecl:
				if d.Recv == nil || exprString(d.Recv.List[0].Type) != "*App" {
					continue
				}
				params := d.Type.Params.List
				if d.Name.Name == "WithClock" && len(params) == 1 && exprString(params[0].Type) == "clock.Clock" &&
					d.Type.Results != nil && exprString(d.Type.Results.List[0].Type) == "*App" {
					withClock = true
				} else if len(params) == 1 && exprString(params[0].Type) == "clock.Clock" {
					out = append(out, violation{"app: " + svc + "/internal/app sets the clock with " + d.Name.Name + " (WithClock is the one option)", f.at(d)})
				}
			}
		}
	}
	if !app {
		out = append(out, violation{"app: " + svc + "/internal/app has no `type App struct`", svc})
	}
	if !withClock {
		out = append(out, violation{"app: " + svc + "/internal/app has no `func (a *App) WithClock(clock.Clock) *App`", svc})
	}
	return out
}

// consumersShape: a service with an event port declares there one
// Consumers{Bus events.Bus, App *app.App, InTx func(pgx.Tx) app.EventStore}
// whose Workers() internal/service runs; no port type starts consumers
// with a Run method of its own.
func consumersShape(svc string, files []sourceFile) []violation {
	dir := svc + "/internal/ports/eventport"
	port := in(files, dir)
	if len(port) == 0 {
		return nil
	}
	var out []violation
	shape, workers := false, false
	for _, f := range port {
		for _, d := range f.ast.Decls {
			switch d := d.(type) {
			case *ast.GenDecl:
				for _, s := range d.Specs {
					ts, ok := s.(*ast.TypeSpec)
					if !ok || ts.Name.Name != "Consumers" {
						continue
					}
					if st, ok := ts.Type.(*ast.StructType); ok {
						fields := map[string]string{}
						for _, fld := range st.Fields.List {
							for _, n := range fld.Names {
								fields[n.Name] = exprString(fld.Type)
							}
						}
						shape = fields["Bus"] == "events.Bus" && fields["App"] == "*app.App" &&
							strings.HasPrefix(fields["InTx"], "func(pgx.Tx) app.")
					}
				}
			case *ast.FuncDecl:
				if d.Recv == nil {
					continue
				}
				recv := strings.TrimPrefix(exprString(d.Recv.List[0].Type), "*")
				if recv == "Consumers" && d.Name.Name == "Workers" && d.Type.Results != nil &&
					exprString(d.Type.Results.List[0].Type) == "[]func(context.Context) error" {
					workers = true
				}
				if strings.HasPrefix(d.Name.Name, "Run") {
					out = append(out, violation{"consumers: " + dir + " starts consumers with " + recv + "." + d.Name.Name + " (Consumers.Workers lists them)", f.at(d)})
				}
			}
		}
	}
	if !shape {
		out = append(out, violation{"consumers: " + dir + " has no `type Consumers struct` with Bus, App and InTx", dir})
	}
	if !workers {
		out = append(out, violation{"consumers: " + dir + " has no `func (Consumers) Workers() []func(context.Context) error`", dir})
	}
	called := false
	for _, f := range in(files, svc+"/internal/service") {
		ast.Inspect(f.ast, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Workers" {
					called = true
				}
			}
			return true
		})
	}
	if !called {
		out = append(out, violation{"consumers: " + svc + "/internal/service never runs Consumers.Workers()", svc})
	}
	return out
}

// TestOneWorkerRuntime: the two worker binaries built their runtime by
// hand, an errgroup in one and a bare goroutine in the other, each opening
// the pool, waiting for migrations and serving probes its own way.
// program.Worker does that once; outside the platform nothing relays the
// outbox, serves a worker's probes or waits for a schema itself.
func TestOneWorkerRuntime(t *testing.T) {
	var found []violation
	for _, f := range serviceFiles(t) {
		pkg := filepath.ToSlash(filepath.Dir(f.path))
		hand := false
		ast.Inspect(f.ast, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CompositeLit:
				if s := exprString(n.Type); s == "events.Relay" {
					hand = true
				}
			case *ast.CallExpr:
				switch exprString(n.Fun) {
				case "program.ServeHealth", "postgres.WaitMigrated", "service.Start":
					hand = true
				}
			}
			return true
		})
		if hand {
			found = append(found, violation{"worker: " + pkg + " builds a worker runtime by hand (events.Relay, ServeHealth): use program.Worker", f.path})
		}
	}
	report(t, "worker", dedupe(found))
}

// dedupe keeps the first violation of each key.
func dedupe(vs []violation) []violation {
	seen := map[string]bool{}
	var out []violation
	for _, v := range vs {
		if !seen[v.key] {
			seen[v.key] = true
			out = append(out, v)
		}
	}
	return out
}

// embeds reports whether st embeds a type named name (pkg.name or name).
func embeds(st *ast.StructType, name string) bool {
	for _, f := range st.Fields.List {
		if len(f.Names) == 0 && (exprString(f.Type) == name || strings.HasSuffix(exprString(f.Type), "."+name)) {
			return true
		}
	}
	return false
}

// exprString writes a type or call target as it reads in the source.
func exprString(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return exprString(e.X) + "." + e.Sel.Name
	case *ast.StarExpr:
		return "*" + exprString(e.X)
	case *ast.UnaryExpr:
		return e.Op.String() + exprString(e.X)
	case *ast.ArrayType:
		return "[]" + exprString(e.Elt)
	case *ast.FuncType:
		var ps, rs []string
		for _, p := range e.Params.List {
			for range max(1, len(p.Names)) {
				ps = append(ps, exprString(p.Type))
			}
		}
		if e.Results != nil {
			for _, r := range e.Results.List {
				rs = append(rs, exprString(r.Type))
			}
		}
		s := "func(" + strings.Join(ps, ", ") + ")"
		if len(rs) == 1 {
			s += " " + rs[0]
		} else if len(rs) > 1 {
			s += " (" + strings.Join(rs, ", ") + ")"
		}
		return s
	case *ast.MapType:
		return "map[" + exprString(e.Key) + "]" + exprString(e.Value)
	}
	return ""
}

// allGoFiles parses every Go file of the platform kit, tests included
// (generated and testdata folders aside).
func allGoFiles(t *testing.T) []sourceFile {
	t.Helper()
	files := fullyParsed(t, filepath.Join(servicesDir, "platform"))
	if len(files) < 50 {
		t.Fatalf("read %d platform files; the walk is not reaching the platform", len(files))
	}
	return files
}

// TestAdaptersDecideNoEvent: the users repository compared a user before
// and after a change to choose which events to record. The app says which
// events a change implies and the adapter writes them: in an adapter no
// events.Enqueue sits under a condition of its own (an `if` that is not
// about an error).
func TestAdaptersDecideNoEvent(t *testing.T) {
	var found []violation
	for _, f := range serviceFiles(t) {
		if _, layer := layerOf(f.path); layer != "adapters" {
			continue
		}
		pkg := f.localName("uplift.dev/platform/events")
		if pkg == "" {
			continue
		}
		var under []*ast.IfStmt
		var walk func(n ast.Node) bool
		walk = func(n ast.Node) bool {
			ifs, ok := n.(*ast.IfStmt)
			if ok && !mentions(ifs.Cond, "err") {
				under = append(under, ifs)
				ast.Inspect(ifs.Body, walk)
				if ifs.Else != nil {
					ast.Inspect(ifs.Else, walk)
				}
				under = under[:len(under)-1]
				return false
			}
			if call, ok := n.(*ast.CallExpr); ok && exprString(call.Fun) == pkg+".Enqueue" && len(under) > 0 {
				found = append(found, violation{"events: " + filepath.ToSlash(filepath.Dir(f.path)) +
					" decides whether to record an event: the app says which", f.at(under[len(under)-1])})
			}
			return true
		}
		ast.Inspect(f.ast, walk)
	}
	report(t, "events", dedupe(found))
}

// mentions reports whether e names the identifier name.
func mentions(e ast.Expr, name string) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Name == name {
			found = true
		}
		return !found
	})
	return found
}
