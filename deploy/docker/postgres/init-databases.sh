#!/bin/sh
# Runs once, when the PostgreSQL container starts with an empty data directory (docker-compose.yml mounts it into
# /docker-entrypoint-initdb.d). One database per service, each owned by its own login role: no service can read
# another's tables. Each service's Flyway scripts create the tables.
#
# The passwords come from the container's environment (see the postgres service in docker-compose.yml). To apply a
# change here or there, start from an empty volume: `docker compose down -v`.
set -eu

create_database() { # <role> <password> <database>
  psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname postgres \
       -v role="$1" -v password="$2" -v database="$3" <<'SQL'
CREATE ROLE :"role" LOGIN PASSWORD :'password';
CREATE DATABASE :"database" OWNER :"role";
REVOKE ALL ON DATABASE :"database" FROM PUBLIC;
SQL
}

create_database gateway       "$GATEWAY_DB_PASSWORD"       gateway
create_database payment_links "$PAYMENT_LINKS_DB_PASSWORD" payment_links
create_database webhooks      "$WEBHOOKS_DB_PASSWORD"      webhooks
create_database subscriptions "$SUBSCRIPTIONS_DB_PASSWORD" subscriptions
create_database chain_watcher "$CHAIN_WATCHER_DB_PASSWORD" chain_watcher
create_database notifications "$NOTIFICATIONS_DB_PASSWORD" notifications
