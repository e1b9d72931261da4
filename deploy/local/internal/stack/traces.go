package stack

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// The local trace store is Jaeger v2 (its all-in-one binary, an
// OpenTelemetry collector with an in-memory store and the query API), built
// from its own module, deploy/tools/jaeger, so no product module pulls its
// dependencies. Its web UI is built without its assets (the module ships a
// placeholder page); the query API (/api/services, /api/traces/{id}) is
// complete, and is what the tracing test reads.

// jaegerBin is where `make .bin/jaeger` puts the binary.
func (s *Stack) jaegerBin() string { return filepath.Join(s.Root, ".bin", "jaeger") }

// TracesURL is the trace store's query API and (placeholder) UI.
func (s *Stack) TracesURL() string { return "http://" + addr(s.Ports.JaegerQuery) }

// tracesEnv is what every program of a traced stack gets: OpenTelemetry's
// own variables (platform/tracing reads them), every span sampled.
func (s *Stack) tracesEnv() []string {
	if !s.Traces {
		return nil
	}
	return []string{
		"OTEL_EXPORTER_OTLP_ENDPOINT=http://" + addr(s.Ports.JaegerOTLP),
		"OTEL_TRACES_SAMPLER=parentbased_always_on",
	}
}

// jaegerConfig is the collector's configuration: OTLP over HTTP in, an
// in-memory store, the query API; every port on loopback and on this
// stack's plan, and no self-telemetry port (the collector's default 8888
// would be shared by every stack on the machine).
func (s *Stack) jaegerConfig() string {
	return fmt.Sprintf(`service:
  extensions: [jaeger_storage, jaeger_query]
  pipelines:
    traces:
      receivers: [otlp]
      processors: [batch]
      exporters: [jaeger_storage_exporter]
  telemetry:
    metrics:
      level: none
    logs:
      level: info
extensions:
  jaeger_query:
    storage:
      traces: memstore
    http:
      endpoint: %s
    grpc:
      endpoint: %s
  jaeger_storage:
    backends:
      memstore:
        memory:
          max_traces: 20000
receivers:
  otlp:
    protocols:
      http:
        endpoint: %s
processors:
  batch:
    timeout: 200ms
exporters:
  jaeger_storage_exporter:
    trace_storage: memstore
`, addr(s.Ports.JaegerQuery), addr(s.Ports.JaegerQueryGRPC), addr(s.Ports.JaegerOTLP))
}

// StartTraces starts Jaeger from .bin/jaeger and waits until its query API
// answers. The programs started afterwards send it their spans.
func (s *Stack) StartTraces(ctx context.Context) error {
	if _, err := os.Stat(s.jaegerBin()); err != nil {
		return fmt.Errorf("the trace store is not built (make %s): %w", filepath.Join(".bin", "jaeger"), err)
	}
	for _, port := range []int{s.Ports.JaegerOTLP, s.Ports.JaegerQuery, s.Ports.JaegerQueryGRPC} {
		if err := portFree(addr(port)); err != nil {
			return err
		}
	}
	dir := filepath.Join(s.StateDir, "jaeger")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	cfg := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(cfg, []byte(s.jaegerConfig()), 0o644); err != nil {
		return err
	}
	p, err := s.start("jaeger", nil, dir, s.jaegerBin(), "--config", cfg)
	if err != nil {
		return err
	}
	if err := s.waitFor(ctx, p, "jaeger", 60*time.Second, httpOK(s.TracesURL()+"/api/services")); err != nil {
		return err
	}
	s.say("traces       %s (Jaeger: query API /api/traces/{id}, /api/services; its UI is a placeholder page, built without assets), OTLP http://%s",
		s.TracesURL(), addr(s.Ports.JaegerOTLP))
	return nil
}

// StartTracesBeside is `make run`'s: Jaeger's first build takes minutes,
// more than the product's start should wait, so the binary is built (if
// missing) and started beside the product, and its address said once it
// answers. Until then the programs' spans are dropped (their exporter
// retries, then gives up), nothing else. The returned channel is closed
// when it is up or gave up (said, not fatal).
func (s *Stack) StartTracesBeside(ctx context.Context) <-chan struct{} {
	done := make(chan struct{})
	ctx, cancel := context.WithCancel(ctx)
	s.mu.Lock()
	s.stopBeside = func() { cancel(); <-done }
	s.mu.Unlock()
	go func() {
		defer close(done)
		if _, err := os.Stat(s.jaegerBin()); err != nil {
			s.say("traces       building Jaeger into .bin/jaeger (the first time takes minutes; its log: %s)", filepath.Join(s.LogDir, "jaeger-build.log"))
			start := time.Now()
			if err := s.buildJaeger(ctx); err != nil {
				s.say("traces       Jaeger did not build (%v); the product runs without a trace store", err)
				return
			}
			s.say("traces       Jaeger built in %s", time.Since(start).Round(time.Second))
		}
		if ctx.Err() != nil {
			return
		}
		if err := s.StartTraces(ctx); err != nil {
			s.say("traces       Jaeger did not start (%v); the product runs without a trace store", err)
		}
	}()
	return done
}

// buildJaeger builds deploy/tools/jaeger's tool into .bin/jaeger, as the
// Makefile's rule does, outside the workspace (GOWORK=off).
func (s *Stack) buildJaeger(ctx context.Context) error {
	logFile, err := os.Create(filepath.Join(s.LogDir, "jaeger-build.log"))
	if err != nil {
		return err
	}
	defer logFile.Close()
	cmd := exec.CommandContext(ctx, "go", "build", "-o", s.jaegerBin(), "github.com/jaegertracing/jaeger/cmd/jaeger")
	cmd.Dir = filepath.Join(s.Root, "deploy", "tools", "jaeger")
	cmd.Env = append(os.Environ(), "GOWORK=off")
	cmd.Stdout, cmd.Stderr = logFile, logFile
	return cmd.Run()
}
