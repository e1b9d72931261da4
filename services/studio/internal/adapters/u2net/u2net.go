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
}

var initOnce struct {
	sync.Once
	err error
}

// Load initialises ONNX Runtime from libPath (once per process) and opens
// the model at modelPath with threads intra-op threads.
func Load(libPath, modelPath string, threads int) (*Model, error) {
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
	opts, err := ort.NewSessionOptions()
	if err != nil {
		return nil, err
	}
	defer func() { _ = opts.Destroy() }()
	if threads > 0 {
		if err := opts.SetIntraOpNumThreads(threads); err != nil {
			return nil, err
		}
		if err := opts.SetInterOpNumThreads(1); err != nil {
			return nil, err
		}
	}
	// The first output (d0) is the fused, finest saliency map.
	s, err := ort.NewAdvancedSession(modelPath, []string{inputs[0].Name}, []string{outputs[0].Name},
		[]ort.Value{in}, []ort.Value{out}, opts)
	if err != nil {
		_ = in.Destroy()
		_ = out.Destroy()
		return nil, fmt.Errorf("model %s: %w", modelPath, err)
	}
	return &Model{session: s, in: in, out: out}, nil
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
