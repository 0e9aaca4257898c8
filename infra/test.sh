#!/usr/bin/env bash
# Runs every test of the workspace, installing what the tests need first:
# the Python peers (python-chess, pyffish) the rules are checked against and the client
# generator the API description is checked with (openapi-python-client), the SOAP client the
# Xfcc service is played with (zeep), an independent Glicko-2 (glicko2), moto's server (SSM,
# SES and SQS for the cloud-path test, S3 and IAM for the inbound function's read), http_ece
# (Web Push messages decrypted), headless Chromium and chromedriver (Debian packages) for the
# move page's browser test, and DynamoDB Local (in memory on a free loopback port, stopped
# again when the tests end) for the store tests.
set -euo pipefail
cd "$(dirname "$0")/.."

python="${MISSIVE_PYTHON:-python3}"
if ! "$python" -c 'import chess, pyffish, samtranslator, cfnlint, openapi_python_client, zeep, glicko2, moto.server, flask_cors, http_ece' 2>/dev/null; then
    echo "installing the Python peers (infra/python-requirements.txt)" >&2
    "$python" -m pip install --quiet --disable-pip-version-check -r infra/python-requirements.txt
fi
export MISSIVE_PYTHON="$python"

if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
    if command -v apt-get >/dev/null; then
        echo "installing chromium and chromium-driver" >&2
        apt-get update -qq >&2
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
            chromium chromium-driver >&2
    elif [[ -n "${CI:-}" ]]; then
        echo "chromium and chromedriver are needed, and apt-get is not here" >&2
        exit 1
    else
        echo "warning: no chromium, chromedriver or apt-get: the browser test is skipped" >&2
    fi
fi

endpoint="$(infra/dynamodb-local.sh start)"
trap 'infra/dynamodb-local.sh stop' EXIT
export AWS_ENDPOINT_URL_DYNAMODB="$endpoint"
export AWS_REGION=us-east-1
# Static dummy credentials keep the SDK from looking further; DynamoDB Local accepts any
# key id made of letters and digits only.
export AWS_ACCESS_KEY_ID=missivetest AWS_SECRET_ACCESS_KEY=missivetest
unset AWS_PROFILE AWS_SESSION_TOKEN

cargo test --workspace --all-targets --locked --no-fail-fast "$@"
