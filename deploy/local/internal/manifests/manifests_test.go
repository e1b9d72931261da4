// Package manifests checks deploy/k8s (its local overlay and the base)
// against itself: nothing there is applied to a cluster in CI, so a Service
// that targets a port no container has, a setting read from a key the
// ConfigMap lacks, or a backend the NetworkPolicies forgot would first be
// seen in production.
package manifests

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

type object = map[string]any

// get walks a path of map keys; a missing step gives nil.
func get(o any, path ...string) any {
	for _, p := range path {
		m, ok := o.(object)
		if !ok {
			return nil
		}
		o = m[p]
	}
	return o
}

func str(o any, path ...string) string { s, _ := get(o, path...).(string); return s }

func list(o any, path ...string) []any { l, _ := get(o, path...).([]any); return l }

// port is a port as manifests write it: a number or a name.
func port(v any) string {
	switch p := v.(type) {
	case int:
		return strconv.Itoa(p)
	case string:
		return p
	}
	return ""
}

// load reads every document of the local overlay's resources and of the
// kustomizations it builds on (deploy/k8s/base): the whole of what the
// local cluster runs, as written (the overlays' patches change only images
// and addresses, which nothing here checks).
func load(t *testing.T) []object {
	t.Helper()
	return loadKustomization(t, filepath.Join("..", "..", "..", "k8s", "overlays", "local"))
}

