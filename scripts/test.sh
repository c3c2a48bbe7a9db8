#!/usr/bin/env bash
# The whole test suite on a fresh machine (Debian, root): the Redis store's tests need a Redis on
# 127.0.0.1:6379 and the dashboard's browser test needs Chromium, so both are provided first when missing,
# then `npm test` (typecheck and every test) runs.
set -uo pipefail
cd "$(dirname "$0")/.."

redis_answers() { (exec 3<>/dev/tcp/127.0.0.1/6379) 2>/dev/null; }

if ! redis_answers; then
  if command -v redis-server >/dev/null 2>&1; then
    echo "Redis is not answering on 127.0.0.1:6379; starting one (no persistence)."
    redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no >/dev/null
    for _ in $(seq 1 50); do redis_answers && break; sleep 0.1; done
  fi
  redis_answers || echo "Redis is not answering on 127.0.0.1:6379 and could not be started (install redis-server); the Redis store's tests will fail."
fi

# The dashboard is tested in a real browser: Debian's chromium, driven by the pinned playwright-core.
if ! command -v chromium >/dev/null 2>&1; then
  echo "chromium is missing; installing it from Debian's packages for the browser test."
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y chromium >/dev/null 2>&1 \
    || { apt-get update >/dev/null 2>&1 && apt-get install -y chromium >/dev/null 2>&1; } \
    || echo "Could not install chromium (apt-get install -y chromium needs root); the browser test will fail."
fi

exec npm test
