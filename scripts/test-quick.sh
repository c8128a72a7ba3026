#!/usr/bin/env bash
# The everyday check before a commit (about a minute): types and lint side by side, the layer rules,
# then the unit tests that import what changed since the last commit, on SQLite. `npm test` runs everything.
set -uo pipefail
cd "$(dirname "$0")/.."
[ -d node_modules ] || { npm ci --no-audit --no-fund || exit 1; }

started=$SECONDS
mkdir -p node_modules/.cache
npx tsc --noEmit --incremental --tsBuildInfoFile node_modules/.cache/tsbuildinfo > node_modules/.cache/typecheck.log 2>&1 &
typecheck=$!
npx eslint . --max-warnings=0 --cache --cache-location node_modules/.cache/eslint
lint=$?
wait "$typecheck"
types=$?
cat node_modules/.cache/typecheck.log
npx tsx scripts/check-layers.ts
layers=$?
env -u TEST_DATABASE_URL npx vitest run --changed --passWithNoTests
unit=$?

echo "test:quick took $((SECONDS - started))s"
failed=()
[ $types -ne 0 ] && failed+=("Typecheck")
[ $lint -ne 0 ] && failed+=("Lint")
[ $layers -ne 0 ] && failed+=("Layers")
[ $unit -ne 0 ] && failed+=("Unit tests of the changed files")
if [ ${#failed[@]} -gt 0 ]; then
  printf 'Failed: %s\n' "${failed[@]}"
  exit 1
fi
