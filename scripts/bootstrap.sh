#!/usr/bin/env bash
# Installs the project's own tools into .tools/ (git-ignored) when they are missing:
#   opa       the Rego compiler and test runner (Go module, pinned)
#   regal     the Rego linter (Go module, pinned; npm run policy:test runs it with .regal/config.yaml)
#   ferretdb  the embedded MongoDB-protocol database (Go module, pinned, built from source)
#   chromium  Debian's package, only with --browser (the ledger page tests need it)
#   upstream ferretdb without memgate's patches, only with --unpatched or MEMGATE_FERRETDB_PATCHES=none
#   haproxy   Debian's package, also with --browser (the three-gateway test balances through it)
# Idempotent: once everything is there it checks versions and returns in well under a second.
set -euo pipefail

OPA_VERSION="v1.10.1"
REGAL_VERSION="v0.39.0"
FERRETDB_VERSION="v1.24.2"
# The local patches below change what is built: the recorded version says which are in.
FERRETDB_BUILD="$FERRETDB_VERSION+memgate.13"

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tools="$root/.tools"
bin="$tools/bin"
want_browser=0
want_unpatched=0
[ "${MEMGATE_FERRETDB_PATCHES:-}" = none ] && want_unpatched=1
for arg in "$@"; do
  case "$arg" in
    --browser) want_browser=1 ;;
    --unpatched) want_unpatched=1 ;;
    *) echo "bootstrap: unknown argument $arg" >&2; exit 2 ;;
  esac
done

say() { printf 'bootstrap: %s\n' "$*" >&2; }

need_go() {
  if ! command -v go >/dev/null 2>&1; then
    say "Go is needed to build opa and ferretdb, and it is not on PATH."
    say "Install Go 1.24 or newer (for example Debian's 'golang' package, or /usr/local/go) and run again."
    exit 1
  fi
}

installed_version() { # tool, file that records the version it was built at
  [ -x "$bin/$1" ] && [ -f "$tools/$1.version" ] && cat "$tools/$1.version" || true
}

mkdir -p "$bin"

if [ "$(installed_version opa)" != "$OPA_VERSION" ]; then
  need_go
  say "installing opa $OPA_VERSION into .tools/bin (about a minute the first time) ..."
  GOBIN="$bin" GOFLAGS=-buildvcs=false go install "github.com/open-policy-agent/opa@$OPA_VERSION"
  echo "$OPA_VERSION" > "$tools/opa.version"
  say "opa $OPA_VERSION installed"
fi

if [ "$(installed_version regal)" != "$REGAL_VERSION" ]; then
  need_go
  say "installing regal $REGAL_VERSION into .tools/bin (a minute or two the first time) ..."
  # Built from a throwaway module that requires the pinned version, not `go install pkg@version`:
  # that form also asks the module proxy for the module's version list (to warn of a deprecation),
  # and a proxy may refuse the list while serving the pinned version.
  regal_build="$tools/build/regal"
  mkdir -p "$regal_build"
  printf 'module regalbuild\n\ngo 1.24\n\nrequire github.com/open-policy-agent/regal %s\n' "$REGAL_VERSION" > "$regal_build/go.mod"
  printf '//go:build tools\n\npackage tools\n\nimport _ "github.com/open-policy-agent/regal"\n' > "$regal_build/tools.go"
  (cd "$regal_build" && GOFLAGS=-buildvcs=false go mod tidy && GOFLAGS=-buildvcs=false go build -o "$bin/regal" github.com/open-policy-agent/regal)
  echo "$REGAL_VERSION" > "$tools/regal.version"
  say "regal $REGAL_VERSION installed"
fi

