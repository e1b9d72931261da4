package k8scheck

import (
	"cmp"
	"fmt"
	"net"
	"net/netip"
	"sort"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"
)

// Peer is one end of a connection: a workload's pod, a pod in another
// namespace (the ingress controller, Prometheus), or an address outside the
// cluster (Namespace empty).
type Peer struct {
	Name            string
	Namespace       string
	NamespaceLabels map[string]string
	Labels          map[string]string
	// NamedPorts are the pod's containers' port names, which a policy's
	// port may name.
	NamedPorts map[string]int32
	Addr       netip.Addr
}

func (p Peer) String() string {
	if p.Namespace == "" {
		return p.Name + " (" + p.Addr.String() + ")"
	}
	return p.Name
}

// Path is a connection a workload needs, and what it is for (the setting
// that names the address, or the external service). Protocol is TCP when
// empty.
type Path struct {
	From, To Peer
	Port     int32
	Protocol corev1.Protocol
	For      string
}

func (p Path) String() string {
	return fmt.Sprintf("%s → %s:%d/%s (%s)", p.From, p.To, p.Port, p.protocol(), p.For)
}

func (p Path) protocol() corev1.Protocol { return cmp.Or(p.Protocol, corev1.ProtocolTCP) }

// PublicAddr stands for any host on the internet (Firebase, Stripe,
// Shopify, an SMTP relay, owners' websites): an address in no private,
// link-local or CGNAT range (TEST-NET-2).
var PublicAddr = netip.MustParseAddr("198.51.100.7")

// Namespaces the base's policies let in: where the ingress controller and
// Prometheus run, and the labels their pods are assumed to carry.
var (
	IngressController = Peer{Name: "ingress-nginx", Namespace: "ingress-nginx",
		NamespaceLabels: map[string]string{"kubernetes.io/metadata.name": "ingress-nginx"},
		Labels:          map[string]string{"app.kubernetes.io/name": "ingress-nginx"}}
	Prometheus = Peer{Name: "prometheus", Namespace: "monitoring",
		NamespaceLabels: map[string]string{"kubernetes.io/metadata.name": "monitoring"},
		Labels:          map[string]string{"app.kubernetes.io/name": "prometheus"}}
	// ClusterDNS answers every pod's lookups: each address here is a name.
	ClusterDNS = Peer{Name: "kube-dns", Namespace: "kube-system",
		NamespaceLabels: map[string]string{"kubernetes.io/metadata.name": "kube-system"},
		Labels:          map[string]string{"k8s-app": "kube-dns"}}
)

// Egress is what the programs call outside the cluster that no setting in
// the manifests names (the SDKs' own hosts), by workload: https for
// Firebase's token keys and Admin SDK (every service),
// Stripe (billing), Shopify (stores), the studio bucket (studio and its
// worker), and owners' websites over http and https (review and its worker).
var Egress = map[string][]struct {
	Port int32
	For  string
}{
	"users":        {{443, "Firebase"}},
	"categories":   {{443, "Firebase"}},
	"billing":      {{443, "Firebase"}, {443, "Stripe"}},
	"digest":       {{443, "Firebase"}},
	"stores":       {{443, "Firebase"}, {443, "Shopify"}},
	"studio":       {{443, "Firebase"}, {443, "studio bucket"}},
	"review":       {{443, "Firebase"}, {80, "owners' websites"}, {443, "owners' websites"}},
	"reviewworker": {{80, "owners' websites"}, {443, "owners' websites"}},
	"studioworker": {{443, "studio bucket"}},
}

// ExternalSettings is the ConfigMap that says where what runs outside the
// cluster is: NAME_ADDR or NAME_URL beside NAME_CIDR, the network of its
// addresses, and POSTGRES_ADDR, where the DATABASE_URL Secrets point.
const ExternalSettings = "uplift-external"

