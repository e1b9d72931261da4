package k8scheck

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
)

// TestEveryManifestIsAcceptedByTheAPIServer renders deploy/k8s and checks
// every object as the API server would admit it into a namespace that
// enforces the restricted Pod Security Standard.
func TestEveryManifestIsAcceptedByTheAPIServer(t *testing.T) {
	t.Parallel()
	rendered, err := Render("../k8s")
	if err != nil {
		t.Fatal(err)
	}
	objs, err := Check(rendered)
	if err != nil {
		t.Fatal(err)
	}
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
	if kinds["Deployment"] < 8 || kinds["StatefulSet"] < 2 || kinds["NetworkPolicy"] == 0 {
		t.Fatalf("rendered too little to be deploy/k8s: %v", kinds)
	}
	t.Logf("checked %d objects: %v", len(objs), kinds)
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
