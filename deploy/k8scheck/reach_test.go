package k8scheck

import (
	"net/netip"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestEveryConfiguredAddressIsReachable: for each overlay, every path a
// workload is configured to take (its gRPC backends, PostgreSQL, NATS, the
// SMTP relay, Firebase, Stripe, Shopify, the bucket, owners' websites) and
// the ingress controller's and Prometheus's ways in are allowed by both the
// source's egress and the target's ingress policies.
func TestEveryConfiguredAddressIsReachable(t *testing.T) {
	t.Parallel()
	for _, overlay := range Overlays {
		t.Run(overlay, func(t *testing.T) {
			objs := checked(t, overlay)
			blocked, paths, problems := Reachability(objs)
			for _, p := range problems {
				t.Error(p)
			}
			for _, b := range blocked {
				t.Errorf("blocked: %s", b)
			}
			// The paths must be the ones a cluster needs, not fewer: each
			// program that reads DATABASE_URL or NATS_URL, each gRPC
			// backend, both Ingresses' backends.
			count := map[string]map[string]bool{}
			for _, p := range paths {
				key := p.For
				if strings.HasPrefix(key, "Ingress ") {
					key = "Ingress"
				}
				if count[key] == nil {
					count[key] = map[string]bool{}
				}
				count[key][p.From.Name+">"+p.To.Name] = true
			}
			for key, want := range map[string]int{"DATABASE_URL": 9, "NATS_URL": 10, "USERS_ADDR": 3, "REVIEW_ADDR": 1, "CATEGORIES_ADDR": 3, "SMTP_ADDR": 1, "Ingress": 2, "Firebase": 7, "metrics": 10, "DNS": 12} {
				if len(count[key]) < want {
					t.Errorf("%d paths for %s (%v), want at least %d", len(count[key]), key, count[key], want)
				}
			}
			// Production sends every program's spans to its collector;
			// the base (local) leaves tracing off.
			if n, want := len(count["OTEL_EXPORTER_OTLP_ENDPOINT"]), map[string]int{"production": 10}[overlay]; n != want {
				t.Errorf("%d paths to the trace collector (%v), want %d", n, count["OTEL_EXPORTER_OTLP_ENDPOINT"], want)
			}
			if _, local := count["NATS routes"]; local != (overlay == "local") {
				t.Errorf("NATS routes checked: %v, want only where NATS runs in the cluster (local)", local)
			}
			t.Logf("%d paths allowed", len(paths))
		})
	}
}

// TestReachabilityFindsABlockedPath: each change below is one a cluster's
// CNI would enforce as a refused connection, and the check must name it.
func TestReachabilityFindsABlockedPath(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, policy string
		change       func(*networkingv1.NetworkPolicy, map[string]string)
		want         []string
	}{
		{"the managed PostgreSQL's network in the policy's except", "postgres-clients",
			func(p *networkingv1.NetworkPolicy, ext map[string]string) {
				p.Spec.Egress[0].To[0].IPBlock.Except = []string{ext["POSTGRES_CIDR"]}
			},
			[]string{"users → postgres.db.example.internal", "studioworker → postgres.db.example.internal", "(DATABASE_URL)"}},
		{"a policy allowing only part of the managed PostgreSQL's network", "postgres-clients",
			func(p *networkingv1.NetworkPolicy, ext map[string]string) {
				half := netip.MustParsePrefix(ext["POSTGRES_CIDR"])
				p.Spec.Egress[0].To[0].IPBlock.CIDR = netip.PrefixFrom(half.Addr(), half.Bits()+1).String()
			},
			[]string{"review → postgres.db.example.internal"}},
		{"today's in-cluster rule for an operator-run NATS", "nats-clients",
			func(p *networkingv1.NetworkPolicy, _ map[string]string) {
				p.Spec.Egress[0].To[0].IPBlock = nil
				p.Spec.Egress[0].To[0].PodSelector = labelSelector("nats")
			},
			[]string{"gateway → nats.messaging.example.internal", "nats-setup → nats.messaging.example.internal"}},
		{"the wrong NATS port", "nats-clients",
			func(p *networkingv1.NetworkPolicy, _ map[string]string) { p.Spec.Egress[0].Ports[0].Port.IntVal = 4223 },
			[]string{"billing → nats.messaging.example.internal"}},
		{"the trace collector's network not the one its URL is in", "trace-exporters",
			func(p *networkingv1.NetworkPolicy, _ map[string]string) {
				p.Spec.Egress[0].To[0].IPBlock.CIDR = "10.131.0.0/24"
			},
			[]string{"gateway → otel-collector.observability.example.internal", "studioworker → otel-collector.observability.example.internal", "(OTEL_EXPORTER_OTLP_ENDPOINT)"}},
		{"DNS over TCP alone", "allow-dns",
			func(p *networkingv1.NetworkPolicy, _ map[string]string) {
				p.Spec.Egress[0].Ports = p.Spec.Egress[0].Ports[1:]
			},
			[]string{"studioworker → kube-dns:53/UDP (DNS)"}},
		{"a service that lets the gateway in no more", "users",
			func(p *networkingv1.NetworkPolicy, _ map[string]string) {
				p.Spec.Ingress[0].From = p.Spec.Ingress[0].From[1:]
			},
			[]string{"gateway → users:9001/TCP (USERS_ADDR): no ingress rule of users's policies"}},
	} {
		objs := checkedCopy(t, "production")
		var ext map[string]string
		for _, o := range objs {
			if cm, ok := o.Versioned.(*corev1.ConfigMap); ok && cm.Name == ExternalSettings {
				ext = cm.Data
			}
		}
		found := false
		for _, o := range objs {
			if p, ok := o.Versioned.(*networkingv1.NetworkPolicy); ok && p.Name == c.policy {
				c.change(p, ext)
				found = true
			}
		}
		if !found {
			t.Fatalf("%s: no NetworkPolicy %s", c.name, c.policy)
		}
		blocked, _, _ := Reachability(objs)
		all := strings.Join(blocked, "\n")
		for _, w := range c.want {
			if !strings.Contains(all, w) {
				t.Errorf("%s: blocked paths\n%s\nwant one containing %q", c.name, all, w)
			}
		}
	}
}

// checkedCopy is a rendered overlay a test may change.
func checkedCopy(t *testing.T, overlay string) []Object {
	objs := checked(t, overlay)
	out := make([]Object, len(objs))
	for i, o := range objs {
		o.Versioned = o.Versioned.DeepCopyObject()
		out[i] = o
	}
	return out
}

func labelSelector(app string) *metav1.LabelSelector {
	return &metav1.LabelSelector{MatchLabels: map[string]string{"app.kubernetes.io/name": app}}
}
