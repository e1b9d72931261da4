# syntax=docker/dockerfile:1
#
# One image recipe for every Go binary in the repo: the services (users,
# categories, billing, digest, stores, studio, review) and the gateway. Build from the
# repository root, naming the binary's package:
#
#   docker build -f deploy/docker/go-service.Dockerfile \
#     --build-arg CMD_PATH=./services/users/cmd/users -t uplift/users .
#   docker build -f deploy/docker/go-service.Dockerfile \
#     --build-arg CMD_PATH=./gateway/cmd/gateway -t uplift/gateway .
#
# The build uses the go.work workspace, so every module go.work lists must be
# in the build context (go-service.Dockerfile.dockerignore keeps them).

ARG GO_VERSION=1.26

# ---- build: runs on the builder's own platform and cross-compiles.
FROM --platform=$BUILDPLATFORM golang:${GO_VERSION}-bookworm AS build
ARG CMD_PATH
ARG TARGETOS
ARG TARGETARCH
ARG GOPROXY=https://proxy.golang.org
RUN test -n "$CMD_PATH" || (echo "set --build-arg CMD_PATH=./services/<name>/cmd/<name> or ./gateway/cmd/gateway" >&2; exit 1)
WORKDIR /src
COPY . .
# Migrations are embedded (go:embed), so the binary is all the image needs.
RUN --mount=type=cache,target=/go/pkg/mod \
    --mount=type=cache,target=/root/.cache/go-build \
    CGO_ENABLED=0 GOOS=${TARGETOS:-linux} GOARCH=${TARGETARCH} GOPROXY=${GOPROXY} \
    go build -trimpath -ldflags="-s -w" -o /out/app "${CMD_PATH}"

# ---- run: static binary on distroless (CA certificates and tzdata, no shell,
# no package manager), as the image's nonroot user (uid/gid 65532).
FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/app /app
USER nonroot:nonroot
ENTRYPOINT ["/app"]