// cluster is what the rendered objects say about pods, Services and
// settings.
type cluster struct {
	namespaceLabels map[string]map[string]string
	workloads       []workload
	services        map[string]*corev1.Service
	config          map[string]map[string]string // ConfigMap → key → value
	policies        []*networkingv1.NetworkPolicy
	ingresses       []*networkingv1.Ingress
	problems        []string
}

type workload struct {
	peer     Peer
	template *corev1.PodTemplateSpec
	nats     bool // a NATS server: its cluster port is for its peers
}

func newCluster(objs []Object) *cluster {
	c := &cluster{namespaceLabels: map[string]map[string]string{}, services: map[string]*corev1.Service{}, config: map[string]map[string]string{}}
	for _, o := range objs {
		switch v := o.Versioned.(type) {
		case *corev1.Namespace:
			l := map[string]string{"kubernetes.io/metadata.name": v.Name}
			for k, val := range v.Labels {
				l[k] = val
			}
			c.namespaceLabels[v.Name] = l
		case *corev1.Service:
			c.services[v.Name] = v
		case *corev1.ConfigMap:
			c.config[v.Name] = v.Data
		case *networkingv1.NetworkPolicy:
			c.policies = append(c.policies, v)
		case *networkingv1.Ingress:
			c.ingresses = append(c.ingresses, v)
		}
	}
	for _, o := range objs {
		meta, spec := PodTemplate(o.Versioned)
		if spec == nil {
			continue
		}
		ns := cmp.Or(o.Versioned.(metav1.Object).GetNamespace(), DefaultNamespace)
		p := Peer{Name: o.Name, Namespace: ns, NamespaceLabels: c.namespaceLabels[ns], Labels: meta.Labels, NamedPorts: map[string]int32{}}
		for _, ct := range spec.Containers {
			for _, port := range ct.Ports {
				if port.Name != "" {
					p.NamedPorts[port.Name] = port.ContainerPort
				}
			}
		}
		_, sts := o.Versioned.(*appsv1.StatefulSet)
		t := &corev1.PodTemplateSpec{ObjectMeta: *meta, Spec: *spec}
		c.workloads = append(c.workloads, workload{peer: p, template: t, nats: sts && p.NamedPorts["cluster"] != 0})
	}
	return c
}

