// Command studioworker runs the studio's jobs: the u2netp model through ONNX
// Runtime (cgo), compositing, presets and encoding, apart from the API so a
// native crash or a memory spike never takes the API down.
package main

import "uplift.dev/studio/internal/worker"

func main() { worker.Main() }
