#!/bin/sh
# Mounted into the postgres image's /docker-entrypoint-initdb.d/: runs once, when
# the data volume is initialised for the first time (later changes here need a
# fresh volume: `docker compose down -v`).
#
#   crawl     login role owning database `crawl` (the app; it applies its own
#             migrations at start-up)
#   temporal  login role allowed to create databases; the temporal-admin-tools
#             job creates `temporal` and `temporal_visibility` with it and loads
#             Temporal's schema.
set -eu

psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
  -v crawl_password="${CRAWL_DB_PASSWORD:?CRAWL_DB_PASSWORD is not set}" \
  -v temporal_password="${TEMPORAL_DB_PASSWORD:?TEMPORAL_DB_PASSWORD is not set}" <<'SQL'
CREATE ROLE crawl LOGIN PASSWORD :'crawl_password';
CREATE DATABASE crawl OWNER crawl;
CREATE ROLE temporal LOGIN CREATEDB PASSWORD :'temporal_password';
SQL
