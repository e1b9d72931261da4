// Package k8scheck checks deploy/k8s as a cluster would before running it:
// the kustomization rendered by kustomize itself, every object decoded
// strictly into its Kubernetes API type (an unknown or misspelt field such
// as `periodSecond` is an error, not silently dropped), defaulted and
// validated by the API server's own validation code, and every pod held to
// the "restricted" Pod Security Standard. No cluster is needed, so it runs
// in `make test` on any machine.
package k8scheck

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer/json"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	"k8s.io/kubernetes/pkg/apis/core"
	"k8s.io/kubernetes/pkg/registry/apps/deployment"
	"k8s.io/kubernetes/pkg/registry/apps/statefulset"
	"k8s.io/kubernetes/pkg/registry/autoscaling/horizontalpodautoscaler"
	"k8s.io/kubernetes/pkg/registry/batch/job"
	"k8s.io/kubernetes/pkg/registry/core/configmap"
	"k8s.io/kubernetes/pkg/registry/core/namespace"
	"k8s.io/kubernetes/pkg/registry/core/persistentvolumeclaim"
	"k8s.io/kubernetes/pkg/registry/core/secret"
	"k8s.io/kubernetes/pkg/registry/core/service"
	"k8s.io/kubernetes/pkg/registry/core/serviceaccount"
	"k8s.io/kubernetes/pkg/registry/networking/ingress"
	"k8s.io/kubernetes/pkg/registry/networking/networkpolicy"
	"k8s.io/kubernetes/pkg/registry/policy/poddisruptionbudget"
	psapi "k8s.io/pod-security-admission/api"
	pspolicy "k8s.io/pod-security-admission/policy"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"

	// The API groups deploy/k8s uses, with their defaulting and conversions.
	_ "k8s.io/kubernetes/pkg/apis/apps/install"
	_ "k8s.io/kubernetes/pkg/apis/autoscaling/install"
	_ "k8s.io/kubernetes/pkg/apis/batch/install"
	_ "k8s.io/kubernetes/pkg/apis/core/install"
	_ "k8s.io/kubernetes/pkg/apis/networking/install"
	_ "k8s.io/kubernetes/pkg/apis/policy/install"
)

// Render runs kustomize on dir as `kubectl apply -k dir` does and returns
// the objects it would apply, as YAML.
func Render(dir string) ([]byte, error) {
	m, err := krusty.MakeKustomizer(krusty.MakeDefaultOptions()).Run(filesys.MakeFsOnDisk(), dir)
	if err != nil {
		return nil, fmt.Errorf("kustomize %s: %w", dir, err)
	}
	return m.AsYaml()
}

// Object is one rendered object, typed, with what was found wrong in it.
type Object struct {
	Kind, Name string
	// Versioned is the object as decoded (e.g. *appsv1.Deployment), with
	// the API server's defaults applied.
	Versioned runtime.Object
	Problems  []string
}

// Check decodes every document of a multi-document YAML strictly and
// validates it. A document that cannot be decoded at all is an error; the
// problems of one that can are in its Object.
func Check(manifests []byte) ([]Object, error) {
	strict := json.NewSerializerWithOptions(json.DefaultMetaFactory, legacyscheme.Scheme, legacyscheme.Scheme,
		json.SerializerOptions{Yaml: true, Strict: true})
	reader := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(manifests)))
	var out []Object
	for {
		doc, err := reader.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		if len(bytes.TrimSpace(doc)) == 0 {
			continue
		}
		obj, gvk, err := strict.Decode(doc, nil, nil)
		if obj == nil {
			return out, fmt.Errorf("undecodable document: %w\n%s", err, firstLines(doc))
		}
		o := Object{Kind: gvk.Kind, Versioned: obj}
		if m, ok := obj.(metav1.Object); ok {
			o.Name = m.GetName()
		}
		if err != nil {
			// Strict decoding still returns the object, with the unknown
			// and duplicate fields as the error.
			o.Problems = append(o.Problems, err.Error())
		}
		legacyscheme.Scheme.Default(obj)
		o.Problems = append(o.Problems, validate(obj, gvk)...)
		o.Problems = append(o.Problems, restricted(obj)...)
		out = append(out, o)
	}
}

