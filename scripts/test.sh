#!/usr/bin/env bash
# Every check the project has: types, lint, unit tests, then end-to-end tests in Chromium
# (JavaScript on and off) against the production build. Installs what is missing first.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -d node_modules ]; then
  npm install --no-audit --no-fund
fi

if [ -z "${CHROME_PATH:-}" ] && [ ! -x /usr/bin/chromium ]; then
  echo "Installing Debian's Chromium for the end-to-end tests…"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends chromium
fi

echo "== Typecheck"; npm run -s typecheck
echo "== Lint"; npm run -s lint
echo "== Unit tests"; npx vitest run
echo "== Build"; npm run -s build
echo "== First-load JavaScript and CSS budgets"; npm run -s bench:js
E2E_PORT="${E2E_PORT:-$(node -e 'const s=require("net").createServer();s.listen(0,()=>{console.log(s.address().port);s.close()})')}"
export E2E_PORT
echo "== End-to-end tests (port $E2E_PORT)"; npx playwright test --project=js --project=no-js
# Tests that move the server's one clock run one at a time, on a server of their own.
echo "== End-to-end tests that move the clock"; npx playwright test --project=clock-js --project=clock-no-js --no-deps --workers=1
