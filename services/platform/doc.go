// Package platform is the small shared kit every Uplift service is built on:
// configuration, logging, Postgres, NATS events with an outbox, the gRPC
// server with auth, health and metrics. Services import its subpackages; it
// imports no service.
package platform
