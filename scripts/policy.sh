#!/usr/bin/env bash
# policy.sh test   opa fmt (fails on unformatted files), opa check --strict, regal lint (.regal/config.yaml), opa test -v
# policy.sh build [policies-dir] [out.tar.gz]
#                  compile the one decision entrypoint to build/policy/bundle.tar.gz (wasm), signed.
#                  Reproducible: the same sources give the same bytes (scripts/policy-stage.mjs says why).
#                  Signed with MEMGATE_POLICY_SIGNING_KEY (a PEM file; MEMGATE_POLICY_SIGNING_ALG, default
#                  EdDSA), else with a development key generated once under build/keys/ (docs/POLICY.md).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
opa="$root/.tools/bin/opa"
regal="$root/.tools/bin/regal"
[ -x "$opa" ] && [ -x "$regal" ] || bash "$root/scripts/bootstrap.sh"
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
    "$regal" lint policies
    # opa's default 5 s per test failed CI once on a loaded 2-core machine (the priority
    # table's pairs took 5.02 s); a test that hangs is still stopped.
    "$opa" test -v --timeout 60s policies
    ;;
  build)
    src="$(cd "${2:-policies}" && pwd)"
    out="${3:-build/policy/bundle.tar.gz}"
    mkdir -p "$(dirname "$out")"
    out="$(cd "$(dirname "$out")" && pwd)/$(basename "$out")"
    key="${MEMGATE_POLICY_SIGNING_KEY:-}"
    alg="${MEMGATE_POLICY_SIGNING_ALG:-EdDSA}"
    if [ -z "$key" ]; then
      key="$root/build/keys/policy-signing-private.pem"
      if [ ! -f "$key" ] || [ ! -f "$root/build/keys/policy-signing-public.pem" ]; then
        node -e '
          const { generateKeyPairSync } = require("node:crypto");
          const { mkdirSync, writeFileSync } = require("node:fs");
          const dir = process.argv[1];
          mkdirSync(dir, { recursive: true, mode: 0o700 });
          const { privateKey, publicKey } = generateKeyPairSync("ed25519");
          writeFileSync(dir + "/policy-signing-private.pem", privateKey.export({ type: "pkcs8", format: "pem" }), { mode: 0o600 });
          writeFileSync(dir + "/policy-signing-public.pem", publicKey.export({ type: "spki", format: "pem" }));
        ' "$root/build/keys"
        echo "policy: generated a development signing key in build/keys/ (set MEMGATE_POLICY_SIGNING_KEY for a real one)" >&2
      fi
    fi
    stage="$(mktemp -d)"
    trap 'rm -rf "$stage"' EXIT
    # Tests are not part of the decision: the staging copy leaves them out of the wasm.
    node "$root/scripts/policy-stage.mjs" "$src" "$stage/bundle"
    # Written beside, then renamed: a running gateway watching the file never sees half a bundle.
    (cd "$stage/bundle" && "$opa" build --bundle -t wasm -e memgate/main/decision \
      --signing-key "$key" --signing-alg "$alg" -o "$out.tmp" .)
    mv -f "$out.tmp" "$out"
    echo "policy: built $out ($(sha256sum "$out" | cut -c1-12), signed $alg)" >&2
    ;;
  *)
    echo "usage: policy.sh test|build" >&2
    exit 2
    ;;
esac
