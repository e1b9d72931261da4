package k8scheck

import (
	"strings"
	"sync"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
)

// Overlays are what `kubectl apply -k` is run on: deploy/k8s/base is only
// their common part.
var Overlays = []string{"local", "production"}

var rendered sync.Map // overlay → func() ([]Object, error)

// checked renders an overlay and checks it, once per test binary: the
// tests share it and only read it.
func checked(t *testing.T, overlay string) []Object {
	t.Helper()
	f, _ := rendered.LoadOrStore(overlay, sync.OnceValues(func() ([]Object, error) {
		y, err := Render("../k8s/overlays/" + overlay)
		if err != nil {
			return nil, err
		}
		return Check(y)
	}))
	objs, err := f.(func() ([]Object, error))()
	if err != nil {
		t.Fatal(err)
	}
	return objs
}

// TestEveryManifestIsAcceptedByTheAPIServer renders each overlay and checks
// every object as the API server would admit it into a namespace that
// enforces the restricted Pod Security Standard.
func TestEveryManifestIsAcceptedByTheAPIServer(t *testing.T) {
	t.Parallel()
	for _, overlay := range Overlays {
		t.Run(overlay, func(t *testing.T) {
			objs := checked(t, overlay)
			kinds := map[string]int{}
			for _, o := range objs {
				kinds[o.Kind]++
				if ns, ok := o.Versioned.(*corev1.Namespace); ok && ns.Labels["pod-security.kubernetes.io/enforce"] != "restricted" {
					t.Errorf("namespace %s does not enforce the restricted Pod Security Standard the pods are checked against", ns.Name)
				}
				for _, p := range o.Problems {
					t.Errorf("%s %s: %s", o.Kind, o.Name, p)
				}
			}
			if kinds["Deployment"] < 8 || kinds["NetworkPolicy"] == 0 {
				t.Fatalf("rendered too little to be deploy/k8s: %v", kinds)
			}
			t.Logf("checked %d objects: %v", len(objs), kinds)
		})
	}
}

// TestOnlyTheLocalOverlayRunsPostgreSQLAndNATS: production's are outside
// the cluster (settings.env), so nothing of either may be rendered there.
func TestOnlyTheLocalOverlayRunsPostgreSQLAndNATS(t *testing.T) {
	t.Parallel()
	for overlay, want := range map[string]int{"local": 2, "production": 0} {
		n := 0
		for _, o := range checked(t, overlay) {
			if _, ok := o.Versioned.(*appsv1.StatefulSet); ok && (o.Name == "postgres" || o.Name == "nats") {
				n++
			}
		}
		if n != want {
			t.Errorf("%s renders %d of the PostgreSQL and NATS StatefulSets, want %d", overlay, n, want)
		}
	}
}

