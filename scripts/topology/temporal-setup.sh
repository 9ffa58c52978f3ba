#!/bin/sh
# Registers the namespace and the booking saga's search attributes on a running Temporal server,
# idempotently (an existing namespace or attribute is kept; any other error stops the script).
# Run by docker-compose.yml (service temporal-setup, admin-tools image) and by the topology test.
#
# Environment: TEMPORAL_ADDRESS (host:port), TEMPORAL_NAMESPACE (default `default`),
# TEMPORAL_RETENTION (default 7d), TEMPORAL_CLI (default `temporal` on PATH).
set -eu
cli="${TEMPORAL_CLI:-temporal}"
: "${TEMPORAL_ADDRESS:?TEMPORAL_ADDRESS must be set}"
namespace="${TEMPORAL_NAMESPACE:-default}"
# The attributes of scripts/temporal-dev-server.ts BOOKING_SEARCH_ATTRIBUTES (test/compose.e2e-spec.ts checks).
attributes="BookingStatus AgencyId Route BookingReference Airline Extras"

if ! "$cli" operator namespace describe --address "$TEMPORAL_ADDRESS" --namespace "$namespace" >/dev/null 2>&1; then
  "$cli" operator namespace create --address "$TEMPORAL_ADDRESS" --namespace "$namespace" --retention "${TEMPORAL_RETENTION:-7d}"
fi
# A new namespace is served once every service's namespace cache has refreshed (about 10 s).
tries=0
until existing="$("$cli" operator search-attribute list --address "$TEMPORAL_ADDRESS" --namespace "$namespace" 2>&1)"; do
  tries=$((tries + 1))
  if [ "$tries" -ge 300 ]; then echo "temporal-setup: namespace $namespace not served: $existing" >&2; exit 1; fi
  sleep 0.2
done
for name in $attributes; do
  if printf '%s\n' "$existing" | grep -qw "$name"; then continue; fi
  "$cli" operator search-attribute create --address "$TEMPORAL_ADDRESS" --namespace "$namespace" --name "$name" --type Keyword
done
echo "temporal-setup: namespace $namespace with $attributes on $TEMPORAL_ADDRESS"