// needs is every connection the rendered workloads are configured to make,
// and the ingress controller's and Prometheus's to them: each address a
// container reads from a ConfigMap (the services' gRPC addresses, NATS, the
// SMTP relay), PostgreSQL for each reader of DATABASE_URL, the Egress
// table, the Ingresses' backends, the scraped metrics ports and a NATS
// cluster's routes. Problems are addresses that lead nowhere (a Service
// without that port, a setting a ConfigMap lacks).
func (c *cluster) needs() ([]Path, []string) {
	var paths []Path
	for _, w := range c.workloads {
		seen := map[string]bool{}
		add := func(to []Peer, port int32, why string) {
			for _, t := range to {
				k := fmt.Sprint(t.Name, t.Addr, port, why)
				if !seen[k] {
					seen[k] = true
					paths = append(paths, Path{From: w.peer, To: t, Port: port, For: why})
				}
			}
		}
		for _, ct := range append(append([]corev1.Container{}, w.template.Spec.InitContainers...), w.template.Spec.Containers...) {
			for _, e := range ct.Env {
				switch ref := e.ValueFrom; {
				case ref != nil && ref.ConfigMapKeyRef != nil && addressSetting(ref.ConfigMapKeyRef.Key):
					v, ok := c.config[ref.ConfigMapKeyRef.Name][ref.ConfigMapKeyRef.Key]
					if !ok || v == "" && ref.ConfigMapKeyRef.Key == tracesSetting {
						// Optional or made outside the repository; or
						// tracing off.
						continue
					}
					to, port := c.resolve(v, e.Name)
					add(to, port, e.Name)
				case ref != nil && ref.SecretKeyRef != nil && e.Name == "DATABASE_URL":
					v, ok := c.config[ExternalSettings]["POSTGRES_ADDR"]
					if !ok {
						c.problems = append(c.problems, fmt.Sprintf("%s reads DATABASE_URL, but ConfigMap %s has no POSTGRES_ADDR saying where it points", w.peer.Name, ExternalSettings))
						continue
					}
					to, port := c.resolve(v, "POSTGRES_ADDR")
					add(to, port, "DATABASE_URL")
				}
			}
		}
		for _, proto := range []corev1.Protocol{corev1.ProtocolUDP, corev1.ProtocolTCP} {
			paths = append(paths, Path{From: w.peer, To: ClusterDNS, Port: 53, Protocol: proto, For: "DNS"})
		}
		for _, x := range Egress[w.peer.Labels["app.kubernetes.io/name"]] {
			add([]Peer{{Name: x.For, Addr: PublicAddr}}, x.Port, x.For)
		}
		if w.nats {
			add([]Peer{w.peer}, w.peer.NamedPorts["cluster"], "NATS routes")
		}
		if w.template.Annotations["prometheus.io/scrape"] == "true" {
			var port int32
			if _, err := fmt.Sscan(w.template.Annotations["prometheus.io/port"], &port); err == nil {
				paths = append(paths, Path{From: Prometheus, To: w.peer, Port: port, For: "metrics"})
			}
		}
	}
	for _, ing := range c.ingresses {
		for _, r := range ing.Spec.Rules {
			if r.HTTP == nil {
				continue
			}
			for _, p := range r.HTTP.Paths {
				s := p.Backend.Service
				if s == nil {
					continue
				}
				port := s.Port.Number
				if s.Port.Name != "" {
					port = c.servicePortNamed(s.Name, s.Port.Name)
				}
				to, target := c.service(s.Name, port, "Ingress "+ing.Name)
				for _, t := range to {
					paths = append(paths, Path{From: IngressController, To: t, Port: target, For: "Ingress " + ing.Name + " " + r.Host})
				}
			}
		}
	}
	return paths, c.problems
}

// addressSetting says whether a ConfigMap key holds an address a program
// connects to.
func addressSetting(key string) bool {
	return key == "NATS_URL" || key == tracesSetting || strings.HasSuffix(key, "_ADDR")
}

// tracesSetting is the OpenTelemetry collector's URL; empty (the base's)
// is tracing off, an address no program connects to.
const tracesSetting = "OTEL_EXPORTER_OTLP_ENDPOINT"

// resolve turns an address setting (dns:///users:9001, tls://nats:4222,
// smtp.example.com:587) into the peers it reaches and the port on them:
// a Service's pods, the network an external setting names, or the internet.
func (c *cluster) resolve(value, setting string) ([]Peer, int32) {
	hostport := value
	if _, rest, ok := strings.Cut(value, "://"); ok {
		hostport = strings.TrimPrefix(rest, "/")
	}
	host, portText, err := net.SplitHostPort(hostport)
	var port int32
	if err == nil {
		_, err = fmt.Sscan(portText, &port)
	}
	if err != nil {
		c.problems = append(c.problems, fmt.Sprintf("%s=%q is not host:port", setting, value))
		return nil, 0
	}
	name := host
	for _, suffix := range []string{".svc.cluster.local", ".svc", "." + DefaultNamespace} {
		name = strings.TrimSuffix(name, suffix)
	}
	if _, ok := c.services[name]; ok {
		return c.service(name, port, setting)
	}
	if a, err := netip.ParseAddr(host); err == nil {
		return []Peer{{Name: setting, Addr: a}}, port
	}
	if ext := c.config[ExternalSettings]; ext != nil {
		for k, v := range ext {
			base, ok := strings.CutSuffix(k, "_ADDR")
			if !ok {
				base, ok = strings.CutSuffix(k, "_URL")
			}
			if !ok || !strings.Contains(v, "//"+host+":") && !strings.HasPrefix(v, host+":") {
				continue
			}
			cidr, ok := ext[base+"_CIDR"]
			if !ok {
				continue
			}
			prefix, err := netip.ParsePrefix(cidr)
			if err != nil {
				c.problems = append(c.problems, fmt.Sprintf("%s %s_CIDR=%q: %v", ExternalSettings, base, cidr, err))
				return nil, 0
			}
			// Its first and last addresses: a policy must allow the whole
			// network, wherever in it the server's address is.
			first, last := prefix.Masked().Addr(), lastAddr(prefix)
			return []Peer{{Name: host, Addr: first}, {Name: host, Addr: last}}, port
		}
	}
	return []Peer{{Name: host, Addr: PublicAddr}}, port
}

