package u2net

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"google.golang.org/protobuf/encoding/protowire"
)

// u2netp upsamples with ONNX Resize nodes that take their output size
// from the tensor they are joined to (PyTorch's F.upsample(size=…),
// mode linear, pytorch_half_pixel). ONNX Runtime's blocked (NCHWc) CPU
// layout, which makes the convolutions fast, has a linear upsample of its
// own, but its layout pass takes a Resize only when the Resize gives
// constant integer scales and a coordinate mode it knows; a Resize
// given sizes stays in the plain layout, so the graph converts its
// tensors out of the blocked layout before every Resize and every
// Concat after one, and back before the next convolution (107 reorders,
// each a copy of a tensor of up to 52 MB at 320²), which is most of the
// model's peak memory (services/studio/README.md, "The worker's memory").
//
// scaledResizes rewrites such a model, after ONNX Runtime's basic
// optimisation has folded the sizes into constants (basicModel), so each
// Resize gives the same output through scales: sizes ÷ the input's side,
// which at the model's 320² are whole numbers (320 = 10 · 2⁵), and
// half_pixel, which is pytorch_half_pixel for any output longer than one
// pixel. The arithmetic is the same bilinear interpolation, so the
// saliency is the same to float rounding (TestResizeRewriteKeepsTheMask).
//
// It needs only the spatial side of each tensor, which it follows
// through the graph's operators from the input's side: a convolution
// with stride 1 keeps it (u2netp pads each by its dilation), a 2×2
// max-pool with ceil_mode halves it rounding up, Resize makes it its
// sizes, and every other operator keeps its first input's. Anything else
// (a stride, another pool, sizes that do not divide) is an error, and
// Load keeps the model as it was.

// ONNX's protobuf field numbers used here (onnx.proto).
const (
	modelGraph     = 7
	graphNode      = 1
	graphInit      = 5
	graphInput     = 11
	nodeInput      = 1
	nodeOutput     = 2
	nodeOpType     = 4
	nodeAttribute  = 5
	attrName       = 1
	attrS          = 4
	attrInts       = 8
	attrI          = 3
	attrType       = 20
	tensorDims     = 1
	tensorDataType = 2
	tensorInt64    = 7
	tensorName     = 8
	tensorRaw      = 9
	onnxFloat      = 1
	onnxInt64      = 7
	attrString     = 3
)

type field struct {
	num protowire.Number
	typ protowire.Type
	raw []byte // the whole field, tag included
	val []byte // a bytes field's value
	u   uint64 // a varint field's value
}

func parseFields(b []byte) ([]field, error) {
	var out []field
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return nil, protowire.ParseError(n)
		}
		m := protowire.ConsumeFieldValue(num, typ, b[n:])
		if m < 0 {
			return nil, protowire.ParseError(m)
		}
		f := field{num: num, typ: typ, raw: b[:n+m]}
		switch typ {
		case protowire.BytesType:
			f.val, _ = protowire.ConsumeBytes(b[n:])
		case protowire.VarintType:
			f.u, _ = protowire.ConsumeVarint(b[n:])
		}
		out = append(out, f)
		b = b[n+m:]
	}
	return out, nil
}

func appendBytes(b []byte, num protowire.Number, v []byte) []byte {
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendBytes(b, v)
}

func appendVarint(b []byte, num protowire.Number, v uint64) []byte {
	b = protowire.AppendTag(b, num, protowire.VarintType)
	return protowire.AppendVarint(b, v)
}

type onnxNode struct {
	fields       []field
	op           string
	in, out      []string
	attrs        map[string]field // AttributeProto fields by name
	attrFields   map[string][]field
	kernel, pads []int64
	strides      []int64
	ceil         int64
}

func parseNode(b []byte) (onnxNode, error) {
	fs, err := parseFields(b)
	if err != nil {
		return onnxNode{}, err
	}
	n := onnxNode{fields: fs, attrs: map[string]field{}, attrFields: map[string][]field{}}
	for _, f := range fs {
		switch f.num {
		case nodeInput:
			n.in = append(n.in, string(f.val))
		case nodeOutput:
			n.out = append(n.out, string(f.val))
		case nodeOpType:
			n.op = string(f.val)
		case nodeAttribute:
			afs, err := parseFields(f.val)
			if err != nil {
				return onnxNode{}, err
			}
			var name string
			for _, af := range afs {
				if af.num == attrName {
					name = string(af.val)
				}
			}
			n.attrs[name] = f
			n.attrFields[name] = afs
		}
	}
	return n, nil
}

