#!/bin/sh
# One-shot job (temporalio/admin-tools image): waits for the Temporal server,
# creates the app's namespace if it is missing and registers the custom search
# attributes the app uses. Idempotent. (The app also registers missing search
# attributes itself at start-up; this job makes the compose setup explicit.)
set -eu

NAMESPACE="${TEMPORAL_NAMESPACE:-default}"
RETENTION="${NAMESPACE_RETENTION:-168h}"
ADDRESS="${TEMPORAL_ADDRESS:-temporal:7233}"
HOST="${ADDRESS%:*}"
PORT="${ADDRESS##*:}"

# Resolve the host to an IPv4 address first (what Temporal's own compose samples
# do: the CLI may otherwise try an IPv6 address the server does not listen on).
IP="$(getent ahostsv4 "$HOST" 2>/dev/null | awk 'NR == 1 { print $1 }' || true)"
if [ -z "$IP" ]; then
  IP="$(getent ahosts "$HOST" 2>/dev/null | awk '/STREAM/ && $1 ~ /^[0-9.]+$/ { print $1; exit }' || true)"
fi
if [ -n "$IP" ]; then
  ADDRESS="$IP:$PORT"
fi
echo "Temporal at $ADDRESS, namespace $NAMESPACE"

t() {
  temporal "$@" --address "$ADDRESS"
}

i=0
until t operator cluster health >/dev/null 2>&1; do
  i=$((i + 1))
  if [ "$i" -ge 60 ]; then
    echo "Temporal server did not become healthy" >&2
    exit 1
  fi
  echo "Waiting for the Temporal server ... ($i)"
  sleep 2
done

if t operator namespace describe --namespace "$NAMESPACE" >/dev/null 2>&1; then
  echo "Namespace $NAMESPACE exists"
else
  echo "Creating namespace $NAMESPACE (retention $RETENTION)"
  t operator namespace create --namespace "$NAMESPACE" --retention "$RETENTION"
fi

has_attribute() {
  t operator search-attribute list --namespace "$NAMESPACE" 2>/dev/null | awk '{ print $1 }' | grep -qx "$1"
}

# A namespace that was just created takes a few seconds to reach every cache, so
# retry until the attribute shows up in the list.
ensure_attribute() {
  name="$1"
  type="$2"
  n=0
  until has_attribute "$name"; do
    n=$((n + 1))
    if [ "$n" -gt 30 ]; then
      echo "Could not register search attribute $name ($type)" >&2
      exit 1
    fi
    t operator search-attribute create --namespace "$NAMESPACE" --name "$name" --type "$type" || sleep 2
  done
  echo "Search attribute $name ($type) is registered"
}

ensure_attribute TeamId Keyword
ensure_attribute CrawlId Keyword
ensure_attribute CrawlStatus Keyword
ensure_attribute PagesCrawled Int
ensure_attribute PagesQueued Int
ensure_attribute SessionStatus Keyword
ensure_attribute MonitorId Keyword

echo "Namespace $NAMESPACE is ready"
