#!/usr/bin/env bash
# Every check the project has: types, lint, layers, unit tests, then end-to-end tests in Chromium
# (JavaScript on and off) against the production build. Installs what is missing first.
# Every group runs even when an earlier one fails; the failures are listed at the end.
set -uo pipefail
cd "$(dirname "$0")/.."

if [ ! -d node_modules ]; then
  npm ci --no-audit --no-fund || exit 1
fi

# The end-to-end tests run in Chromium's headless shell; the push tests in the full browser.
if [ -z "${CHROME_PATH:-}" ] && { [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromium-headless-shell ]; }; then
  echo "Installing Debian's Chromium and its headless shell for the end-to-end tests…"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
    chromium chromium-headless-shell || echo "!! apt-get could not install Chromium and its headless shell"
  if [ ! -x /usr/bin/chromium-headless-shell ] && [ -x /usr/bin/chromium ]; then
    echo "Without the headless shell, the end-to-end tests run in the full Chromium (slower)."
    export CHROME_PATH=/usr/bin/chromium
  fi
fi

failed=()
timings=()
run_started=$SECONDS
group() {
  local name="$1"; shift
  local started=$SECONDS
  echo "== $name"
  if ! "$@"; then
    failed+=("$name")
    echo "!! $name failed"
  fi
  local took=$((SECONDS - started))
  timings+=("$(printf '%4dm%02ds  %s' $((took / 60)) $((took % 60)) "$name")")
  echo "== $name: $((took / 60))m$((took % 60))s"
}

free_port() { node -e 'const s=require("net").createServer();s.listen(0,()=>{console.log(s.address().port);s.close()})'; }
E2E_PORT="${E2E_PORT:-$(free_port)}"
export E2E_PORT

# Two instances of the build on one PostgreSQL database: TEST_DATABASE_URL when given (an admin URL),
# else a throwaway cluster started here and removed afterwards.
scale_smoke() {
  local first second admin_url="${TEST_DATABASE_URL:-}" cluster_port="" status
  first="$(free_port)"
  second="$(free_port)"
  while [ "$second" = "$first" ]; do second="$(free_port)"; done
  if [ -z "$admin_url" ]; then
    cluster_port="$(free_port)"
    admin_url="$(bash scripts/postgres.sh start "$cluster_port")" || return 1
    trap 'bash scripts/postgres.sh stop "$cluster_port"' EXIT
  fi
  TEST_DATABASE_URL="$admin_url" SCALE_PORTS="$first,$second" npx playwright test --config=playwright.scale.config.ts
  status=$?
  if [ -n "$cluster_port" ]; then
    bash scripts/postgres.sh stop "$cluster_port"
    trap - EXIT
  fi
  return $status
}

# Tests that move a server's one clock run one at a time on a server of their own: with JavaScript and
# without side by side, each on its own server, port and data folder. Each keeps its own failures
# (Playwright empties its output folder when it starts).
clock_tests() {
  local log status=0 no_js_port js_port no_js
  log="$(mktemp)"
  no_js_port="$(free_port)"
  js_port="$(free_port)"
  while [ "$js_port" = "$no_js_port" ]; do js_port="$(free_port)"; done
  E2E_PORT="$no_js_port" E2E_DATA_DIR=tests/.tmp/e2e-clock-no-js npx playwright test --project=clock-no-js \
    --no-deps --workers=1 --output=test-results/clock-no-js > "$log" 2>&1 &
  no_js=$!
  E2E_PORT="$js_port" E2E_DATA_DIR=tests/.tmp/e2e-clock-js npx playwright test --project=clock-js \
    --no-deps --workers=1 --output=test-results/clock-js || status=1
  wait "$no_js" || status=1
  echo "-- without JavaScript:"
  cat "$log"
  rm -f "$log"
  return $status
}

# Typecheck and lint side by side: each mostly waits on one core.
typecheck_and_lint() {
  local log status=0
  log="$(mktemp)"
  npm run -s typecheck > "$log" 2>&1 &
  local typecheck=$!
  npm run -s lint || { echo "!! lint failed"; status=1; }
  wait "$typecheck" || { echo "!! typecheck failed"; status=1; }
  cat "$log"
  rm -f "$log"
  return $status
}
group "Typecheck and lint" typecheck_and_lint
group "Layers" npm run -s check:layers
group "Unit tests" env -u TEST_DATABASE_URL npx vitest run

# The same unit tests on PostgreSQL: against TEST_DATABASE_URL when given, otherwise a throwaway
# cluster (scripts/postgres.sh, which installs PostgreSQL when missing) stopped again even on failure.
unit_tests_on_postgres() {
  if [ -n "${TEST_DATABASE_URL:-}" ]; then
    npx vitest run
    return
  fi
  local port="${PG_TEST_PORT:-55431}" url status
  url="$(bash scripts/postgres.sh start "$port")" || return 1
  trap 'bash scripts/postgres.sh stop "$port"' EXIT
  TEST_DATABASE_URL="$url" npx vitest run
  status=$?
  bash scripts/postgres.sh stop "$port"
  trap - EXIT
  return $status
}
group "Unit tests on PostgreSQL" unit_tests_on_postgres
group "Build" npm run -s build
if [[ " ${failed[*]} " == *" Build "* ]]; then
  failed+=("End-to-end tests (not run: no build)")
else
  group "First-load JavaScript and CSS budgets" npm run -s bench:js
  group "End-to-end tests (port $E2E_PORT)" npx playwright test --project=js --project=no-js
  group "End-to-end tests that move the clock" clock_tests
  group "End-to-end smoke on PostgreSQL, two instances" scale_smoke
fi

echo
echo "Durations:"
printf '  %s\n' "${timings[@]}"
total=$((SECONDS - run_started))
printf '  %4dm%02ds  total\n' $((total / 60)) $((total % 60))
echo
if [ ${#failed[@]} -gt 0 ]; then
  echo "Failed groups (${#failed[@]}):"
  printf '  - %s\n' "${failed[@]}"
  exit 1
fi
echo "Every group passed."
