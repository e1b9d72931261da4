#!/usr/bin/env bash
# Runs the whole product as containers on one podman network, from the
# images `make images` built, drives a new owner's journey through the
# gateway (gateway/internal/e2e TestOwnerJourney: sign-up, website review,
# Shopify, Analytics), checks every container's health endpoint, prints the
# time and the peak memory, and removes everything it started, also when a
# step fails.
#
# In containers: PostgreSQL, NATS (JetStream, a key per program), the NATS
# set-up, the seven services, both workers, the gateway and the web; the
# review service, its worker and the demo store share one pod, because the
# website reader reads a loopback store only (no private address is ever
# fetched). On the host, as devstack runs them: the Firebase Auth emulator,
# stripe-mock, the Shopify simulator and the SMTP sink. They stand in for
# the outside world, which is not part of what ships, and they listen on
# the network's bridge address, one address the containers and the test on
# the host both reach.
#
# Settings: CONTAINERS_SUBNET (10.89.42), CONTAINERS_PORT_BASE (18000: the
# gateway on +80, the web on +300…+304 of 127.0.0.1), KEEP=1 leaves it
# running until Ctrl-C.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
here=$root/deploy/containers
export CONTAINERS_CONF=$here/containers.conf
bin=$root/.bin
subnet=${CONTAINERS_SUBNET:-10.89.42}
hostip=$subnet.1
base=${CONTAINERS_PORT_BASE:-18000}
gw_port=$((base + 80))
web_port=$((base + 300))
net=uplift-ct
label=uplift.stack=containers
pfx=uplift-ct-
tag=latest
state=$(mktemp -d /tmp/uplift-containers.XXXXXX)
logs=$root/.local/containers
project=demo-uplift
started=$(date +%s)

