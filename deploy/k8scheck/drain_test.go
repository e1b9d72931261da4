package k8scheck

import (
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
)

// ServerStop bounds how long a Go server takes to stop once its drain is
// over: gRPC's graceful stop, then the metrics server's, 10 s each
// (services/platform/grpcserver; the gateway's one HTTP shutdown is 10 s).
const ServerStop = 20 * time.Second

// TestEveryServerDrainsBeforeItStops: a pod behind a Service keeps serving
// while its callers leave it and is not killed while it finishes. A Go
// server drains itself (SHUTDOWN_DRAIN_DELAY: it reports not ready and
// serves on), so its grace period must cover the drain and the stop; a
// server without that drain (the web) gets a preStop sleep, inside its
// grace period.
func TestEveryServerDrainsBeforeItStops(t *testing.T) {
	t.Parallel()
	for _, overlay := range Overlays {
		t.Run(overlay, func(t *testing.T) {
			objs := checked(t, overlay)
			config := map[string]map[string]string{}
			var services []*corev1.Service
			for _, o := range objs {
				switch v := o.Versioned.(type) {
				case *corev1.ConfigMap:
					config[v.Name] = v.Data
				case *corev1.Service:
					services = append(services, v)
				}
			}
			for _, o := range objs {
				d, ok := o.Versioned.(*appsv1.Deployment)
				if !ok {
					continue
				}
				pod := d.Spec.Template.Spec
				grace := time.Duration(*pod.TerminationGracePeriodSeconds) * time.Second
				served := false
				for _, s := range services {
					served = served || len(s.Spec.Selector) > 0 && labels.SelectorFromSet(s.Spec.Selector).Matches(labels.Set(d.Spec.Template.Labels))
				}
				for _, c := range pod.Containers {
					drain, drains := drainDelay(t, c, config)
					var sleep time.Duration
					if c.Lifecycle != nil && c.Lifecycle.PreStop != nil && c.Lifecycle.PreStop.Sleep != nil {
						sleep = time.Duration(c.Lifecycle.PreStop.Sleep.Seconds) * time.Second
					}
					switch {
					case drains && grace <= sleep+drain+ServerStop:
						t.Errorf("%s: grace period %s, but it drains for %s and may take %s more to stop", d.Name, grace, sleep+drain, ServerStop)
					case drains && served && drain == 0:
						t.Errorf("%s is behind a Service but SHUTDOWN_DRAIN_DELAY is 0: it stops before its callers leave it", d.Name)
					case !drains && served && sleep == 0:
						t.Errorf("%s is behind a Service with neither SHUTDOWN_DRAIN_DELAY nor a preStop sleep", d.Name)
					case !drains && grace <= sleep:
						t.Errorf("%s: preStop sleep %s is not inside its grace period %s", d.Name, sleep, grace)
					}
				}
			}
		})
	}
}

// drainDelay is the SHUTDOWN_DRAIN_DELAY a container is given, from its
// ConfigMap or its own value, and whether it reads one at all.
func drainDelay(t *testing.T, c corev1.Container, config map[string]map[string]string) (time.Duration, bool) {
	for _, e := range c.Env {
		if e.Name != "SHUTDOWN_DRAIN_DELAY" {
			continue
		}
		v := e.Value
		if ref := e.ValueFrom; ref != nil && ref.ConfigMapKeyRef != nil {
			v = config[ref.ConfigMapKeyRef.Name][ref.ConfigMapKeyRef.Key]
		}
		d, err := time.ParseDuration(v)
		if err != nil {
			t.Errorf("%s: SHUTDOWN_DRAIN_DELAY %q: %v", c.Name, v, err)
		}
		return d, true
	}
	return 0, false
}