// ints is an attribute's list of integers (packed or not).
func (n onnxNode) ints(name string) []int64 {
	var out []int64
	for _, f := range n.attrFields[name] {
		if f.num != attrInts {
			continue
		}
		if f.typ == protowire.VarintType {
			out = append(out, int64(f.u))
			continue
		}
		for b := f.val; len(b) > 0; {
			v, k := protowire.ConsumeVarint(b)
			if k < 0 {
				return nil
			}
			out = append(out, int64(v))
			b = b[k:]
		}
	}
	return out
}

func (n onnxNode) int(name string) (int64, bool) {
	for _, f := range n.attrFields[name] {
		if f.num == attrI {
			return int64(f.u), true
		}
	}
	return 0, false
}

func (n onnxNode) str(name string) string {
	for _, f := range n.attrFields[name] {
		if f.num == attrS {
			return string(f.val)
		}
	}
	return ""
}

// int64Tensor is an initializer's name and its int64 values, if it is one.
func int64Tensor(b []byte) (string, []int64, bool) {
	fs, err := parseFields(b)
	if err != nil {
		return "", nil, false
	}
	var name string
	var vals []int64
	var dt uint64
	for _, f := range fs {
		switch f.num {
		case tensorName:
			name = string(f.val)
		case tensorDataType:
			dt = f.u
		case tensorRaw:
			for r := f.val; len(r) >= 8; r = r[8:] {
				vals = append(vals, int64(binary.LittleEndian.Uint64(r)))
			}
		case tensorInt64:
			if f.typ == protowire.VarintType {
				vals = append(vals, int64(f.u))
				continue
			}
			for r := f.val; len(r) > 0; {
				v, k := protowire.ConsumeVarint(r)
				if k < 0 {
					return "", nil, false
				}
				vals = append(vals, int64(v))
				r = r[k:]
			}
		}
	}
	return name, vals, dt == onnxInt64
}

func floatTensor(name string, vals []float32) []byte {
	var b []byte
	b = appendVarint(b, tensorDims, uint64(len(vals)))
	b = appendVarint(b, tensorDataType, onnxFloat)
	b = appendBytes(b, tensorName, []byte(name))
	raw := make([]byte, 4*len(vals))
	for i, v := range vals {
		binary.LittleEndian.PutUint32(raw[4*i:], math.Float32bits(v))
	}
	return appendBytes(b, tensorRaw, raw)
}

