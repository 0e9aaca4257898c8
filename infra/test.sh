#!/usr/bin/env bash
# Runs every test of the workspace, installing what the tests need first:
# the Python peers (python-chess, pyffish) the rules are checked against.
set -euo pipefail
cd "$(dirname "$0")/.."

python="${MISSIVE_PYTHON:-python3}"
if ! "$python" -c 'import chess, pyffish' 2>/dev/null; then
    echo "installing the Python peers (infra/python-requirements.txt)" >&2
    "$python" -m pip install --quiet --disable-pip-version-check -r infra/python-requirements.txt
fi
export MISSIVE_PYTHON="$python"

cargo test --workspace --all-targets --locked "$@"
