package stack

import (
	"net/url"
	"path/filepath"
	"strings"
)

// studioBlobURL is the local bucket both the studio and its worker use.
func (s *Stack) studioBlobURL() string {
	u := url.URL{Scheme: "file", Path: filepath.Join(s.StateDir, "studio"), RawQuery: "create_dir=1&no_tmp_dir=1"}
	return u.String()
}

// startStudioWorker starts the studio's model worker (a process of its own,
// so a native crash never takes the studio API down) with the runtime and
// model `make studio-assets` fetched into .ml.
func (s *Stack) startStudioWorker(bin string, i int) error {
	if err := portFree(copyAddr(i, s.Ports.StudioWorker)); err != nil {
		return err
	}
	_, err := s.start(copyName("studioworker", i), s.studioWorkerEnv(i), s.Root, filepath.Join(bin, "studioworker"))
	return err
}

// studioWorkerEnv is copy i of the studio worker's environment: the
// studio's bucket and database login, its model and its metrics address.
func (s *Stack) studioWorkerEnv(i int) []string {
	ml := filepath.Join(s.Root, ".ml")
	return append(s.Env(), s.databaseURL("studio"), "STUDIO_BLOB_URL="+s.studioBlobURL(),
		"STUDIO_ORT_LIB="+filepath.Join(ml, "libonnxruntime.so.1"), "STUDIO_MODEL="+filepath.Join(ml, "u2netp.onnx"),
		"STUDIO_WORKER_METRICS_ADDR="+copyAddr(i, s.Ports.StudioWorker))
}

// startReviewWorker starts the website review worker: it runs the reviews
// categories asks for, with the home page's speed measured in Chromium, a
// process of its own so the browser never weighs on the review service's
// API. It reads websites under the same policy as the service.
func (s *Stack) startReviewWorker(bin string, i int) error {
	env := append(s.Env(), s.reviewWorkerEnv(i)...)
	if err := portFree(copyAddr(i, s.Ports.ReviewWorker)); err != nil {
		return err
	}
	_, err := s.start(copyName("reviewworker", i), env, s.Root, filepath.Join(bin, "reviewworker"))
	return err
}

// reviewWorkerEnv is copy i of the review worker's own settings: the
// review service's fetch policy and its metrics address.
func (s *Stack) reviewWorkerEnv(i int) []string {
	var env []string
	for _, kv := range s.serviceEnv("review", 0) {
		if strings.HasPrefix(kv, "FETCH_") {
			env = append(env, kv)
		}
	}
	if s.ForTests {
		// The end-to-end tests start dozens of reviews one after another;
		// one measured load each keeps the queue short.
		env = append(env, "REVIEW_LAB_RUNS=1")
	}
	// A second review process on the bus: the review service's NATS key.
	env = append(env, "NATS_NKEY_SEED="+string(s.natsKeys.Seed("review")), s.databaseURL("review"))
	return append(env, "REVIEW_WORKER_METRICS_ADDR="+copyAddr(i, s.Ports.ReviewWorker))
}