// scaledResizes is model (ONNX, after basic optimisation) with each
// Resize given by sizes rewritten to integer scales and half_pixel, for
// an input of side×side; n is how many were rewritten.
func scaledResizes(model []byte, side int64) (out []byte, n int, err error) {
	mfs, err := parseFields(model)
	if err != nil {
		return nil, 0, err
	}
	var graph []field
	gi := -1
	for i, f := range mfs {
		if f.num == modelGraph {
			if graph, err = parseFields(f.val); err != nil {
				return nil, 0, err
			}
			gi = i
		}
	}
	if gi < 0 {
		return nil, 0, errors.New("no graph")
	}
	sizes := map[string][]int64{}
	inits := map[string]bool{}
	for _, f := range graph {
		if f.num == graphInit {
			if name, vals, ok := int64Tensor(f.val); ok {
				sizes[name] = vals
			}
			fs, _ := parseFields(f.val)
			for _, tf := range fs {
				if tf.num == tensorName {
					inits[string(tf.val)] = true
				}
			}
		}
	}
	// The spatial side of every tensor, from the graph's inputs on (the
	// nodes of a saved graph are in topological order).
	sideOf := map[string]int64{}
	for _, f := range graph {
		if f.num == graphInput {
			for _, vf := range mustFields(f.val) {
				if vf.num == 1 && !inits[string(vf.val)] {
					sideOf[string(vf.val)] = side
				}
			}
		}
	}
	var newGraph []byte
	var added [][]byte
	for _, f := range graph {
		if f.num != graphNode {
			if f.num != graphInit { // initializers go after the nodes, with the new ones
				newGraph = append(newGraph, f.raw...)
			}
			continue
		}
		nd, err := parseNode(f.val)
		if err != nil {
			return nil, 0, err
		}
		var s int64
		for _, in := range nd.in {
			if v, ok := sideOf[in]; ok {
				s = v
				break
			}
		}
		if s == 0 {
			return nil, 0, fmt.Errorf("%s node: no input of known side", nd.op)
		}
		switch nd.op {
		case "Conv":
			for _, st := range nd.ints("strides") {
				if st != 1 {
					return nil, 0, fmt.Errorf("Conv with stride %d", st)
				}
			}
			k, d, p := nd.ints("kernel_shape"), nd.ints("dilations"), nd.ints("pads")
			if len(k) != 2 || len(p) != 4 {
				return nil, 0, errors.New("Conv without kernel_shape or pads")
			}
			dil := int64(1)
			if len(d) == 2 {
				dil = d[0]
			}
			if k[0] != k[1] || p[0] != p[2] || p[0] != p[1] || p[0] != p[3] || 2*p[0] != dil*(k[0]-1) {
				return nil, 0, errors.New("Conv that changes the side")
			}
		case "MaxPool":
			k, st := nd.ints("kernel_shape"), nd.ints("strides")
			ceil, _ := nd.int("ceil_mode")
			if len(k) != 2 || k[0] != 2 || k[1] != 2 || len(st) != 2 || st[0] != 2 || st[1] != 2 || ceil != 1 || len(nd.ints("pads")) != 0 && nd.ints("pads")[0] != 0 {
				return nil, 0, errors.New("MaxPool other than 2×2, stride 2, ceil_mode")
			}
			s = (s + 1) / 2
		case "Resize":
			if len(nd.in) != 4 || nd.str("mode") != "linear" || nd.str("coordinate_transformation_mode") != "pytorch_half_pixel" {
				return nil, 0, errors.New("Resize other than linear, pytorch_half_pixel, by sizes")
			}
			sz, ok := sizes[nd.in[3]]
			if !ok || len(sz) != 4 || sz[2] != sz[3] {
				return nil, 0, errors.New("Resize whose sizes are not a constant square")
			}
			if sz[2]%s != 0 || sz[2] <= 1 {
				return nil, 0, fmt.Errorf("Resize from %d to %d", s, sz[2])
			}
			k := float32(sz[2] / s)
			name := nd.out[0] + "_scales"
			added = append(added, floatTensor(name, []float32{1, 1, k, k}))
			var nb []byte
			for _, in := range nd.in[:2] {
				nb = appendBytes(nb, nodeInput, []byte(in))
			}
			nb = appendBytes(nb, nodeInput, []byte(name))
			for _, nf := range nd.fields {
				switch {
				case nf.num == nodeInput:
				case nf.num == nodeAttribute && string(nd.attrs["coordinate_transformation_mode"].raw) == string(nf.raw):
					var a []byte
					a = appendBytes(a, attrName, []byte("coordinate_transformation_mode"))
					a = appendBytes(a, attrS, []byte("half_pixel"))
					a = appendVarint(a, attrType, attrString)
					nb = appendBytes(nb, nodeAttribute, a)
				default:
					nb = append(nb, nf.raw...)
				}
			}
			newGraph = appendBytes(newGraph, graphNode, nb)
			for _, o := range nd.out {
				sideOf[o] = sz[2]
			}
			n++
			continue
		}
		for _, o := range nd.out {
			sideOf[o] = s
		}
		newGraph = append(newGraph, f.raw...)
	}
	for _, f := range graph {
		if f.num == graphInit {
			newGraph = append(newGraph, f.raw...)
		}
	}
	for _, t := range added {
		newGraph = appendBytes(newGraph, graphInit, t)
	}
	for i, f := range mfs {
		if i == gi {
			out = appendBytes(out, modelGraph, newGraph)
		} else {
			out = append(out, f.raw...)
		}
	}
	return out, n, nil
}

func mustFields(b []byte) []field {
	fs, _ := parseFields(b)
	return fs
}