func lastAddr(p netip.Prefix) netip.Addr {
	b := p.Masked().Addr().AsSlice()
	for i := p.Bits(); i < len(b)*8; i++ {
		b[i/8] |= 0x80 >> (i % 8)
	}
	a, _ := netip.AddrFromSlice(b)
	return a
}

// service is the pods a Service's port leads to and their port.
func (c *cluster) service(name string, port int32, why string) ([]Peer, int32) {
	svc := c.services[name]
	if svc == nil {
		c.problems = append(c.problems, fmt.Sprintf("%s names Service %s, which is not rendered", why, name))
		return nil, 0
	}
	var sp *corev1.ServicePort
	for i := range svc.Spec.Ports {
		if svc.Spec.Ports[i].Port == port {
			sp = &svc.Spec.Ports[i]
		}
	}
	if sp == nil {
		c.problems = append(c.problems, fmt.Sprintf("%s names port %d of Service %s, which has no such port", why, port, name))
		return nil, 0
	}
	sel := labels.SelectorFromSet(svc.Spec.Selector)
	var out []Peer
	target := port
	for _, w := range c.workloads {
		if w.peer.Namespace != cmp.Or(svc.Namespace, DefaultNamespace) || len(svc.Spec.Selector) == 0 || !sel.Matches(labels.Set(w.peer.Labels)) {
			continue
		}
		switch sp.TargetPort.Type {
		case intstr.Int:
			if sp.TargetPort.IntVal != 0 {
				target = sp.TargetPort.IntVal
			}
		case intstr.String:
			target = w.peer.NamedPorts[sp.TargetPort.StrVal]
		}
		out = append(out, w.peer)
	}
	if len(out) == 0 {
		c.problems = append(c.problems, fmt.Sprintf("%s: Service %s selects no workload", why, name))
	}
	return out, target
}

func (c *cluster) servicePortNamed(service, port string) int32 {
	if svc := c.services[service]; svc != nil {
		for _, p := range svc.Spec.Ports {
			if p.Name == port {
				return p.Port
			}
		}
	}
	return 0
}

// blocked says which NetworkPolicies refuse p, or "" when they allow it:
// the source's egress, then the target's ingress, each allowed when no
// policy of that direction selects the pod or one of those that do has a
// rule whose peers and ports match. Only the rendered namespace's policies
// are known: the other end's own namespace (the ingress controller's, the
// internet) is taken to let it through.
func (c *cluster) blocked(p Path) string {
	var why []string
	if p.From.Namespace != "" && !c.allows(p.From, networkingv1.PolicyTypeEgress, p.To, p) {
		why = append(why, "no egress rule of "+p.From.Name+"'s policies lets it out to "+p.To.String())
	}
	if p.To.Namespace != "" && !c.allows(p.To, networkingv1.PolicyTypeIngress, p.From, p) {
		why = append(why, "no ingress rule of "+p.To.Name+"'s policies lets "+p.From.String()+" in")
	}
	return strings.Join(why, "; ")
}

