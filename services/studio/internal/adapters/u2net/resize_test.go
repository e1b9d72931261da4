package u2net

import (
	"math"
	"os"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"

	"uplift.dev/studio/internal/pipeline"
	"uplift.dev/studio/internal/testphotos"
)

// assets are the model files, or a skip (a failure in CI) without them,
// as load does in the package's other tests.
func assets(t *testing.T) (lib, model string) {
	t.Helper()
	lib, model = os.Getenv("STUDIO_ORT_LIB"), os.Getenv("STUDIO_MODEL")
	for _, p := range []string{lib, model} {
		if _, err := os.Stat(p); p == "" || err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("the studio's model assets are missing (STUDIO_ORT_LIB=%q STUDIO_MODEL=%q): run make studio-assets", lib, model)
			}
			t.Skip("STUDIO_ORT_LIB / STUDIO_MODEL not set: run make studio-assets")
		}
	}
	return lib, model
}

// opTypes counts the nodes of an ONNX model by operator.
func opTypes(t *testing.T, model []byte) map[string]int {
	t.Helper()
	count := map[string]int{}
	mfs, err := parseFields(model)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range mfs {
		if f.num != modelGraph {
			continue
		}
		for _, g := range mustFields(f.val) {
			if g.num != graphNode {
				continue
			}
			nd, err := parseNode(g.val)
			if err != nil {
				t.Fatal(err)
			}
			count[nd.op]++
		}
	}
	return count
}

// TestResizeRewriteKeepsTheMask: the fast layout's model has every one of
// u2netp's 38 Resize nodes given by scales (so ONNX Runtime's blocked
// layout runs through them: its optimised graph has 13 reorders instead
// of 107, the peak memory of a 1024² removal 359 → 285 MiB), and the model's
// output is the same as the file's to float rounding on the test photos.
func TestResizeRewriteKeepsTheMask(t *testing.T) {
	lib, model := assets(t)
	fast, err := Load(lib, model, Options{Threads: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer fast.Close()
	if fast.scaled != 38 {
		t.Fatalf("%d Resize nodes rewritten, want u2netp's 38", fast.scaled)
	}
	plain, err := Load(lib, model, Options{Threads: 2, plainResizes: true})
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	if plain.scaled != 0 {
		t.Fatalf("plainResizes: %d rewritten", plain.scaled)
	}
	for _, sc := range []testphotos.Scene{{Shape: "mug", Backdrop: "paper-shadow"}, {Shape: "bottle", Backdrop: "fabric"}} {
		img, _ := testphotos.Generate(sc, 512)
		in := pipeline.ModelInput(img)
		a, err := fast.Run(in)
		if err != nil {
			t.Fatal(err)
		}
		b, err := plain.Run(in)
		if err != nil {
			t.Fatal(err)
		}
		var worst float64
		for i := range a {
			worst = max(worst, math.Abs(float64(a[i]-b[i])))
		}
		t.Logf("%s/%s: largest difference in the saliency %.2g", sc.Shape, sc.Backdrop, worst)
		if worst > 1e-4 {
			t.Errorf("%s/%s: the rewritten model's saliency differs by %.2g, want ≤ 1e-4", sc.Shape, sc.Backdrop, worst)
		}
	}
}

// TestScaledResizesRefusesWhatItCannotFollow: a model whose sides the
// rewrite cannot follow (here a convolution with a stride) is an error,
// so Load keeps the file as it is, and a graph without Resize is
// rewritten to nothing. No assets needed.
func TestScaledResizesRefusesWhatItCannotFollow(t *testing.T) {
	node := func(op string, in, out []string, attrs ...[]byte) []byte {
		var b []byte
		for _, s := range in {
			b = appendBytes(b, nodeInput, []byte(s))
		}
		for _, s := range out {
			b = appendBytes(b, nodeOutput, []byte(s))
		}
		b = appendBytes(b, nodeOpType, []byte(op))
		for _, a := range attrs {
			b = appendBytes(b, nodeAttribute, a)
		}
		return b
	}
	ints := func(name string, v ...int64) []byte {
		var a []byte
		a = appendBytes(a, attrName, []byte(name))
		for _, x := range v {
			a = appendVarint(a, attrInts, uint64(x))
		}
		return a
	}
	graph := func(nodes ...[]byte) []byte {
		var g []byte
		for _, n := range nodes {
			g = appendBytes(g, graphNode, n)
		}
		var vi []byte
		vi = appendBytes(vi, 1, []byte("x"))
		g = appendBytes(g, graphInput, vi)
		var m []byte
		m = protowire.AppendTag(m, 1, protowire.VarintType)
		m = protowire.AppendVarint(m, 7)
		return appendBytes(m, modelGraph, g)
	}
	strided := graph(node("Conv", []string{"x", "w"}, []string{"y"},
		ints("kernel_shape", 3, 3), ints("pads", 1, 1, 1, 1), ints("strides", 2, 2)))
	if _, _, err := scaledResizes(strided, 320); err == nil || !strings.Contains(err.Error(), "stride") {
		t.Errorf("a strided convolution: %v, want an error naming the stride", err)
	}
	plain := graph(node("Conv", []string{"x", "w"}, []string{"y"},
		ints("kernel_shape", 3, 3), ints("pads", 1, 1, 1, 1), ints("strides", 1, 1)), node("Relu", []string{"y"}, []string{"z"}))
	if _, n, err := scaledResizes(plain, 320); err != nil || n != 0 {
		t.Errorf("no Resize: %d rewritten, %v; want 0 and no error", n, err)
	}
}
