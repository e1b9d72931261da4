#!/usr/bin/env bash
# Builds Uplift's container images with podman from local bases only (no
# image registry is reachable from our machines):
#
#   images.sh [NAME...]    the named images (default: every one)
#   images.sh --list       the names
#   images.sh --bases      only the Debian base and the runtime bases (what
#                          a cold build spends most of its time on, in apt
#                          rather than on the CPU: CI makes them while its
#                          tests run)
#
# Go programs are built here on the host and copied in, so no image holds a
# toolchain. Static ones go on scratch (static.Containerfile); the rest on a
# Debian base made with debootstrap from this machine's own Debian mirror,
# plus the Debian packages that kind of program needs (runtime.Containerfile,
# debian.Containerfile). The Debian base and the runtime bases are built once
# and kept; REBUILD_BASE=1 makes them again.
#
# The same tree gives the same image: timestamps are the commit's
# (SOURCE_DATE_EPOCH), each image is one COPY of a staged tree, and the
# label org.opencontainers.image.revision names the commit. VERIFY=1 builds
# each image a second time (staged again, the image removed first) and fails
# if its ID differs.
#
# Images are tagged localhost/uplift/NAME:TAG (TAG: the commit's first 12
# hex digits, "-dirty" for a changed tree) and localhost/uplift/NAME:latest;
# a service's image also by its own version (deploy/version.sh: from its
# path's tags, so a commit to another service leaves it as it was), with
# the label org.opencontainers.image.version.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
here=$root/deploy/containers
export CONTAINERS_CONF=$here/containers.conf
cache=${IMAGES_CACHE:-$root/.local/images}
bin=$cache/bin
ctx=$cache/ctx

# name:kind:what. kind static is a CGO_ENABLED=0 Go package on scratch;
# the others name a runtime base.
IMAGES=(
  users:static:./services/users/cmd/users
  categories:static:./services/categories/cmd/categories
  billing:static:./services/billing/cmd/billing
  digest:static:./services/digest/cmd/digest
  stores:static:./services/stores/cmd/stores
  studio:static:./services/studio/cmd/studio
  review:static:./services/review/cmd/review
  gateway:static:./gateway/cmd/gateway
  natssetup:static:./services/platform/cmd/natssetup
  nats:static:github.com/nats-io/nats-server/v2
  demostore:static:./deploy/local/cmd/demostore
  reviewworker:chromium:./services/review/cmd/reviewworker
  studioworker:glibc:./services/studio/cmd/studioworker
  web:node:frontends
  postgres:postgres:-
)

# The Debian packages of each runtime base (always with --no-install-recommends).
runtime_packages() {
  case $1 in
    chromium) echo "chromium fonts-liberation ca-certificates" ;;
    glibc) echo "ca-certificates" ;;
    node) echo "nodejs ca-certificates" ;;
    postgres) echo "postgresql-15" ;;
    *) echo "unknown runtime $1" >&2; return 1 ;;
  esac
}

