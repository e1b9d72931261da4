// Package u2net runs the u2netp salient-object model through ONNX Runtime
// (github.com/yalue/onnxruntime_go, cgo, dlopen of libonnxruntime.so.1). It
// is only linked into the worker binary: a native crash or a memory spike
// here ends the worker, never the API.
package u2net

import (
	"context"
	"errors"
	"fmt"
	"image"
	"os"
	"path/filepath"
	"sync"

	ort "github.com/yalue/onnxruntime_go"

	"uplift.dev/studio/internal/pipeline"
)

// Model is one loaded u2netp session. Its preallocated tensors make Run
// unsafe to call concurrently, so Mask serialises calls; scale out with more
// worker processes.
type Model struct {
	mu      sync.Mutex
	session *ort.AdvancedSession
	in      *ort.Tensor[float32]
	out     *ort.Tensor[float32]
	// scaled is how many Resize nodes scaledResizes rewrote (0: the
	// model file as it is).
	scaled int
}

var initOnce struct {
	sync.Once
	err error
}

// Memory is how ONNX Runtime lays out the model's work, a trade between
// peak memory and speed (measured on the 1024² benchmark photo, three
// model runs and the pipeline, 2 cores; services/studio/README.md,
// "Memory"):
//
//   - MemoryFast (the default): the full graph optimisation, whose CPU
//     layout pass runs the convolutions in a blocked channel layout (the
//     fastest kernels), with the memory pattern off. The pattern plans one
//     block for every intermediate tensor of a run from the first run's
//     sizes and keeps it: about 190 MB more at the peak (555 MB → 366 MB
//     in BenchmarkRemoveBackground1024) and no faster on this model.
//     The model's Resize nodes are given by scales (scaledResizes), so
//     the blocked layout runs through them and the concatenations after
//     them instead of converting u2netp's 320² tensors in and out around
//     each (107 reorders → 13): 359–367 MiB → 285–302 MiB at the peak
//     (2026-12-07), at about 0.86× the model's CPU time.
//   - MemorySmall: the full optimisation without the layout pass (the
//     rewrite does not apply): about 279 MiB at the peak, at about 1.24×
//     the model's CPU time before the rewrite, about 1.4× the rewritten
//     fast layout's: no longer worth its time.
//
// Tried and not taken (same measure): the CPU arena off (malloc per
// tensor: 350–380 MB, but every 26–52 MB tensor is a fresh mmap, so page
// faults make a run about 1.3× slower; off together with the memory pattern
// it is 900 MB), an environment arena that grows by what is asked
// (kSameAsRequested) rather than powers of two (390 MB, no better than the
// session's own), one intra-op thread (373 MB, and a run on one core).
type Memory string

// The Memory choices (STUDIO_MODEL_MEMORY).
const (
	MemoryFast  Memory = "fast"
	MemorySmall Memory = "small"
)

// Options are the session's settings.
type Options struct {
	// Threads is ONNX Runtime's intra-op threads (0: its default, the
	// machine's cores).
	Threads int
	// Memory is the layout trade above ("" is MemoryFast).
	Memory Memory
	// plainResizes keeps the model file's Resize nodes as they are (the
	// fast layout without scaledResizes), for the test that compares the
	// two.
	plainResizes bool
}

// Load initialises ONNX Runtime from libPath (once per process) and opens
// the model at modelPath with o's settings.
func Load(libPath, modelPath string, o Options) (*Model, error) {
	if o.Memory != "" && o.Memory != MemoryFast && o.Memory != MemorySmall {
		return nil, fmt.Errorf("model memory %q: want %q or %q", o.Memory, MemoryFast, MemorySmall)
	}
	initOnce.Do(func() {
		ort.SetSharedLibraryPath(libPath)
		initOnce.err = ort.InitializeEnvironment()
	})
	if initOnce.err != nil {
		return nil, fmt.Errorf("onnxruntime %s: %w", libPath, initOnce.err)
	}
	inputs, outputs, err := ort.GetInputOutputInfo(modelPath)
	if err != nil {
		return nil, fmt.Errorf("model %s: %w", modelPath, err)
	}
	if len(inputs) != 1 || len(outputs) == 0 {
		return nil, fmt.Errorf("model %s: want 1 input and ≥1 output, got %d and %d", modelPath, len(inputs), len(outputs))
	}
	side := int64(pipeline.ModelSide)
	in, err := ort.NewEmptyTensor[float32](ort.NewShape(1, 3, side, side))
	if err != nil {
		return nil, err
	}
	out, err := ort.NewEmptyTensor[float32](ort.NewShape(1, 1, side, side))
	if err != nil {
		_ = in.Destroy()
		return nil, err
	}
	opts, err := sessionOptions(o)
	if err != nil {
		_ = in.Destroy()
		_ = out.Destroy()
		return nil, err
	}
	defer func() { _ = opts.Destroy() }()
	// The first output (d0) is the fused, finest saliency map.
	names, outNames := []string{inputs[0].Name}, []string{outputs[0].Name}
	var s *ort.AdvancedSession
	data, scaled, ok := blockedModel(modelPath, o, names, outNames)
	if ok {
		s, err = ort.NewAdvancedSessionWithONNXData(data, names, outNames, []ort.Value{in}, []ort.Value{out}, opts)
	} else {
		s, err = ort.NewAdvancedSession(modelPath, names, outNames, []ort.Value{in}, []ort.Value{out}, opts)
	}
	if err != nil {
		_ = in.Destroy()
		_ = out.Destroy()
		return nil, fmt.Errorf("model %s: %w", modelPath, err)
	}
	return &Model{session: s, in: in, out: out, scaled: scaled}, nil
}

