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
# Upstream scans for every filter but a lone `_id` (no `$in` pushdown, and on SQLite not even its
# `_id` index): the same answers, slower. A test that makes many requests can pass 60 s on a busy
# machine, so tests get 5 minutes each here (hooks keep their own timeouts).
exec npx jest --testTimeout=300000 "$@"
