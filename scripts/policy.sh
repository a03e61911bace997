#!/usr/bin/env bash
# policy.sh test   opa fmt (fails on unformatted files), opa check --strict, opa test -v
# policy.sh build  compile the one decision entrypoint to build/policy/bundle.tar.gz (wasm)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
opa="$root/.tools/bin/opa"
[ -x "$opa" ] || bash "$root/scripts/bootstrap.sh"
cd "$root"
case "${1:-}" in
  test)
    unformatted="$("$opa" fmt --list policies)"
    if [ -n "$unformatted" ]; then
      echo "policy: these files are not opa-fmt formatted (run: .tools/bin/opa fmt -w policies):" >&2
      echo "$unformatted" >&2
      exit 1
    fi
    "$opa" check --strict policies
    "$opa" test -v policies
    ;;
  build)
    mkdir -p build/policy
    # Written beside, then renamed: a running gateway watching the file never sees half a bundle.
    # Tests are not part of the decision: they stay out of the wasm (smaller, and `with` in a test
    # function is for opa test only).
    "$opa" build -t wasm -e memgate/main/decision --ignore '*_test.rego' -o build/policy/bundle.tar.gz.tmp policies
    mv -f build/policy/bundle.tar.gz.tmp build/policy/bundle.tar.gz
    echo "policy: built build/policy/bundle.tar.gz ($(sha256sum build/policy/bundle.tar.gz | cut -c1-12))" >&2
    ;;
  *)
    echo "usage: policy.sh test|build" >&2
    exit 2
    ;;
esac
