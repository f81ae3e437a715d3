#!/bin/sh
# The part of the official postgres image's entry point the compose stack relies
# on: on an empty data directory, initdb with POSTGRES_USER / POSTGRES_PASSWORD,
# create POSTGRES_DB, run /docker-entrypoint-initdb.d/*.sh against a server that
# listens on its socket only, then run the server on every interface.
set -eu

if [ ! -s "$PGDATA/PG_VERSION" ]; then
  pwfile="$(mktemp)"
  printf '%s\n' "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD is not set}" > "$pwfile"
  initdb --username="${POSTGRES_USER:-postgres}" --pwfile="$pwfile" --auth-local=trust --auth-host=scram-sha-256 >/dev/null
  rm -f "$pwfile"
  echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
  pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
  if [ "${POSTGRES_DB:-postgres}" != postgres ]; then
    psql -v ON_ERROR_STOP=1 --username "${POSTGRES_USER:-postgres}" --dbname postgres -c "CREATE DATABASE \"$POSTGRES_DB\""
  fi
  for script in /docker-entrypoint-initdb.d/*.sh; do
    [ -e "$script" ] || continue
    echo "running $script"
    sh "$script"
  done
  pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
fi

if [ "$1" = postgres ]; then
  shift
  exec postgres -c listen_addresses='*' "$@"
fi
exec "$@"