// TestCheckFindsWhatAClusterWouldRefuse: each mistake below is one a
// cluster refuses (or, for the misspelt field, silently ignores), and the
// check must name it.
func TestCheckFindsWhatAClusterWouldRefuse(t *testing.T) {
	t.Parallel()
	const good = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: demo
spec:
  selector:
    matchLabels: {app: demo}
  template:
    metadata:
      labels: {app: demo}
    spec:
      securityContext:
        runAsNonRoot: true
        seccompProfile: {type: RuntimeDefault}
      containers:
        - name: demo
          image: uplift/demo
          securityContext:
            allowPrivilegeEscalation: false
            capabilities: {drop: [ALL]}
          readinessProbe:
            httpGet: {path: /readyz, port: 8080}
            periodSeconds: 5
`
	for _, c := range []struct{ name, from, to, want string }{
		{"a misspelt field", "periodSeconds: 5", "periodSecond: 5", `unknown field "spec.template.spec.containers[0].readinessProbe.periodSecond"`},
		{"a selector that misses the pods", "matchLabels: {app: demo}", "matchLabels: {app: other}", "does not match template"},
		{"a root container", "runAsNonRoot: true", "runAsNonRoot: false", "runAsNonRoot != true"},
		{"an added capability", "drop: [ALL]", "drop: [ALL], add: [NET_ADMIN]", "unrestricted capabilities"},
		{"a bad name", "name: demo\nspec:", "name: Demo_1\nspec:", "metadata.name"},
	} {
		objs, err := Check([]byte(strings.Replace(good, c.from, c.to, 1)))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if len(objs) != 1 || !strings.Contains(strings.Join(objs[0].Problems, "\n"), c.want) {
			t.Errorf("%s: problems %q, want one containing %q", c.name, objs[0].Problems, c.want)
		}
	}
	objs, err := Check([]byte(good))
	if err != nil || len(objs) != 1 || len(objs[0].Problems) != 0 {
		t.Fatalf("the good Deployment: %+v %v", objs, err)
	}
}

// TestEveryDeploymentCanScaleAndBeDrained: each Deployment (and each other
// workload) runs as its own ServiceAccount, spreads its copies over nodes, is kept at most one copy
// down by a PodDisruptionBudget and scaled by a HorizontalPodAutoscaler
// from at least 2 copies, which alone sets the count (a Deployment that
// names replicas has them reset by every `kubectl apply`).
func TestEveryDeploymentCanScaleAndBeDrained(t *testing.T) {
	t.Parallel()
	for _, overlay := range Overlays {
		t.Run(overlay, func(t *testing.T) { scalesAndDrains(t, checked(t, overlay)) })
	}
}

func scalesAndDrains(t *testing.T, objs []Object) {
	accounts, budgets, scalers := map[string]bool{}, map[string]bool{}, map[string]*autoscalingv2.HorizontalPodAutoscaler{}
	for _, o := range objs {
		switch v := o.Versioned.(type) {
		case *corev1.ServiceAccount:
			accounts[v.Name] = true
		case *policyv1.PodDisruptionBudget:
			if v.Spec.MaxUnavailable != nil && v.Spec.MaxUnavailable.IntValue() == 1 && v.Spec.Selector != nil {
				budgets[v.Spec.Selector.MatchLabels["app.kubernetes.io/name"]] = true
			}
		case *autoscalingv2.HorizontalPodAutoscaler:
			if v.Spec.ScaleTargetRef.Kind == "Deployment" {
				scalers[v.Spec.ScaleTargetRef.Name] = v
			}
		}
	}
	n := 0
	for _, o := range objs {
		d, ok := o.Versioned.(*appsv1.Deployment)
		if !ok {
			continue
		}
		n++
		app := d.Spec.Template.Labels["app.kubernetes.io/name"]
		pod := d.Spec.Template.Spec
		if !accounts[pod.ServiceAccountName] || pod.ServiceAccountName != d.Name {
			t.Errorf("%s runs as ServiceAccount %q, want its own", d.Name, pod.ServiceAccountName)
		}
		if len(pod.TopologySpreadConstraints) == 0 {
			t.Errorf("%s does not spread its copies", d.Name)
		}
		if !budgets[app] {
			t.Errorf("%s has no PodDisruptionBudget of maxUnavailable 1", d.Name)
		}
		hpa := scalers[d.Name]
		switch {
		case hpa == nil:
			t.Errorf("%s has no HorizontalPodAutoscaler", d.Name)
		case hpa.Spec.MinReplicas == nil || *hpa.Spec.MinReplicas < 2 || hpa.Spec.MaxReplicas < *hpa.Spec.MinReplicas:
			t.Errorf("%s scales from %v to %d, want from at least 2", d.Name, hpa.Spec.MinReplicas, hpa.Spec.MaxReplicas)
		}
		// Defaulting makes a missing count 1.
		if hpa != nil && d.Spec.Replicas != nil && *d.Spec.Replicas != 1 {
			t.Errorf("%s names replicas (%d) beside its autoscaler", d.Name, *d.Spec.Replicas)
		}
	}
	if n < 8 {
		t.Fatalf("only %d Deployments rendered", n)
	}
	// The StatefulSets and the Job have their own identities too.
	for _, o := range objs {
		if _, ok := o.Versioned.(*appsv1.Deployment); ok {
			continue
		}
		if _, pod := PodTemplate(o.Versioned); pod != nil && (pod.ServiceAccountName != o.Name || !accounts[o.Name]) {
			t.Errorf("%s %s runs as ServiceAccount %q, want its own", o.Kind, o.Name, pod.ServiceAccountName)
		}
	}
}