// allows evaluates the policies that select subject, p's one end, in one
// direction: whether other, the far end, may take p.
func (c *cluster) allows(subject Peer, dir networkingv1.PolicyType, other Peer, p Path) bool {
	selected := false
	for _, pol := range c.policies {
		if cmp.Or(pol.Namespace, DefaultNamespace) != subject.Namespace || !hasType(pol, dir) || !matches(&pol.Spec.PodSelector, subject.Labels) {
			continue
		}
		selected = true
		if dir == networkingv1.PolicyTypeEgress {
			for _, r := range pol.Spec.Egress {
				if portsMatch(r.Ports, p) && peersMatch(r.To, pol.Namespace, other) {
					return true
				}
			}
		} else {
			for _, r := range pol.Spec.Ingress {
				if portsMatch(r.Ports, p) && peersMatch(r.From, pol.Namespace, other) {
					return true
				}
			}
		}
	}
	return !selected
}

func hasType(pol *networkingv1.NetworkPolicy, t networkingv1.PolicyType) bool {
	if len(pol.Spec.PolicyTypes) == 0 {
		// The API server's default: Ingress always, Egress when it has rules.
		return t == networkingv1.PolicyTypeIngress || len(pol.Spec.Egress) > 0
	}
	for _, pt := range pol.Spec.PolicyTypes {
		if pt == t {
			return true
		}
	}
	return false
}

func matches(sel *metav1.LabelSelector, l map[string]string) bool {
	s, err := metav1.LabelSelectorAsSelector(sel)
	return err == nil && s.Matches(labels.Set(l))
}

// portsMatch: no ports is every port; a named port is the destination
// pod's; a port without a protocol is TCP.
func portsMatch(ports []networkingv1.NetworkPolicyPort, path Path) bool {
	if len(ports) == 0 {
		return true
	}
	dst, port := path.To, path.Port
	for _, p := range ports {
		if ptr.Deref(p.Protocol, corev1.ProtocolTCP) != path.protocol() {
			continue
		}
		switch {
		case p.Port == nil:
			return true
		case p.Port.Type == intstr.String:
			if dst.NamedPorts[p.Port.StrVal] == port {
				return true
			}
		case p.EndPort != nil:
			if p.Port.IntVal <= port && port <= *p.EndPort {
				return true
			}
		case p.Port.IntVal == port:
			return true
		}
	}
	return false
}

// peersMatch: no peers is everyone. An ipBlock matches only addresses
// outside the cluster (what it means for pod addresses depends on the CNI,
// and no path here relies on it); a podSelector alone means the policy's
// own namespace.
func peersMatch(peers []networkingv1.NetworkPolicyPeer, ns string, other Peer) bool {
	if len(peers) == 0 {
		return true
	}
	ns = cmp.Or(ns, DefaultNamespace)
	for _, p := range peers {
		switch {
		case p.IPBlock != nil:
			if other.Namespace == "" && inBlock(p.IPBlock, other.Addr) {
				return true
			}
		case other.Namespace == "":
		case p.NamespaceSelector != nil:
			if matches(p.NamespaceSelector, other.NamespaceLabels) && (p.PodSelector == nil || matches(p.PodSelector, other.Labels)) {
				return true
			}
		case p.PodSelector != nil:
			if other.Namespace == ns && matches(p.PodSelector, other.Labels) {
				return true
			}
		}
	}
	return false
}

func inBlock(b *networkingv1.IPBlock, a netip.Addr) bool {
	cidr, err := netip.ParsePrefix(b.CIDR)
	if err != nil || !cidr.Contains(a) {
		return false
	}
	for _, e := range b.Except {
		if ex, err := netip.ParsePrefix(e); err == nil && ex.Contains(a) {
			return false
		}
	}
	return true
}

// Reachability is every needed path the policies block, each with why,
// sorted, and the addresses that lead nowhere.
func Reachability(objs []Object) (blocked []string, paths []Path, problems []string) {
	c := newCluster(objs)
	paths, problems = c.needs()
	for _, p := range paths {
		if why := c.blocked(p); why != "" {
			blocked = append(blocked, p.String()+": "+why)
		}
	}
	sort.Strings(blocked)
	return blocked, paths, problems
}
