# syntax=docker/dockerfile:1
#
# The review worker (services/review/cmd/reviewworker): a static Go
# binary beside Debian's Chromium, which measures each store's home page.
# Build from the repository root:
#
#   docker build -f deploy/docker/reviewworker.Dockerfile -t uplift/reviewworker .

ARG GO_VERSION=1.26

FROM --platform=$BUILDPLATFORM golang:${GO_VERSION}-bookworm AS build
ARG TARGETOS
ARG TARGETARCH
ARG GOPROXY=https://proxy.golang.org
WORKDIR /src
COPY . .
RUN --mount=type=cache,target=/go/pkg/mod \
    --mount=type=cache,target=/root/.cache/go-build \
    CGO_ENABLED=0 GOOS=${TARGETOS:-linux} GOARCH=${TARGETARCH} GOPROXY=${GOPROXY} \
    go build -trimpath -ldflags="-s -w" -o /out/app ./services/review/cmd/reviewworker

# Chromium needs a full userland (fonts, NSS, X libraries even headless):
# Debian slim with Debian's own package, as on the build machines.
FROM debian:12-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends chromium fonts-liberation ca-certificates tzdata \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --gid 65532 nonroot && useradd --uid 65532 --gid 65532 --home-dir /tmp --no-create-home nonroot
COPY --from=build /out/app /app
USER 65532:65532
ENV CHROME_PATH=/usr/bin/chromium HOME=/tmp
ENTRYPOINT ["/app"]
