// Package tracing holds the test that follows one sign-up through every
// hop of the running stack into one trace in its trace store (Jaeger):
// `make test-tracing` (devstack exec -apps -traces) runs it.
package tracing
