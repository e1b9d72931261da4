package stack

import (
	"net/url"
	"path/filepath"
)

// studioBlobURL is the local bucket both the studio and its worker use.
func (s *Stack) studioBlobURL() string {
	u := url.URL{Scheme: "file", Path: filepath.Join(s.StateDir, "studio"), RawQuery: "create_dir=1&no_tmp_dir=1"}
	return u.String()
}

// startStudioWorker starts the studio's model worker (a process of its own,
// so a native crash never takes the studio API down) with the runtime and
// model `make studio-assets` fetched into .ml.
func (s *Stack) startStudioWorker(bin string) error {
	ml := filepath.Join(s.Root, ".ml")
	env := append(s.Env(), "STUDIO_BLOB_URL="+s.studioBlobURL(),
		"STUDIO_ORT_LIB="+filepath.Join(ml, "libonnxruntime.so.1"), "STUDIO_MODEL="+filepath.Join(ml, "u2netp.onnx"),
		"STUDIO_WORKER_METRICS_ADDR="+addr(s.Ports.StudioWorker))
	if err := portFree(addr(s.Ports.StudioWorker)); err != nil {
		return err
	}
	_, err := s.start("studioworker", env, s.Root, filepath.Join(bin, "studioworker"))
	return err
}
