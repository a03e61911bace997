#!/usr/bin/env bash
# Runs memgate's whole jest suite on upstream FerretDB 1.24.2 without memgate's patches, to show
# that the patches (scripts/ferretdb-patches) are an optimisation, never a dependency.
#   bash scripts/test-unpatched.sh [jest arguments]
# It builds upstream FerretDB into .tools/ferretdb-unpatched/ the first time (about a minute),
# then runs what `npm test` runs with MEMGATE_FERRETDB_PATCHES=none: the test database, every
# gateway under test and every embedded FerretDB a test starts run the unpatched binary.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export MEMGATE_FERRETDB_PATCHES=none
bash scripts/bootstrap.sh --browser --unpatched
npm run -s policy:build
npm run -s web:build
npm run -s build
echo "test-unpatched: jest on $("$root/.tools/ferretdb-unpatched/ferretdb" --version 2>&1 | sed -n 's/^version: *//p' | head -1) (no patches)" >&2
exec npx jest "$@"
