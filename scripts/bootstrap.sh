#!/usr/bin/env bash
# Installs the project's own tools into .tools/ (git-ignored) when they are missing:
#   opa       the Rego compiler and test runner (Go module, pinned)
#   ferretdb  the embedded MongoDB-protocol database (Go module, pinned, built from source)
#   chromium  Debian's package, only with --browser (the ledger page tests need it)
#   haproxy   Debian's package, also with --browser (the three-gateway test balances through it)
# Idempotent: once everything is there it checks versions and returns in well under a second.
set -euo pipefail

OPA_VERSION="v1.10.1"
FERRETDB_VERSION="v1.24.2"
# The local patches below change what is built: the recorded version says which are in.
FERRETDB_BUILD="$FERRETDB_VERSION+memgate.6"

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tools="$root/.tools"
bin="$tools/bin"
want_browser=0
for arg in "$@"; do
  case "$arg" in
    --browser) want_browser=1 ;;
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

if [ "$(installed_version ferretdb)" != "$FERRETDB_BUILD" ]; then
  need_go
  say "building ferretdb $FERRETDB_VERSION into .tools/bin (about a minute the first time) ..."
  # 'go install module@version' is refused here (the proxy will not answer the version-list
  # lookup), so a pinned tools module (scripts/ferretdb-tools) resolves it instead.
  build="$tools/build/ferretdb"
  rm -rf "$build"; mkdir -p "$build"
  cp "$root/scripts/ferretdb-tools/go.mod" "$root/scripts/ferretdb-tools/go.sum" \
     "$root/scripts/ferretdb-tools/tools.go" "$build/"
  (cd "$build" && GOFLAGS=-mod=mod go mod download github.com/FerretDB/FerretDB)
  src="$(cd "$build" && go list -m -f '{{.Dir}}' github.com/FerretDB/FerretDB)"
  # FerretDB's release process generates build/version/version.txt and it panics at start
  # without it, so build from a writable copy of the module that has the file.
  cp -r "$src" "$build/FerretDB"
  chmod -R u+w "$build/FerretDB"
  echo "$FERRETDB_VERSION" > "$build/FerretDB/build/version/version.txt"
  # Patch (memgate.1): FerretDB's SQLite backend filters `_id` with `_ferretdb_sjson->'$._id'` while
  # its unique index is on `_ferretdb_sjson->"_id"`; SQLite uses an expression index only for the
  # same expression, so every `_id` lookup, update and delete scanned the table (a lookup near the
  # end of a 20,000-event log took ~100 ms). Filtering with `->'_id'` (the same value) uses the index.
  metadata_go="$build/FerretDB/internal/backends/sqlite/metadata/metadata.go"
  sed -i "s|IDColumn = DefaultColumn + \"->'\$._id'\"|IDColumn = DefaultColumn + \"->'_id'\"|" "$metadata_go"
  grep -q "IDColumn = DefaultColumn + \"->'_id'\"" "$metadata_go" || { say "the ferretdb _id index patch did not apply"; exit 1; }
  # Patch (memgate.2): the SQLite backend pushed `_id` down only when it was the filter's one key, so
  # `{_id, version}` (an optimistic update) scanned the table. With `_id` pushed down whatever else
  # the filter holds, the row set is at most one document, and FerretDB's handler still applies the
  # whole filter to it in Go (find, update, delete, findAndModify all do): same answers, no scan.
  collection_go="$build/FerretDB/internal/backends/sqlite/collection.go"
  sed -i 's|if params.Filter.Len() == 1 {|if params.Filter.Len() >= 1 {|' "$collection_go"
  [ "$(grep -c 'if params.Filter.Len() >= 1 {' "$collection_go")" = 2 ] || { say "the ferretdb _id pushdown patch did not apply"; exit 1; }
  # Patch (memgate.3, scripts/ferretdb-patches/memgate.3.patch): `_id: {$in: [ids]}` is pushed down
  # on SQLite (an IN over the unique index instead of a table scan), and on PostgreSQL an `_id`
  # (or `$in` of them) is pushed down as `_jsonb->'_id' = $1` / `IN (...)`, the unique index's
  # expression: upstream writes `_jsonb->$1 @> $2`, which no btree serves, so every `_id` lookup
  # scanned the table (12 ms at 4,000 events against 0.08 ms). The handler still applies the whole
  # filter to the rows it gets back, so answers are unchanged.
  (cd "$build/FerretDB" && git apply -p1 "$root/scripts/ferretdb-patches/memgate.3.patch") || { say "the ferretdb memgate.3 patch did not apply"; exit 1; }
  # Patch (memgate.4, scripts/ferretdb-patches/memgate.4.patch): an update command whose statements
  # each target one document by a distinct string `_id` (the quota counters' group commit) writes
  # their documents in one transaction after its last statement, instead of one transaction per
  # document; on SQLite each of those also checkpointed the WAL (the erasing pragmas). Statements
  # that could see each other's changes (a repeated `_id`, `multi`, no `_id`) run as upstream.
  (cd "$build/FerretDB" && git apply -p1 "$root/scripts/ferretdb-patches/memgate.4.patch") || { say "the ferretdb memgate.4 patch did not apply"; exit 1; }
  # Patch (memgate.5, scripts/ferretdb-patches/memgate.5.patch): outside debug builds, resource
  # tracking does nothing. Upstream adds every document iterator, cursor, transaction and row set
  # to a pprof profile with its stack and sets a finalizer on it, to catch leaks in its own tests:
  # about 8% of the database's CPU on memgate's write path, for nothing in a release build.
  (cd "$build/FerretDB" && git apply -p1 "$root/scripts/ferretdb-patches/memgate.5.patch") || { say "the ferretdb memgate.5 patch did not apply"; exit 1; }
  grep -q "memgate patch 5" "$build/FerretDB/internal/util/resource/resource.go" || { say "the ferretdb memgate.5 patch did not apply"; exit 1; }
  # Patch (memgate.6, scripts/ferretdb-patches/memgate.6.patch): FerretDB's storage format (sjson)
  # is read and written with github.com/goccy/go-json, a drop-in for encoding/json, instead of
  # encoding/json. Decoding every document a query returns was the largest part of a read: an
  # `_id` $in of 100 events took 30 ms, 18 ms with it. The JSON is the same (FerretDB's sjson
  # tests pass, except for the wording of errors about malformed JSON, which FerretDB never wrote).
  (cd "$build/FerretDB" && git apply -p1 "$root/scripts/ferretdb-patches/memgate.6.patch") || { say "the ferretdb memgate.6 patch did not apply"; exit 1; }
  grep -q "goccy/go-json" "$build/FerretDB/internal/handler/sjson/sjson.go" || { say "the ferretdb memgate.6 patch did not apply"; exit 1; }
  (cd "$build" \
    && go mod edit -replace "github.com/FerretDB/FerretDB=./FerretDB" \
    && GOFLAGS="-mod=mod -buildvcs=false" go build -o "$bin/ferretdb" github.com/FerretDB/FerretDB/cmd/ferretdb)
  rm -rf "$build"
  echo "$FERRETDB_BUILD" > "$tools/ferretdb.version"
  say "ferretdb $FERRETDB_BUILD installed"
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