func loadKustomization(t *testing.T, dir string) []object {
	t.Helper()
	k, err := os.ReadFile(filepath.Join(dir, "kustomization.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var kust object
	if err := yaml.Unmarshal(k, &kust); err != nil {
		t.Fatal(err)
	}
	var docs []object
	for _, r := range list(kust, "resources") {
		path := filepath.Join(dir, r.(string))
		if fi, err := os.Stat(path); err == nil && fi.IsDir() {
			docs = append(docs, loadKustomization(t, path)...)
			continue
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("kustomization lists %s: %v", r, err)
		}
		dec := yaml.NewDecoder(bytes.NewReader(b))
		for {
			var d object
			err := dec.Decode(&d)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("%s: %v", r, err)
			}
			if d != nil {
				docs = append(docs, d)
			}
		}
	}
	return docs
}

// workload is a pod template's app name and its containers' ports.
type workload struct {
	app   string
	ports map[string]bool // by number and by name
	pod   object
}

func workloads(docs []object) map[string]workload {
	out := map[string]workload{}
	for _, d := range docs {
		switch str(d, "kind") {
		case "Deployment", "StatefulSet", "Job":
		default:
			continue
		}
		pod := get(d, "spec", "template").(object)
		w := workload{app: str(pod, "metadata", "labels", "app.kubernetes.io/name"), ports: map[string]bool{}, pod: pod}
		for _, c := range list(pod, "spec", "containers") {
			for _, p := range list(c, "ports") {
				w.ports[port(get(p, "containerPort"))] = true
				if n := str(p, "name"); n != "" {
					w.ports[n] = true
				}
			}
		}
		out[w.app] = w
	}
	return out
}

func TestManifestsReferToWhatExists(t *testing.T) {
	docs := load(t)
	apps := workloads(docs)
	config := map[string]map[string]bool{}
	services := map[string]map[string]bool{} // Service name → its ports
	headless := map[string]bool{}
	for _, d := range docs {
		switch str(d, "kind") {
		case "ConfigMap":
			keys := map[string]bool{}
			for k := range get(d, "data").(object) {
				keys[k] = true
			}
			config[str(d, "metadata", "name")] = keys
		case "Service":
			name := str(d, "metadata", "name")
			app := str(d, "spec", "selector", "app.kubernetes.io/name")
			w, ok := apps[app]
			if !ok {
				t.Errorf("Service %s selects app %q, which no workload is", name, app)
				continue
			}
			services[name] = map[string]bool{}
			headless[name] = str(d, "spec", "clusterIP") == "None"
			for _, p := range list(d, "spec", "ports") {
				services[name][port(get(p, "port"))] = true
				if tp := port(get(p, "targetPort")); tp != "" && !w.ports[tp] {
					t.Errorf("Service %s targets port %s, which %s's containers do not have", name, tp, app)
				}
			}
		}
	}

	for app, w := range apps {
		for _, c := range list(w.pod, "spec", "containers") {
			for _, probe := range []string{"startupProbe", "readinessProbe", "livenessProbe"} {
				for _, kind := range []string{"grpc", "httpGet", "tcpSocket"} {
					if p := port(get(c, probe, kind, "port")); p != "" && !w.ports[p] {
						t.Errorf("%s's %s checks port %s, which it does not open", app, probe, p)
					}
				}
			}
			for _, e := range list(c, "env") {
				ref := get(e, "valueFrom", "configMapKeyRef")
				if ref == nil {
					continue
				}
				// Maps made outside the repository (the NATS senders from
				// `devstack nats-keys`) are not checked.
				if keys, ok := config[str(ref, "name")]; ok && !keys[str(ref, "key")] {
					t.Errorf("%s reads %s from ConfigMap %s, which has no such key", app, str(ref, "key"), str(ref, "name"))
				}
			}
		}
	}

	// Every backend address the gateway is given is a headless Service's
	// port, named with dns:///: DNS then gives every ready pod and the
	// callers balance over them; a ClusterIP's one address would pin each
	// connection to one pod, and a copy added later would get no calls.
	addrs := 0
	for key := range config["uplift-config"] {
		if !backendAddr(key) {
			continue
		}
		addrs++
		target, ok := strings.CutPrefix(configValue(docs, key), "dns:///")
		if !ok {
			t.Errorf("uplift-config %s is %q, want dns:///service:port", key, configValue(docs, key))
			continue
		}
		host, p, err := net.SplitHostPort(target)
		if err != nil {
			t.Errorf("uplift-config %s: %v", key, err)
			continue
		}
		if !services[host][p] {
			t.Errorf("uplift-config %s is %s:%s, which no Service serves", key, host, p)
		}
		if !headless[host] {
			t.Errorf("Service %s (uplift-config %s) is not headless (clusterIP: None): callers would reach one pod", host, key)
		}
	}
	if addrs < 6 {
		t.Errorf("uplift-config has %d backend addresses, want the six services'", addrs)
	}
}

// backendAddr says whether an uplift-config key is a service's gRPC address
// (USERS_ADDR …); SMTP_ADDR is the relay outside the cluster.
func backendAddr(key string) bool {
	return strings.HasSuffix(key, "_ADDR") && key != "SMTP_ADDR"
}

func configValue(docs []object, key string) string {
	for _, d := range docs {
		if str(d, "kind") == "ConfigMap" && str(d, "metadata", "name") == "uplift-config" {
			return str(d, "data", key)
		}
	}
	return ""
}

// allows says whether the rules (a policy's ingress "from" or egress "to")
// let app through on port.
func allows(rules []any, side, app, p string) bool {
	for _, r := range rules {
		ports := list(r, "ports")
		portOK := len(ports) == 0
		for _, rp := range ports {
			portOK = portOK || port(get(rp, "port")) == p
		}
		if !portOK {
			continue
		}
		for _, peer := range list(r, side) {
			if str(peer, "podSelector", "matchLabels", "app.kubernetes.io/name") == app {
				return true
			}
		}
	}
	return false
}

// servicesOnly are the backend addresses only services call (no REST
// route reaches them), each with its callers.
var servicesOnly = map[string][]string{"REVIEW_ADDR": {"categories"}}

// TestNetworkPoliciesLetTheGatewayReachEveryBackend: the namespace denies
// all traffic but what the policies allow, so a service the gateway is
// pointed at must be allowed both out of the gateway and into the service.
func TestNetworkPoliciesLetTheGatewayReachEveryBackend(t *testing.T) {
	docs := load(t)
	policies := map[string]object{}
	for _, d := range docs {
		if str(d, "kind") == "NetworkPolicy" {
			if app := str(d, "spec", "podSelector", "matchLabels", "app.kubernetes.io/name"); app != "" {
				policies[app] = d
			}
		}
	}
	gateway, ok := policies["gateway"]
	if !ok {
		t.Fatal("no NetworkPolicy for the gateway")
	}
	checked := 0
	for _, d := range docs {
		if str(d, "kind") != "ConfigMap" || str(d, "metadata", "name") != "uplift-config" {
			continue
		}
		for key, v := range get(d, "data").(object) {
			if !backendAddr(key) {
				continue
			}
			host, p, _ := net.SplitHostPort(strings.TrimPrefix(fmt.Sprint(v), "dns:///"))
			checked++
			if callers, ok := servicesOnly[key]; ok {
				// Only the services named call it: the gateway is kept out.
				if allows(list(gateway, "spec", "egress"), "to", host, p) {
					t.Errorf("the gateway's policy lets it reach %s on %s (%s), which only services call", host, p, key)
				}
				for _, c := range callers {
					if !allows(list(policies[c], "spec", "egress"), "to", host, p) || !allows(list(policies[host], "spec", "ingress"), "from", c, p) {
						t.Errorf("the policies do not let %s reach %s on %s (%s)", c, host, p, key)
					}
				}
				continue
			}
			if !allows(list(gateway, "spec", "egress"), "to", host, p) {
				t.Errorf("the gateway's policy does not let it reach %s on %s (%s)", host, p, key)
			}
			backend, ok := policies[host]
			if !ok {
				t.Errorf("%s (%s) has no NetworkPolicy of its own", host, key)
				continue
			}
			if !allows(list(backend, "spec", "ingress"), "from", "gateway", p) {
				t.Errorf("%s's policy does not let the gateway in on %s", host, p)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no backend addresses in uplift-config")
	}
	// Every workload has a policy of its own.
	for app := range workloads(docs) {
		if _, ok := policies[app]; !ok {
			t.Errorf("workload %s has no NetworkPolicy selecting it", app)
		}
	}
}

// TestEachServiceMigratesInAStepOfItsOwn: a service's pods migrate its
// schema in an init container (`NAME migrate`) and the server itself only
// checks its schema (MIGRATED_BY_STEP=true); the workers beside a service
// never migrate (their binaries wait for the owner's migrations).
func TestEachServiceMigratesInAStepOfItsOwn(t *testing.T) {
	apps := workloads(load(t))
	for _, name := range []string{"users", "categories", "billing", "digest", "stores", "studio", "review"} {
		w, ok := apps[name]
		if !ok {
			t.Errorf("no workload for %s", name)
			continue
		}
		var migrates bool
		for _, c := range list(w.pod, "spec", "initContainers") {
			args := list(c, "args")
			migrates = migrates || (str(c, "image") == "uplift/"+name && len(args) == 1 && args[0] == "migrate")
		}
		if !migrates {
			t.Errorf("%s has no init container running `%s migrate`", name, name)
		}
		for _, c := range list(w.pod, "spec", "containers") {
			if str(c, "name") != name {
				continue
			}
			var off bool
			for _, e := range list(c, "env") {
				off = off || (str(e, "name") == "MIGRATED_BY_STEP" && str(e, "value") == "true")
			}
			if !off {
				t.Errorf("%s's server migrates at start too (MIGRATED_BY_STEP is not true)", name)
			}
		}
	}
}

// TestNATSServerIsTheOneTestedWith: the cluster runs the nats-server
// release every test embeds (deploy/local's go.mod), so what the tests
// found of its permissions, reloads and JetStream holds in production:
// either the upstream image of that release or our own (uplift/nats),
// which deploy/containers builds from the workspace's nats-server module.
func TestNATSServerIsTheOneTestedWith(t *testing.T) {
	mod, err := os.ReadFile(filepath.Join("..", "..", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	var tested string
	for _, line := range strings.Split(string(mod), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "github.com/nats-io/nats-server/v2" {
			tested = strings.TrimPrefix(f[1], "v")
		}
	}
	if tested == "" {
		t.Fatal("deploy/local/go.mod names no nats-server")
	}
	images, err := os.ReadFile(filepath.Join("..", "..", "..", "containers", "images.sh"))
	if err != nil {
		t.Fatal(err)
	}
	ours := strings.Contains(string(images), "\n  nats:static:github.com/nats-io/nats-server/v2\n")
	var n int
	for _, w := range workloads(load(t)) {
		for _, c := range list(w.pod, "spec", "containers") {
			img := str(c, "image")
			switch tag, upstream := strings.CutPrefix(img, "nats:"); {
			case img == "uplift/nats":
				n++
				if !ours {
					t.Errorf("the cluster runs uplift/nats, which deploy/containers/images.sh no longer builds from github.com/nats-io/nats-server/v2")
				}
			case upstream:
				n++
				if tag != tested && !strings.HasPrefix(tag, tested+"-") {
					t.Errorf("the cluster runs %s, the tests nats-server %s", img, tested)
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no nats-server container in deploy/k8s")
	}
}

// TestEachServiceConnectsAsItsOwnLogin: every container that reads
// DATABASE_URL (servers, their migrate steps, the workers) reads it from its
// service's own Secret, db-login-<service>, never a Secret another service
// reads too: a service's login has rights on its own schema alone.
func TestEachServiceConnectsAsItsOwnLogin(t *testing.T) {
	owner := map[string]string{"reviewworker": "review", "studioworker": "studio"}
	seen := map[string]bool{}
	for app, w := range workloads(load(t)) {
		service := app
		if o, ok := owner[app]; ok {
			service = o
		}
		for _, kind := range []string{"initContainers", "containers"} {
			for _, c := range list(w.pod, "spec", kind) {
				for _, e := range list(c, "env") {
					if str(e, "name") != "DATABASE_URL" {
						continue
					}
					ref := get(e, "valueFrom", "secretKeyRef")
					if name := str(ref, "name"); name != "db-login-"+service || str(ref, "key") != "DATABASE_URL" {
						t.Errorf("%s's %s reads DATABASE_URL from %s/%s, want db-login-%s/DATABASE_URL",
							app, str(c, "name"), name, str(ref, "key"), service)
					}
					seen[app] = true
				}
			}
		}
	}
	for _, app := range []string{"users", "categories", "billing", "digest", "stores", "studio", "review", "reviewworker", "studioworker"} {
		if !seen[app] {
			t.Errorf("%s reads no DATABASE_URL", app)
		}
	}
}
