#!/usr/bin/env bash
# Lints docs/openapi.json with Redocly CLI's recommended rules: any error fails.
# The npm package @redocly/cli is installed into infra/.redocly/ (git-ignored) if needed.
set -euo pipefail

package="@redocly/cli@2.77.0"
dir="$(cd "$(dirname "$0")" && pwd)/.redocly"
description="$(cd "$(dirname "$0")/.." && pwd)/docs/openapi.json"

if [[ ! -x "$dir/node_modules/.bin/redocly" ]]; then
    echo "installing $package into $dir" >&2
    mkdir -p "$dir"
    npm install --prefix "$dir" --no-audit --no-fund --no-save --silent "$package" >&2
fi
REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true \
    "$dir/node_modules/.bin/redocly" lint --format stylish "$description"
