#!/bin/sh
# Creates the two Temporal databases on PostgreSQL and brings their schemas to the versions the
# sql tool embeds (v1.32.2: postgresql/v12/temporal and postgresql/v12/visibility). Every step is
# idempotent and every error stops the script (no error is ignored): create-database ignores an
# existing database, setup-schema -v 0.0 only creates the version tables, update-schema applies
# what is missing. Run by docker-compose.yml (service temporal-schema, admin-tools image) and by
# the topology test (test/topology), so both set up the same schema.
#
# Environment: SQL_HOST, SQL_PORT (default 5432), SQL_USER, SQL_PASSWORD (read by the tool),
# TEMPORAL_SQL_TOOL (default temporal-sql-tool on PATH).
set -eu
tool="${TEMPORAL_SQL_TOOL:-temporal-sql-tool}"
: "${SQL_HOST:?SQL_HOST must be set}"
: "${SQL_USER:?SQL_USER must be set}"
export SQL_PORT="${SQL_PORT:-5432}" SQL_PLUGIN=postgres12
for db in temporal temporal_visibility; do
  schema=temporal
  [ "$db" = temporal_visibility ] && schema=visibility
  echo "temporal-schema: $db (postgresql/v12/$schema) on $SQL_HOST:$SQL_PORT"
  "$tool" --db "$db" create-database
  "$tool" --db "$db" setup-schema -v 0.0
  "$tool" --db "$db" update-schema --schema-name "postgresql/v12/$schema"
done
echo "temporal-schema: done"
