#!/usr/bin/env bash
# Runs the Go tests that memgate's FerretDB patches add beside what they change
# (scripts/ferretdb-patches/memgate.N.patch; each test's name starts with TestMemgate), on a
# patched copy of the pinned FerretDB:
#   bash scripts/ferretdb-test.sh            # prepares its own patched copy (about 50 s, warm cache)
#   bash scripts/ferretdb-test.sh <dir>      # a tree from scripts/ferretdb-source.sh (about 20 s)
# scripts/bootstrap.sh runs it on the tree it builds FerretDB from, so every (re)build is tested.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
command -v go >/dev/null 2>&1 || { echo "ferretdb-test: Go is needed (as for scripts/bootstrap.sh)" >&2; exit 1; }

if [ $# -ge 1 ]; then
  work="$1"
else
  work="$(mktemp -d "${TMPDIR:-/tmp}/memgate-ferretdb-test-XXXXXX")"
  trap 'rm -rf "$work"' EXIT
  bash "$root/scripts/ferretdb-source.sh" "$work" patched
fi

# The packages the patches touch, from the test files they add.
packages="$(cd "$work/FerretDB" && grep -l '^func TestMemgate' -r --include='*_test.go' internal | xargs -n1 dirname | sort -u | sed 's|^|./|')"
cd "$work/FerretDB"
# shellcheck disable=SC2086 # one argument per package
go test -count=1 -run '^TestMemgate' $packages
# Patch 5 changes what release builds do and keeps debug builds as upstream: test both.
go test -count=1 -tags ferretdb_debug -run '^TestMemgate' ./internal/util/resource