// strategies are the API server's own create steps for each kind that
// deploy/k8s uses: PrepareForCreate (e.g. a headless Service's clusterIPs,
// a Job's generated selector) then Validate.
var strategies = map[schema.GroupKind]rest.RESTCreateStrategy{
	{Kind: "Namespace"}:                                     namespace.Strategy,
	{Kind: "ConfigMap"}:                                     configmap.Strategy,
	{Kind: "Secret"}:                                        secret.Strategy,
	{Kind: "Service"}:                                       service.Strategy,
	{Kind: "ServiceAccount"}:                                serviceaccount.Strategy,
	{Kind: "PersistentVolumeClaim"}:                         persistentvolumeclaim.Strategy,
	{Group: "apps", Kind: "Deployment"}:                     deployment.Strategy,
	{Group: "apps", Kind: "StatefulSet"}:                    statefulset.Strategy,
	{Group: "batch", Kind: "Job"}:                           job.Strategy,
	{Group: "policy", Kind: "PodDisruptionBudget"}:          poddisruptionbudget.Strategy,
	{Group: "networking.k8s.io", Kind: "NetworkPolicy"}:     networkpolicy.Strategy,
	{Group: "networking.k8s.io", Kind: "Ingress"}:           ingress.Strategy,
	{Group: "autoscaling", Kind: "HorizontalPodAutoscaler"}: horizontalpodautoscaler.Strategy,
}

// DefaultNamespace is where an object that names none is created: the
// kustomization's namespace.
const DefaultNamespace = "uplift"

// validate creates obj as the API server would (rest.BeforeCreate on its
// internal form), without storing it.
func validate(obj runtime.Object, gvk *schema.GroupVersionKind) []string {
	strategy, ok := strategies[gvk.GroupKind()]
	if !ok {
		return []string{fmt.Sprintf("no API server strategy for %s: add it to k8scheck", gvk)}
	}
	internal, err := legacyscheme.Scheme.ConvertToVersion(obj, schema.GroupVersion{Group: gvk.Group, Version: runtime.APIVersionInternal})
	if err != nil {
		return []string{"convert: " + err.Error()}
	}
	m, err := meta.Accessor(internal)
	if err != nil {
		return []string{err.Error()}
	}
	rest.FillObjectMetaSystemFields(m)
	ns := ""
	if strategy.NamespaceScoped() {
		ns = cmp.Or(m.GetNamespace(), DefaultNamespace)
	}
	if svc, ok := internal.(*core.Service); ok && svc.Spec.ClusterIP != "" && len(svc.Spec.ClusterIPs) == 0 {
		// The Service storage, not its strategy, fills clusterIPs from
		// clusterIP (a headless Service's "None") before validating.
		svc.Spec.ClusterIPs = []string{svc.Spec.ClusterIP}
	}
	ctx := genericapirequest.WithNamespace(context.Background(), ns)
	// Declarative validation reads the request it runs for.
	ctx = genericapirequest.WithRequestInfo(ctx, &genericapirequest.RequestInfo{
		IsResourceRequest: true, Verb: "create", APIGroup: gvk.Group, APIVersion: gvk.Version,
		Resource: resource(gvk), Namespace: ns, Name: m.GetName(),
	})
	err = rest.BeforeCreate(strategy, ctx, internal)
	if err == nil {
		return nil
	}
	var status *apierrors.StatusError
	if !errors.As(err, &status) || status.ErrStatus.Details == nil || len(status.ErrStatus.Details.Causes) == 0 {
		return []string{err.Error()}
	}
	var out []string
	for _, c := range status.ErrStatus.Details.Causes {
		out = append(out, c.Field+": "+c.Message)
	}
	return out
}

// resource is kind's resource name, as a request's path has it.
func resource(gvk *schema.GroupVersionKind) string {
	plural, _ := meta.UnsafeGuessKindToResource(*gvk)
	return plural.Resource
}

// restricted holds a workload's pod template to the latest "restricted"
// Pod Security Standard, as a namespace labelled
// pod-security.kubernetes.io/enforce=restricted admits pods.
func restricted(obj runtime.Object) []string {
	meta, spec := PodTemplate(obj)
	if spec == nil {
		return nil
	}
	ev, err := pspolicy.NewEvaluator(pspolicy.DefaultChecks(), nil)
	if err != nil {
		return []string{"pod security: " + err.Error()}
	}
	var out []string
	for _, r := range ev.EvaluatePod(psapi.LevelVersion{Level: psapi.LevelRestricted, Version: psapi.LatestVersion()}, meta, spec) {
		if !r.Allowed {
			out = append(out, fmt.Sprintf("pod security (restricted): %s: %s", r.ForbiddenReason, r.ForbiddenDetail))
		}
	}
	return out
}

// PodTemplate is a workload's pod template, or nils for other objects.
func PodTemplate(obj runtime.Object) (*metav1.ObjectMeta, *corev1.PodSpec) {
	var t *corev1.PodTemplateSpec
	switch o := obj.(type) {
	case *appsv1.Deployment:
		t = &o.Spec.Template
	case *appsv1.StatefulSet:
		t = &o.Spec.Template
	case *batchv1.Job:
		t = &o.Spec.Template
	default:
		return nil, nil
	}
	return &t.ObjectMeta, &t.Spec
}

func firstLines(doc []byte) string {
	lines := bytes.SplitN(doc, []byte("\n"), 6)
	return string(bytes.Join(lines[:min(5, len(lines))], []byte("\n")))
}
