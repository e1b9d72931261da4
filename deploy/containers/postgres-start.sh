#!/bin/sh
# The PostgreSQL image's /app: makes the cluster on first start (as the
# image's postgres user, since initdb refuses root), then runs the server in
# the foreground so the container stops with it.
set -eu
PATH=/usr/lib/postgresql/15/bin:$PATH
: "${PGDATA:=/var/lib/postgresql/data}"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  # With POSTGRES_PASSWORD the network needs it (scram); without, the
  # server trusts its network, which only a throwaway stack may do.
  auth=trust
  set --
  if [ -n "${POSTGRES_PASSWORD:-}" ]; then
    printf '%s\n' "$POSTGRES_PASSWORD" > /tmp/pwfile
    set -- --pwfile=/tmp/pwfile
    auth=scram-sha-256
  fi
  initdb -D "$PGDATA" -U postgres --encoding=UTF8 --locale=C.UTF-8 --auth-local=trust --auth-host="$auth" "$@" >/dev/null
  rm -f /tmp/pwfile
  echo "host all all 0.0.0.0/0 $auth" >> "$PGDATA/pg_hba.conf"
  echo "host all all ::/0 $auth" >> "$PGDATA/pg_hba.conf"
fi
exec postgres -D "$PGDATA" -c listen_addresses='*' -c unix_socket_directories=/tmp \
  -c max_connections="${POSTGRES_MAX_CONNECTIONS:-200}"