// blockedModel is the model at modelPath with its Resize nodes given by
// scales (scaledResizes), so ONNX Runtime's blocked layout runs through
// them, for MemoryFast; ok is false for MemorySmall (which has no blocked
// layout) or when the model is not one the rewrite understands, and the
// file is used as it is.
func blockedModel(modelPath string, o Options, in, out []string) (data []byte, scaled int, ok bool) {
	if o.Memory == MemorySmall || o.plainResizes {
		return nil, 0, false
	}
	dir, err := os.MkdirTemp("", "u2net")
	if err != nil {
		return nil, 0, false
	}
	defer func() { _ = os.RemoveAll(dir) }()
	basic := filepath.Join(dir, "basic.onnx")
	opts, err := ort.NewSessionOptions()
	if err != nil {
		return nil, 0, false
	}
	defer func() { _ = opts.Destroy() }()
	if errors.Join(opts.SetGraphOptimizationLevel(ort.GraphOptimizationLevelEnableBasic),
		opts.SetIntraOpNumThreads(1), opts.SetOptimizedModelFilePath(basic)) != nil {
		return nil, 0, false
	}
	s, err := ort.NewDynamicAdvancedSession(modelPath, in, out, opts)
	if err != nil {
		return nil, 0, false
	}
	_ = s.Destroy()
	b, err := os.ReadFile(basic)
	if err != nil {
		return nil, 0, false
	}
	data, n, err := scaledResizes(b, pipeline.ModelSide)
	if err != nil || n == 0 {
		return nil, 0, false
	}
	return data, n, true
}

// sessionOptions are ONNX Runtime's settings for o (see Memory).
func sessionOptions(o Options) (*ort.SessionOptions, error) {
	opts, err := ort.NewSessionOptions()
	if err != nil {
		return nil, err
	}
	set := []error{opts.SetMemPattern(false)}
	if o.Threads > 0 {
		set = append(set, opts.SetIntraOpNumThreads(o.Threads), opts.SetInterOpNumThreads(1))
	}
	if o.Memory == MemorySmall {
		set = append(set, opts.SetGraphOptimizationLevel(ort.GraphOptimizationLevelEnableExtended))
	}
	if err := errors.Join(set...); err != nil {
		_ = opts.Destroy()
		return nil, err
	}
	return opts, nil
}

// Mask returns the model's mask for img, at img's size: pipeline.Look,
// the whole photo and then two closer looks at the product (three runs).
func (m *Model) Mask(ctx context.Context, img *image.NRGBA) (*image.Gray, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return pipeline.Look(img, m.Run)
}

// Run runs the model on one input tensor and returns a copy of its first
// output.
func (m *Model) Run(input []float32) ([]float32, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.session == nil {
		return nil, errors.New("u2net: model closed")
	}
	copy(m.in.GetData(), input)
	if err := m.session.Run(); err != nil {
		return nil, fmt.Errorf("u2net run: %w", err)
	}
	return append([]float32(nil), m.out.GetData()...), nil
}

// ScaledResizes is how many of the model's Resize nodes Load gave by
// scales so the blocked layout runs through them (see scaledResizes): 38
// for u2netp with MemoryFast, 0 when the file is used as it is.
func (m *Model) ScaledResizes() int { return m.scaled }

// Close releases the session.
func (m *Model) Close() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.session != nil {
		_ = m.session.Destroy()
		_ = m.in.Destroy()
		_ = m.out.Destroy()
		m.session = nil
	}
}