say() { printf '%s containers: %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }

host_pids=()
stats_pid=
cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  [[ -n $stats_pid ]] && kill "$stats_pid" 2>/dev/null || true
  if ((rc != 0)); then
    say "failed; the containers' logs are in $logs"
  fi
  for c in $(podman ps -a --filter "label=$label" --format '{{.Names}}' 2>/dev/null); do
    podman logs "$c" >"$logs/$c.log" 2>&1 || true
  done
  say "removing what it started"
  podman ps -a -q --filter "label=$label" | xargs -r podman rm -f -t 5 >/dev/null 2>&1 || true
  podman pod ls -q --filter "label=$label" | xargs -r podman pod rm -f >/dev/null 2>&1 || true
  podman volume ls -q --filter "label=$label" | xargs -r podman volume rm -f >/dev/null 2>&1 || true
  podman network rm -f "$net" >/dev/null 2>&1 || true
  for pid in "${host_pids[@]}"; do
    kill -TERM -- "-$pid" 2>/dev/null || true
  done
  sleep 1
  for pid in "${host_pids[@]}"; do
    kill -KILL -- "-$pid" 2>/dev/null || true
  done
  rm -rf "$state"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

wait_for() { # what seconds command...
  local what=$1 secs=$2 t0
  shift 2
  t0=$(date +%s)
  until "$@" >/dev/null 2>&1; do
    if (($(date +%s) - t0 > secs)); then
      say "$what not ready after ${secs}s"
      return 1
    fi
    sleep 0.5
  done
}
http_ok() { curl -fsS -o /dev/null --max-time 2 "$1"; }

# host_run NAME CMD... starts a stand-in in a process group of its own.
host_run() {
  local name=$1
  shift
  setsid "$@" >"$logs/$name.log" 2>&1 &
  host_pids+=($!)
}

# ctr NAME IMAGE [podman run options...] -- [args...]
ctr() {
  local name=$1 image=$2
  shift 2
  local opts=()
  while (($#)) && [[ $1 != -- ]]; do opts+=("$1"); shift; done
  [[ ${1:-} == -- ]] && shift
  # Restarted when they stop on an error, as the cluster would: a service
  # that finds the stream not made yet exits and tries again.
  podman run -d --name "$pfx$name" --label "$label" --restart on-failure:5 --read-only --cap-drop ALL \
    --security-opt no-new-privileges "${opts[@]}" "localhost/uplift/$image:$tag" "$@" >/dev/null
}

# published NAME PORT is the host address a container's port is published on.
published() { podman port "$pfx$1" "$2/tcp" | head -1; }

main() {
  local tools=()
  command -v curl >/dev/null || tools+=(curl)
  command -v socat >/dev/null || tools+=(socat)
  if ((${#tools[@]})); then
    apt-get update -q >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${tools[@]}" >/dev/null
  fi
  mkdir -p "$logs"
  rm -f "$logs"/*.log
  for port in $gw_port $((base + 930)) $web_port $((web_port + 1)) $((web_port + 2)) $((web_port + 3)) $((web_port + 4)); do
    if (echo >"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      say "127.0.0.1:$port is in use (CONTAINERS_PORT_BASE moves the ports)"
      return 1
    fi
  done
  podman ps -a -q --filter "label=$label" | xargs -r podman rm -f >/dev/null 2>&1 || true
  podman pod ls -q --filter "label=$label" | xargs -r podman pod rm -f >/dev/null 2>&1 || true
  podman network rm -f "$net" >/dev/null 2>&1 || true
  podman network create --label "$label" --subnet "$subnet.0/24" --gateway "$hostip" "$net" >/dev/null

  # Throwaway secrets for a throwaway stack, made fresh each run.
  local pgpass
  pgpass=$(head -c 18 /dev/urandom | base64 | tr '+/' 'ab')
  mkdir -p "$state/nats"
  "$bin/devstack" nats-keys "$state/nats" >/dev/null
  cat >"$state/nats/nats.conf" <<EOF
port: 4222
http_port: 8222
include ./auth.conf
jetstream { store_dir: /data }
EOF
  # The NATS container's user reads its config; the keys die with $state.
  chmod 0755 "$state" "$state/nats"
  chmod 0644 "$state/nats/nats.conf" "$state/nats/auth.conf"
  seed() { cat "$state/nats/$1.nk"; }
  local senders
  senders=$(awk '/NATS_SENDER_KEYS:/ {print $2}' "$state/nats/nats-keys.yaml")

  say "postgres and nats"
  podman volume create --label "$label" "${pfx}pg" >/dev/null
  podman volume create --label "$label" "${pfx}nats" >/dev/null
  podman volume create --label "$label" "${pfx}studio" >/dev/null
  ctr postgres postgres --network "$net" --network-alias postgres --tmpfs /tmp:rw,mode=1777 \
    -v "${pfx}pg:/var/lib/postgresql/data:U" -e POSTGRES_PASSWORD="$pgpass" --shm-size 128m
  ctr nats nats --network "$net" --network-alias nats -v "$state/nats:/etc/nats:ro" -v "${pfx}nats:/data:U" \
    -p 127.0.0.1::8222 -- -c /etc/nats/nats.conf
  wait_for postgres 60 podman exec "${pfx}postgres" pg_isready -h /tmp -U postgres
  podman exec "${pfx}postgres" psql -h /tmp -U postgres -qc 'CREATE DATABASE uplift' >/dev/null
  wait_for nats 30 http_ok "http://$(published nats 8222)/healthz"

  # The bridge exists now (a container is on it): the stand-ins listen there.
  say "stand-ins on $hostip: Firebase Auth emulator, stripe-mock, Shopify simulator, SMTP sink"
  mkdir -p "$state/firebase-tmp"
  cat >"$state/firebase.json" <<EOF
{"emulators": {"auth": {"host": "$hostip", "port": 9099}, "hub": {"host": "$hostip", "port": 4400},
 "logging": {"host": "$hostip", "port": 4500}, "ui": {"enabled": false}, "singleProjectMode": true}}
EOF
  host_run firebase-auth-emulator env -C "$root/deploy/local" NO_UPDATE_NOTIFIER=1 FIREBASE_CLI_DISABLE_UPDATE_CHECK=true \
    TMPDIR="$state/firebase-tmp" node_modules/.bin/firebase emulators:start --only auth --project "$project" --config "$state/firebase.json"
  host_run stripe-mock "$bin/stripe-mock" -http-addr "$hostip:12111" -https-addr "$hostip:12112"
  host_run smtp-sink "$root/deploy/local/node_modules/.bin/maildev" --ip "$hostip" --web-ip "$hostip" --smtp 1025 --web 1080
  # The simulator listens on loopback only, by design: socat carries the
  # bridge address to it.
  host_run shopify-sim "$bin/shopifysim" -addr "127.0.0.1:$((base + 930))" -api-key local-fake-shopify-api-key \
    -api-secret shpss_local_fake_secret -demo -compliance-url "http://127.0.0.1:$gw_port/webhooks/shopify" \
    -demo-store-url http://127.0.0.1:9400 -public-url "http://$hostip:9300"
  host_run shopify-sim-bridge socat "TCP-LISTEN:9300,bind=$hostip,fork,reuseaddr" "TCP:127.0.0.1:$((base + 930))"

  podman run --rm --label "$label" --network "$net" -e NATS_URL=nats://nats:4222 -e NATS_NKEY_SEED="$(seed admin)" \
    "localhost/uplift/natssetup:$tag" >"$logs/natssetup.log" 2>&1 || { say "nats set-up failed"; return 1; }

  wait_for "Firebase Auth emulator" 240 grep -q "All emulators ready" "$logs/firebase-auth-emulator.log"
  wait_for stripe-mock 30 bash -c "echo >/dev/tcp/$hostip/12111"
  wait_for "Shopify simulator" 30 http_ok "http://$hostip:9300/_sim/healthz"

  local web_url=http://localhost:$web_port gw_local=http://127.0.0.1:$gw_port
  local common=(
    -e DATABASE_URL="postgres://postgres:$pgpass@postgres:5432/uplift?sslmode=disable"
    -e NATS_URL=nats://nats:4222 -e NATS_SENDER_KEYS="$senders"
    -e FIREBASE_PROJECT_ID=$project -e FIREBASE_AUTH_EMULATOR_HOST="$hostip:9099"
    -e STRIPE_API_BASE="http://$hostip:12111" -e STRIPE_SECRET_KEY=sk_test_localfakekey
    -e SMTP_ADDR="$hostip:1025"
    -e SHOPIFY_API_KEY=local-fake-shopify-api-key -e SHOPIFY_API_SECRET=shpss_local_fake_secret
    -e WEB_URL="$web_url" -e WEB_ORIGINS="$web_url,http://127.0.0.1:$web_port"
  )
  local store=http://127.0.0.1:9400
  svc() { # name port [options...]
    local name=$1 port=$2
    shift 2
    ctr "$name" "$name" "${common[@]}" --network "$net" --network-alias "$name" -e GRPC_ADDR=":$port" -e METRICS_ADDR=":$((port + 100))" \
      -e NATS_NKEY_SEED="$(seed "$name")" -p "127.0.0.1::$((port + 100))" "$@"
  }

  say "services"
  svc users 9001
  # The review service, its worker and the demo store share a network
  # namespace: the store is on their loopback, the one place the reader
  # may fetch from besides public addresses.
  podman pod create --label "$label" --name "${pfx}review-pod" --network "$net" --network-alias review \
    -p 127.0.0.1::9107 -p 127.0.0.1::9207 >/dev/null
  local fetch=(-e FETCH_ALLOW_ORIGINS=$store -e FETCH_ALLOW_LOOPBACK=false)
  ctr demostore demostore --pod "${pfx}review-pod" -- -addr 127.0.0.1:9400
  ctr review review "${common[@]}" --pod "${pfx}review-pod" -e GRPC_ADDR=:9007 -e METRICS_ADDR=:9107 \
    -e NATS_NKEY_SEED="$(seed review)" "${fetch[@]}" -e REVIEWS_IN_WORKER=true
  ctr reviewworker reviewworker "${common[@]}" --pod "${pfx}review-pod" --tmpfs /tmp:rw,mode=1777,size=512m \
    --shm-size 256m -e NATS_NKEY_SEED="$(seed review)" "${fetch[@]}" -e REVIEW_LAB_RUNS=1 -e REVIEW_WORKER_METRICS_ADDR=:9207
  svc categories 9002 -e USERS_ADDR=users:9001 -e REVIEW_ADDR=review:9007
  svc billing 9003 -e USERS_ADDR=users:9001 -e STRIPE_WEBHOOK_SECRET=whsec_local_fake_secret \
    -e TEST_CHECKOUT_ADDR=:9203 -e GATEWAY_URL=http://gateway:8080
  svc digest 9004 -e PUBLIC_API_URL="$gw_local" -e UNSUBSCRIBE_SECRET=local-fake-unsubscribe-secret-never-use-in-production
  svc stores 9005 -e CATEGORIES_ADDR=categories:9002 -e PUBLIC_API_URL="$gw_local" -e SHOPIFY_API_BASE="http://$hostip:9300" \
    -e SHOPIFY_TOKEN_KEY=bG9jYWwtZmFrZS1zaG9waWZ5LXRva2VuLWtleS0zMmI= -e SYNC_POLL=2s
  local blob='file:///data/studio?create_dir=1&no_tmp_dir=1'
  svc studio 9006 -e CATEGORIES_ADDR=categories:9002 -e STUDIO_BLOB_URL="$blob" -v "${pfx}studio:/data/studio:U"
  ctr studioworker studioworker "${common[@]}" --network "$net" -e NATS_NKEY_SEED="$(seed studio)" -e STUDIO_BLOB_URL="$blob" \
    -e STUDIO_WORKER_METRICS_ADDR=:9206 -v "${pfx}studio:/data/studio:U" -p 127.0.0.1::9206

  say "gateway and web"
  local backends=() s p=9001
  for s in users categories billing digest stores studio; do
    backends+=(-e "$(tr a-z A-Z <<<"$s")_ADDR=$s:$p")
    p=$((p + 1))
  done
  # The services here are in local mode (the Auth emulator) and serve
  # plaintext gRPC; the gateway, seeing non-loopback names, would insist on
  # TLS (docs/grpc.md) unless told.
  ctr gateway gateway --network "$net" --network-alias gateway "${backends[@]}" -e GATEWAY_ADDR=:8080 -e GATEWAY_METRICS_ADDR=:8180 \
    -e GRPC_INSECURE=true \
    -e NATS_URL=nats://nats:4222 -e NATS_NKEY_SEED="$(seed gateway)" -e NATS_SENDER_KEYS="$senders" \
    -e WEB_URL="$web_url" -e WEB_ORIGINS="$web_url,http://127.0.0.1:$web_port" \
    -e GATEWAY_ALLOWED_HOSTS="localhost:$gw_port,127.0.0.1:$gw_port,gateway:8080" \
    -e SIGN_UPS_PER_HOUR=10000 -p "127.0.0.1:$gw_port:8080"
  ctr web web --network "$net" --tmpfs /tmp:rw,mode=1777 -e UPLIFT_LOCAL=true \
    -e UPLIFT_AUTH_EMULATOR_URL="http://$hostip:9099" -e UPLIFT_FIREBASE_PROJECT_ID=$project \
    -e UPLIFT_API_DOMAIN="localhost:$gw_port" -e UPLIFT_STREAM_DOMAIN="localhost:$gw_port" \
    -e UPLIFT_REST_BASE_URL="http://localhost:$gw_port/" -e UPLIFT_STREAM_BASE_URL="http://localhost:$gw_port/events" \
    -e UPLIFT_REMOTE_HOME_URL="http://localhost:$((web_port + 1))/remoteEntry.js" \
    -e UPLIFT_REMOTE_ANALYTICS_URL="http://localhost:$((web_port + 2))/remoteEntry.js" \
    -e UPLIFT_REMOTE_CONNECTIONS_URL="http://localhost:$((web_port + 3))/remoteEntry.js" \
    -e UPLIFT_REMOTE_ACCOUNT_URL="http://localhost:$((web_port + 4))/remoteEntry.js" \
    -p "127.0.0.1:$web_port:3000" -p "127.0.0.1:$((web_port + 1)):3001" -p "127.0.0.1:$((web_port + 2)):3002" \
    -p "127.0.0.1:$((web_port + 3)):3003" -p "127.0.0.1:$((web_port + 4)):3004"

  wait_for "gateway and services" 180 http_ok "$gw_local/healthz/backends"
  wait_for web 60 http_ok "http://127.0.0.1:$web_port/"
  local up=$(($(date +%s) - started))
  say "up in ${up}s"

  # Peak memory: every container's, sampled while the journey runs.
  (
    while :; do
      podman stats --no-stream --format '{{.Name}} {{.MemUsage}}' 2>/dev/null | awk -v t="$(date +%s)" '{print t, $1, $2}'
      sleep 2
    done
  ) >"$state/stats" &
  stats_pid=$!

  say "the journey: sign-up, website review, connect Shopify, Analytics"
  local t0
  t0=$(date +%s)
  (cd "$root" && UPLIFT_JOURNEY=1 UPLIFT_GATEWAY_URL="$gw_local" FIREBASE_AUTH_EMULATOR_HOST="$hostip:9099" \
    FIREBASE_PROJECT_ID=$project UPLIFT_SHOPIFY_SIM_URL="http://$hostip:9300" UPLIFT_DEMO_STORE_URL="$store/" \
    go test -count=1 -v -run '^TestOwnerJourney$' ./gateway/internal/e2e/) | tee "$logs/journey.log" | grep -E '^\s+journey_test|^(ok|FAIL|---)' >&2
  local journey=$(($(date +%s) - t0))

  say "health"
  local bad=0 name url
  for name in users:9101 categories:9102 billing:9103 digest:9104 stores:9105 studio:9106 studioworker:9206; do
    url="http://$(published "${name%%:*}" "${name##*:}")/healthz"
    check_health "${name%%:*}" "$url" || bad=1
  done
  check_health review "http://$(podman pod inspect "${pfx}review-pod" --format '{{range $k, $v := .InfraConfig.PortBindings}}{{$k}}={{(index $v 0).HostPort}} {{end}}' | tr ' ' '\n' | awk -F= '$1=="9107/tcp"{print "127.0.0.1:" $2}')/healthz" || bad=1
  check_health reviewworker "http://$(podman pod inspect "${pfx}review-pod" --format '{{range $k, $v := .InfraConfig.PortBindings}}{{$k}}={{(index $v 0).HostPort}} {{end}}' | tr ' ' '\n' | awk -F= '$1=="9207/tcp"{print "127.0.0.1:" $2}')/healthz" || bad=1
  check_health gateway "$gw_local/healthz" || bad=1
  check_health gateway-backends "$gw_local/healthz/backends" || bad=1
  check_health web "http://127.0.0.1:$web_port/" || bad=1
  check_health nats "http://$(published nats 8222)/healthz" || bad=1
  if podman exec "${pfx}postgres" pg_isready -q -h /tmp -U postgres; then
    printf '  %-16s ok (pg_isready)\n' postgres >&2
  else
    printf '  %-16s FAILED (pg_isready)\n' postgres >&2
    bad=1
  fi

  kill "$stats_pid" 2>/dev/null || true
  stats_pid=
  report_memory
  say "up ${up}s, journey ${journey}s, total $(($(date +%s) - started))s"
  ((bad == 0)) || { say "a health check failed"; return 1; }
  if [[ -n ${KEEP:-} ]]; then
    say "running: web $web_url, gateway $gw_local; Ctrl-C removes it"
    sleep infinity
  fi
}

check_health() {
  if curl -fsS -o /dev/null --max-time 5 "$2"; then
    printf '  %-16s ok  %s\n' "$1" "$2" >&2
  else
    printf '  %-16s FAILED  %s\n' "$1" "$2" >&2
    return 1
  fi
}

# report_memory prints each container's peak and the peak of their sum,
# from podman stats' samples ("12.3MB" style sizes).
report_memory() {
  awk '
    function bytes(s,   n, u) {
      n = s + 0; u = s; sub(/^[0-9.]+/, "", u)
      if (u == "kB" || u == "KB") return n * 1e3
      if (u == "MB") return n * 1e6
      if (u == "GB") return n * 1e9
      if (u == "KiB") return n * 1024
      if (u == "MiB") return n * 1048576
      if (u == "GiB") return n * 1073741824
      return n
    }
    { b = bytes($3); sum[$1] += b; if (b > peak[$2]) peak[$2] = b }
    END {
      for (c in peak) printf "  %-26s %7.1f MB\n", c, peak[c] / 1e6
      for (t in sum) if (sum[t] > total) total = sum[t]
      printf "  %-26s %7.1f MB\n", "all containers (peak sum)", total / 1e6
    }' "$state/stats" | sort >&2
}

main "$@"