say() { printf '%s images: %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }

need_tools() {
  local missing=()
  command -v podman >/dev/null || missing+=(podman)
  command -v runc >/dev/null || missing+=(runc)
  command -v debootstrap >/dev/null || missing+=(debootstrap)
  if ((${#missing[@]})); then
    say "installing ${missing[*]} from Debian"
    apt-get update -q >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >/dev/null
  fi
}

# The machine's own Debian mirror: the first deb source that is neither the
# security archive nor another vendor's.
debian_mirror() {
  local uri
  uri=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null |
    awk '/^URIs:/ {for (i = 2; i <= NF; i++) print $i}' | grep '/debian/\?$' | head -1 || true)
  if [[ -z $uri ]]; then
    uri=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
      awk '$1 == "deb" {for (i = 2; i <= NF; i++) if ($i ~ /^https?:/) {print $i; break}}' | grep '/debian/\?$' | head -1 || true)
  fi
  [[ -n $uri ]] || { echo "no Debian mirror in /etc/apt/sources.list.d/" >&2; return 1; }
  echo "$uri"
}

DEBIAN_BASE=localhost/uplift/debian:bookworm

image_exists() { podman image exists "$1"; }

# The Debian base: debootstrap minbase (about 206 MB), with the machine's
# apt sources so the runtime bases get the same mirror and security updates.
debian_base() {
  if image_exists "$DEBIAN_BASE" && [[ -z ${REBUILD_BASE:-} ]]; then
    return
  fi
  local mirror dir
  mirror=$(debian_mirror)
  dir=$cache/debian-rootfs
  say "debootstrap --variant=minbase bookworm from $mirror (minutes; kept as $DEBIAN_BASE)"
  rm -rf "$dir"
  mkdir -p "$cache"
  debootstrap --variant=minbase bookworm "$dir" "$mirror" >"$cache/debootstrap.log" 2>&1 ||
    { tail -20 "$cache/debootstrap.log" >&2; return 1; }
  rm -f "$dir/etc/apt/sources.list"
  grep -l 'debian' /etc/apt/sources.list.d/*.sources 2>/dev/null | while read -r f; do
    cp "$f" "$dir/etc/apt/sources.list.d/"
  done
  [[ -n $(ls "$dir/etc/apt/sources.list.d/" 2>/dev/null) ]] || echo "deb $mirror bookworm main" >"$dir/etc/apt/sources.list"
  rm -rf "$dir"/var/cache/apt/archives/*.deb "$dir"/var/lib/apt/lists/* "$dir"/var/log/* "$dir"/tmp/*
  tar -C "$dir" --sort=name --numeric-owner -c . | podman import -q - "$DEBIAN_BASE" >/dev/null
  rm -rf "$dir"
}

# runtime_base KIND prints the runtime base's tag, building it when missing.
runtime_base() {
  local kind=$1 packages base_id sum tag
  packages=$(runtime_packages "$kind")
  base_id=$(podman image inspect --format '{{.Id}}' "$DEBIAN_BASE")
  sum=$(printf '%s\n%s\n' "$base_id" "$packages" | cat - "$here/runtime.Containerfile" | sha256sum | cut -c1-12)
  tag=localhost/uplift/runtime-$kind:$sum
  if ! image_exists "$tag" || [[ -n ${REBUILD_BASE:-} ]]; then
    say "runtime base $kind: $packages"
    podman build -q --identity-label=false --timestamp "$EPOCH" -f "$here/runtime.Containerfile" \
      --build-arg DEBIAN_BASE="$DEBIAN_BASE" --build-arg PACKAGES="$packages" \
      -t "$tag" "$here" >/dev/null
  fi
  echo "$tag"
}

# timetzdata: the IANA zones in the binary, as scratch has none.
# nodynamic: the WebP codec's WebAssembly build only; its default loads
# libwebp at run time (purego), which makes even a CGO_ENABLED=0 binary
# ask for the dynamic loader.
# The program's version and the commit are linked in (uplift_build_info, the
# "starting" log line).
# netgo and osusergo (for the one cgo program, studioworker): its packages
# then compile as the static programs' do. The Makefile's go-binaries uses
# the same flags, so after `make build` this only links.
gobuild() { # out package cgo version
  local stamp="-X uplift.dev/platform/buildinfo.revision=$REVISION" tags=timetzdata,nodynamic
  [[ -n $4 ]] && stamp+=" -X uplift.dev/platform/buildinfo.version=$4"
  [[ $3 == 1 ]] && tags+=,netgo,osusergo
  (cd "$root" && CGO_ENABLED=$3 GOOS=linux go build -trimpath -tags "$tags" \
    -ldflags="-s -w $stamp" -o "$1" "$2")
  if [[ $3 == 0 ]] && head -c 4096 "$1" | grep -qa 'ld-linux'; then
    echo "$2 is not a static binary (it names the dynamic loader): it cannot run on scratch" >&2
    return 1
  fi
}

# stage NAME prints the staged context folder, rootfs/ holding what the
# image adds, with every file's time the commit's.
stage() {
  local name=$1 kind=$2 what=$3 d=$ctx/$1
  rm -rf "$d"
  mkdir -p "$d/rootfs"
  local r=$d/rootfs
  case $name in
    web)
      mkdir -p "$r/srv/web/scripts"
      cp "$root/frontends/scripts/serve.mjs" "$root/frontends/scripts/security-headers.mjs" "$r/srv/web/scripts/"
      for app in shell home analytics connections account; do
        [[ -d $root/frontends/$app/dist ]] || { echo "frontends/$app/dist missing: make build first" >&2; return 1; }
        mkdir -p "$r/srv/web/$app"
        cp -r "$root/frontends/$app/dist" "$r/srv/web/$app/"
      done
      find "$r/srv/web" -name '*.map' -delete
      install -m 0755 "$here/web-start.sh" "$r/app"
      ;;
    postgres)
      install -m 0755 "$here/postgres-start.sh" "$r/app"
      ;;
    *)
      local cgo=0
      [[ $kind == glibc ]] && cgo=1
      gobuild "$r/app" "$what" "$cgo" "$(program_version "$name")"
      ;;
  esac
  case $kind in
    static)
      mkdir -p "$r/etc/ssl/certs" "$r/tmp"
      chmod 1777 "$r/tmp"
      cp /etc/ssl/certs/ca-certificates.crt "$r/etc/ssl/certs/"
      printf 'root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:65532:65532:nonroot:/tmp:/sbin/nologin\n' >"$r/etc/passwd"
      printf 'root:x:0:\nnonroot:x:65532:\n' >"$r/etc/group"
      ;;
  esac
  if [[ $name == studioworker ]]; then
    mkdir -p "$r/opt/studio"
    for f in libonnxruntime.so.1 u2netp.onnx THIRD_PARTY_NOTICES LICENSE.Apache-2.0; do
      [[ -f $root/.ml/$f ]] || { echo ".ml/$f missing: make studio-assets first" >&2; return 1; }
      cp "$root/.ml/$f" "$r/opt/studio/"
    done
  fi
  find "$r" -exec touch -h -d "@$EPOCH" {} +
  echo "$d"
}

# The environment and user each image runs with.
image_env() {
  case $1 in
    reviewworker) echo "CHROME_PATH=/usr/bin/chromium HOME=/tmp" ;;
    studioworker) echo "STUDIO_ORT_LIB=/opt/studio/libonnxruntime.so.1 STUDIO_MODEL=/opt/studio/u2netp.onnx HOME=/tmp" ;;
    web) echo "NODE_ENV=production HOST=0.0.0.0 WEB_PORT=3000" ;;
    postgres) echo "PGDATA=/var/lib/postgresql/data" ;;
  esac
}

# program_version prints an Uplift program's own version (deploy/version.sh),
# nothing for the images that hold someone else's (nats, postgres) or no
# released program (web, demostore).
program_version() {
  "$root/deploy/version.sh" "$1" 2>/dev/null || true
}

build_one() {
  local name=$1 kind=$2 what=$3 d recipe args=() tag version
  d=$(stage "$name" "$kind" "$what")
  version=$(program_version "$name")
  if [[ -n $version ]]; then
    # Released on its own: the version is a tag of the image too.
    args+=(--label "org.opencontainers.image.version=$version" -t "localhost/uplift/$name:$version")
  fi
  if [[ $kind == static ]]; then
    recipe=$here/static.Containerfile
  else
    recipe=$here/debian.Containerfile
    args+=(--build-arg "BASE=$(runtime_base "$kind")")
    [[ $name == postgres ]] && args+=(--build-arg RUN_AS=postgres)
  fi
  for kv in $(image_env "$name"); do args+=(--env "$kv"); done
  tag=localhost/uplift/$name:$TAG
  build() {
    podman build -q --no-cache --identity-label=false --timestamp "$EPOCH" -f "$recipe" "${args[@]}" \
      --label "org.opencontainers.image.revision=$REVISION" \
      --label "org.opencontainers.image.title=uplift-$name" \
      -t "$tag" -t "localhost/uplift/$name:latest" "$d"
  }
  local id
  id=$(build)
  if [[ -n ${VERIFY:-} ]]; then
    # From nothing: the image removed and its tree staged again (the Go
    # build again, which Go's cache may answer: it is keyed by every input).
    podman rmi -f "$tag" "localhost/uplift/$name:latest" ${version:+"localhost/uplift/$name:$version"} >/dev/null
    d=$(stage "$name" "$kind" "$what")
    local again
    again=$(build)
    if [[ $again != "$id" ]]; then
      say "$name: NOT reproducible: $id then $again"
      return 1
    fi
  fi
  local size
  size=$(podman image inspect --format '{{.Size}}' "$tag")
  printf '%-13s %-9s %6d MB  %s\n' "$name" "$kind" $((size / 1000000)) "$id"
}

main() {
  if [[ ${1:-} == --list ]]; then
    for spec in "${IMAGES[@]}"; do echo "${spec%%:*}"; done
    return
  fi
  need_tools
  if [[ ${1:-} == --bases ]]; then
    EPOCH=${SOURCE_DATE_EPOCH:-$(git -C "$root" log -1 --format=%ct)}
    local t0=$SECONDS kind
    debian_base
    say "Debian base ready in $((SECONDS - t0)) s"
    for kind in $(printf '%s\n' "${IMAGES[@]}" | cut -d: -f2 | grep -v '^static$' | sort -u); do
      t0=$SECONDS
      runtime_base "$kind" >/dev/null
      say "runtime base $kind ready in $((SECONDS - t0)) s"
    done
    return
  fi
  REVISION=$(git -C "$root" rev-parse HEAD)
  TAG=${REVISION:0:12}
  if ! git -C "$root" diff --quiet HEAD --; then
    REVISION=$REVISION-dirty
    TAG=$TAG-dirty
  fi
  EPOCH=${SOURCE_DATE_EPOCH:-$(git -C "$root" log -1 --format=%ct)}
  mkdir -p "$bin" "$ctx"
  local want=("$@") spec found
  if ((${#want[@]} == 0)); then
    for spec in "${IMAGES[@]}"; do want+=("${spec%%:*}"); done
  fi
  debian_base
  printf '%-13s %-9s %9s  %s\n' image base size id
  for name in "${want[@]}"; do
    found=
    for spec in "${IMAGES[@]}"; do
      if [[ ${spec%%:*} == "$name" ]]; then
        IFS=: read -r _ kind what <<<"$spec"
        build_one "$name" "$kind" "$what"
        found=1
      fi
    done
    [[ -n $found ]] || { echo "no image $name (images.sh --list)" >&2; return 1; }
  done
}

main "$@"
