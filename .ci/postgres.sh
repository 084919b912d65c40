#!/usr/bin/env bash
# A throwaway PostgreSQL server for the PostgreSQL backend's tests, on a loopback port, in a
# temporary folder, run by a user who is not root (as root: nobody).
#   eval "$(bash .ci/postgres.sh start)"   # exports PGHOST, PGPORT, PGUSER, PGPASSWORD, PGDATABASE
#   bash .ci/postgres.sh restart           # stops it at once, as a crash would, and starts it again
#   bash .ci/postgres.sh outage SECONDS    # the same, with the server down for SECONDS
#   bash .ci/postgres.sh stop              # stops it and removes its folder
# The server's own programs come from the distribution's packages (apt-get install postgresql);
# its TLS certificate from openssl.
set -euo pipefail

bin=$(dirname "$(command -v initdb 2>/dev/null || ls /usr/lib/postgresql/*/bin/initdb 2>/dev/null | tail -1 || true)")
if [ ! -x "$bin/initdb" ]; then
    apt-get update -qq >&2 && apt-get install -y -qq postgresql >/dev/null
    bin=$(dirname "$(ls /usr/lib/postgresql/*/bin/initdb | tail -1)")
fi
as_server=()
if [ "$(id -u)" = 0 ]; then as_server=(setpriv --reuid=65534 --regid=65534 --clear-groups); fi

case "${1:-}" in
start)
    folder=$(mktemp -d /tmp/typeddefaults-postgres.XXXXXX)
    chmod 755 "$folder"
    password=$(head -c 18 /dev/urandom | od -An -tx1 | tr -d ' \n')
    printf '%s\n' "$password" >"$folder/password"
    mkdir "$folder/data"
    chmod 700 "$folder/data"
    if [ "$(id -u)" = 0 ]; then chown -R 65534:65534 "$folder"; fi
    # Passwords checked over TCP (so a wrong one is refused), the socket trusted for the script.
    "${as_server[@]}" "$bin/initdb" -D "$folder/data" -U typeddefaults --pwfile="$folder/password" \
        --auth-local=trust --auth-host=scram-sha-256 >"$folder/initdb.log" 2>&1
    rm "$folder/password"
    # TLS too, with a certificate for 127.0.0.1 that the tests trust (TYPEDDEFAULTS_POSTGRES_CA).
    openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=127.0.0.1" -addext "subjectAltName=IP:127.0.0.1" \
        -keyout "$folder/data/server.key" -out "$folder/data/server.crt" >/dev/null 2>&1
    cp "$folder/data/server.crt" "$folder/ca.crt"
    chmod 600 "$folder/data/server.key"
    if [ "$(id -u)" = 0 ]; then chown 65534:65534 "$folder/data/server.key" "$folder/data/server.crt"; fi
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    "${as_server[@]}" "$bin/pg_ctl" -D "$folder/data" -l "$folder/server.log" -w -t 30 \
        -o "-c listen_addresses=127.0.0.1 -p $port -k $folder -c ssl=on" start >/dev/null
    echo "$port" >"$folder/port"
    echo "export PGHOST=127.0.0.1 PGPORT=$port PGUSER=typeddefaults PGPASSWORD=$password PGDATABASE=postgres"
    echo "export TYPEDDEFAULTS_POSTGRES_FOLDER=$folder TYPEDDEFAULTS_POSTGRES_CA=$folder/ca.crt"
    ;;
restart)
    # Stops the server at once (as a crash would) and starts it again on the same port.
    folder=${TYPEDDEFAULTS_POSTGRES_FOLDER:?start the server first}
    "${as_server[@]}" "$bin/pg_ctl" -D "$folder/data" -l "$folder/server.log" -m immediate -w -t 30 restart >/dev/null
    ;;
outage)
    folder=${TYPEDDEFAULTS_POSTGRES_FOLDER:?start the server first}
    "${as_server[@]}" "$bin/pg_ctl" -D "$folder/data" -m immediate -w -t 30 stop >/dev/null
    sleep "${2:?how many seconds}"
    "${as_server[@]}" "$bin/pg_ctl" -D "$folder/data" -l "$folder/server.log" -w -t 30 \
        -o "-c listen_addresses=127.0.0.1 -p $(cat "$folder/port") -k $folder -c ssl=on" start >/dev/null
    ;;
stop)
    folder=${TYPEDDEFAULTS_POSTGRES_FOLDER:?start the server first}
    "${as_server[@]}" "$bin/pg_ctl" -D "$folder/data" -m fast -w stop >/dev/null || true
    rm -rf "$folder"
    ;;
*)
    echo "usage: $0 start|restart|outage SECONDS|stop" >&2
    exit 2
    ;;
esac
