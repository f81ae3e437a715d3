#!/bin/sh
# Runs the dev server with the dynamic config the compose file mounts for the
# real server (docker/temporal-dynamicconfig.yaml): each key's first value
# becomes a --dynamic-config-value, so the test runs with the same settings.
set -eu

config="${DYNAMIC_CONFIG_FILE:-/etc/temporal/config/dynamicconfig/crawl.yaml}"
set --
if [ -f "$config" ]; then
  for pair in $(awk '/^[A-Za-z][A-Za-z0-9_.]*:/ { key = $1; sub(/:$/, "", key) } key && /^ *- *value:/ { print key "=" $3; key = "" }' "$config"); do
    set -- "$@" --dynamic-config-value "$pair"
  done
fi
echo "temporal dev server: $*"
exec temporal server start-dev --ip 0.0.0.0 --port 7233 --headless --log-level warn \
  --db-filename /var/lib/temporal/temporal.db "$@"