# The patches (scripts/ferretdb-patches/memgate.N.patch, applied in order by
# scripts/ferretdb-source.sh; each adds a Go test beside what it changes, run by
# scripts/ferretdb-test.sh) are optimisations: memgate is correct on upstream FerretDB too
# (MEMGATE_FERRETDB_PATCHES=none, scripts/test-unpatched.sh).
#   memgate.1  SQLite filters `_id` with `_ferretdb_sjson->'$._id'` while its unique index is on
#              `_ferretdb_sjson->"_id"`; SQLite uses an expression index only for the same
#              expression, so every `_id` lookup, update and delete scanned the table (a lookup near
#              the end of a 20,000-event log took ~100 ms). Filtering with `->'_id'` uses the index.
#   memgate.2  SQLite pushed `_id` down only when it was the filter's one key, so `{_id, version}`
#              (an optimistic update) scanned the table. With `_id` pushed down whatever else the
#              filter holds, the row set is at most one document, and the handler still applies the
#              whole filter to it in Go (find, update, delete, findAndModify all do).
#   memgate.3  `_id: {$in: [ids]}` is pushed down on SQLite (an IN over the unique index), and on
#              PostgreSQL an `_id` (or `$in` of them) is pushed down as `_jsonb->'_id' = $1` /
#              `IN (...)`, the unique index's expression: upstream writes `_jsonb->$1 @> $2`, which
#              no btree serves (12 ms at 4,000 events against 0.08 ms).
#   memgate.4  an update command whose statements each target one document by a distinct string
#              `_id` (the quota counters' group commit) writes their documents in one transaction
#              after its last statement, instead of one transaction (and one WAL checkpoint, with
#              the erasing pragmas) per document. Every error reaches the client as upstream's.
#   memgate.5  outside debug builds, resource tracking does nothing (upstream adds every iterator,
#              cursor and transaction to a pprof profile with a finalizer: ~8% of the database's CPU).
#   memgate.6  sjson is read and written with github.com/goccy/go-json instead of encoding/json
#              (an `_id` $in of 100 events: 30 ms, 18 ms with it); the JSON is the same.
#   memgate.7  on SQLite an `_id` range of strings alone (`{$gt, $lt}`) is pushed down, with a sort on
#              `_id` and the limit when the find asks for them, over an index on the `_id` as SQL
#              text (created on first use; the unique index's JSON text sorts escapes and the closing
#              quote unlike MongoDB): a page of a walk over one tenant's `_id` prefix (re-judging,
#              checkpoints) reads that page, not the table.
#   memgate.8  on SQLite, writers of one database take turns in Go, in arrival order, before they
#              touch it (fsql.SerializeWrites): SQLite's busy handler sleeps 1-100 ms between tries
#              and lets a newcomer take the lock first, so one tenant's write waited behind a
#              flood of another's for hundreds of milliseconds (issue 22).
#   memgate.9  each statement of an update command closes its query when it is done, not when the
#              command is: the 100th statement of one command waited for a pool connection forever.
#   memgate.10 on PostgreSQL, patch 7's twin: an `_id` range of strings is pushed down, with the `_id`
#              sort and the limit, over an index on `(_jsonb->>'_id') COLLATE "C"` (byte order, as
#              MongoDB compares strings; created on first use): re-judging walked each page by a
#              scan of the collection (3 objects/s in bench:scale). Its Go test needs a live
#              PostgreSQL and is skipped without one (MEMGATE_FERRETDB_TEST_POSTGRESQL_URL).
#   memgate.11 on PostgreSQL, patch 10's index is created with its table, in the table's transaction,
#              so it grows with the table. Patch 10 created it on a process's first `_id` range query
#              of the table, so after a bulk load the first gateway's background work (re-judging,
#              log verification) built it over each whole table (0.2-1.0 s a table at 40,000-200,000
#              rows, growing with the table), holding a lock that blocks the table's writes meanwhile.
#              A table from before the patch gets it on first use, built CONCURRENTLY in the
#              background under an advisory lock (an invalid leftover of an interrupted build is
#              dropped and built again); the query reads the table without it meanwhile. Live Go
#              test as patch 10's.
build_ferretdb() { # patched|none, the binary to write
  need_go
  local build="$tools/build/ferretdb-$1"
  bash "$root/scripts/ferretdb-source.sh" "$build" "$1"
  if [ "$1" = patched ]; then
    say "testing memgate's ferretdb patches (scripts/ferretdb-test.sh, about 20 s) ..."
    bash "$root/scripts/ferretdb-test.sh" "$build" >&2 || { say "the ferretdb patches' Go tests failed"; exit 1; }
  fi
  mkdir -p "$(dirname "$2")"
  (cd "$build" && GOFLAGS="-mod=mod -buildvcs=false" go build -o "$2" github.com/FerretDB/FerretDB/cmd/ferretdb)
  rm -rf "$build"
}

if [ "$(installed_version ferretdb)" != "$FERRETDB_BUILD" ]; then
  say "building ferretdb $FERRETDB_BUILD into .tools/bin (about a minute the first time) ..."
  build_ferretdb patched "$bin/ferretdb"
  echo "$FERRETDB_BUILD" > "$tools/ferretdb.version"
  say "ferretdb $FERRETDB_BUILD installed"
fi

# Upstream FerretDB without memgate's patches, only when asked (MEMGATE_FERRETDB_PATCHES=none or
# --unpatched): the embedded database runs it instead when MEMGATE_FERRETDB_PATCHES=none.
unpatched="$tools/ferretdb-unpatched"
if [ "$want_unpatched" = 1 ] && { [ ! -x "$unpatched/ferretdb" ] || [ "$(cat "$unpatched/version" 2>/dev/null)" != "$FERRETDB_VERSION" ]; }; then
  say "building upstream ferretdb $FERRETDB_VERSION (no patches) into .tools/ferretdb-unpatched ..."
  build_ferretdb none "$unpatched/ferretdb"
  echo "$FERRETDB_VERSION" > "$unpatched/version"
  say "upstream ferretdb $FERRETDB_VERSION installed"
fi

if [ "$want_browser" = 1 ] && ! command -v chromium >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    say "installing Debian's chromium for the ledger page tests ..."
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) >&2
  else
    say "the ledger page tests need Chromium: install Debian's 'chromium' package (apt-get install chromium) and run again."
    exit 1
  fi
fi

if [ "$want_browser" = 1 ] && ! command -v haproxy >/dev/null 2>&1 && [ ! -x /usr/sbin/haproxy ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    say "installing Debian's haproxy for the three-gateway test ..."
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq haproxy) >&2
  else
    say "the three-gateway test needs HAProxy: install Debian's 'haproxy' package (apt-get install haproxy) and run again."
    exit 1
  fi
fi
