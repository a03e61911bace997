#!/usr/bin/env bash
# Prepares a buildable FerretDB source tree for scripts/bootstrap.sh and scripts/ferretdb-test.sh:
#   scripts/ferretdb-source.sh <dir> patched|none
# <dir> becomes a Go module (a copy of scripts/ferretdb-tools) whose FerretDB is replaced by a
# writable copy of the pinned module in <dir>/FerretDB, with memgate's patches applied
# (scripts/ferretdb-patches/memgate.N.patch, in order) unless "none" is asked.
set -euo pipefail

dir="$1"
mode="$2"
case "$mode" in patched|none) ;; *) echo "ferretdb-source: patched or none, not $mode" >&2; exit 2 ;; esac

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
version="$(sed -n 's|^require github.com/FerretDB/FerretDB \(v[0-9.]*\)$|\1|p' "$root/scripts/ferretdb-tools/go.mod")"

rm -rf "$dir"; mkdir -p "$dir"
cp "$root/scripts/ferretdb-tools/go.mod" "$root/scripts/ferretdb-tools/go.sum" \
   "$root/scripts/ferretdb-tools/tools.go" "$dir/"
# 'go install module@version' is refused here (the proxy will not answer the version-list
# lookup), so the pinned tools module resolves it instead.
(cd "$dir" && GOFLAGS=-mod=mod go mod download github.com/FerretDB/FerretDB)
src="$(cd "$dir" && go list -m -f '{{.Dir}}' github.com/FerretDB/FerretDB)"
# FerretDB's release process generates build/version/version.txt and it panics at start
# without it, so build from a writable copy of the module that has the file.
cp -r "$src" "$dir/FerretDB"
chmod -R u+w "$dir/FerretDB"
echo "$version" > "$dir/FerretDB/build/version/version.txt"
# FerretDB's test helpers look for the repository root by its .git directory.
git init -q "$dir/FerretDB"

if [ "$mode" = patched ]; then
  # In number order (a shell glob puts memgate.10 before memgate.2).
  while IFS= read -r patch; do
    (cd "$dir/FerretDB" && git apply -p1 "$patch") || { echo "ferretdb-source: $(basename "$patch") did not apply" >&2; exit 1; }
  done < <(printf '%s\n' "$root"/scripts/ferretdb-patches/memgate.*.patch | sort -V)
fi

(cd "$dir" && go mod edit -replace "github.com/FerretDB/FerretDB=./FerretDB")
