#!/bin/sh
# One-shot job (temporalio/admin-tools image): creates Temporal's databases and
# loads or upgrades their schema. Safe to re-run on every `docker compose up`:
# `create` ignores an existing database, `setup-schema -v 0.0` leaves a newer
# schema version alone, and `update-schema` applies only missing versions.
set -eu

DB_HOST="${POSTGRES_SEEDS:-postgres}"
DB_PORT="${DB_PORT:-5432}"
DB_USER="${POSTGRES_USER:-temporal}"
# temporal-sql-tool reads the password from SQL_PASSWORD.
export SQL_PASSWORD="${SQL_PASSWORD:-${POSTGRES_PWD:-}}"
SCHEMA_ROOT=/etc/temporal/schema/postgresql/v12

echo "Waiting for PostgreSQL at $DB_HOST:$DB_PORT ..."
i=0
until nc -z -w 5 "$DB_HOST" "$DB_PORT"; do
  i=$((i + 1))
  if [ "$i" -ge 60 ]; then
    echo "PostgreSQL did not accept connections" >&2
    exit 1
  fi
  sleep 2
done

sql_tool() {
  temporal-sql-tool --plugin postgres12 --ep "$DB_HOST" -p "$DB_PORT" -u "$DB_USER" "$@"
}

for pair in temporal:temporal visibility:temporal_visibility; do
  schema="${pair%%:*}"
  db="${pair#*:}"
  echo "Setting up database $db (schema $schema) ..."
  sql_tool --db "$db" create
  sql_tool --db "$db" setup-schema -v 0.0
  sql_tool --db "$db" update-schema -d "$SCHEMA_ROOT/$schema/versioned"
done

echo "Temporal schema is up to date"
