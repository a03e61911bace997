#!/bin/sh
# The image's entry point (Dockerfile). Chooses the mode from what the operator gave:
#   - an identity provider (JWT_JWKS_URL or JWT_PUBLIC_KEY): production (NODE_ENV=production),
#     which refuses every development key: give MEMGATE_CHECKPOINT_PRIVATE_KEY too (docs/DEPLOY.md);
#   - nothing: a try-out on development keys, created under $MEMGATE_DATA_DIR/keys, and said so.
# NODE_ENV set explicitly wins. Without MONGODB_URI the embedded FerretDB keeps its data under
# $MEMGATE_DATA_DIR (SQLite, or PostgreSQL with MEMGATE_FERRETDB_POSTGRESQL_URL).
set -eu
if [ -z "${NODE_ENV:-}" ]; then
  if [ -n "${JWT_JWKS_URL:-}${JWT_PUBLIC_KEY:-}" ]; then
    export NODE_ENV=production
  else
    echo "memgate: no JWT_JWKS_URL or JWT_PUBLIC_KEY given: starting on DEVELOPMENT keys under ${MEMGATE_DATA_DIR:-/data}/keys." >&2
    echo "memgate: this is a try-out, not a deployment; docs/DEPLOY.md says how to run it for real." >&2
  fi
fi
cd "$(dirname "$0")/.."
# --no-regexp-tier-up: V8 compiles each regex to machine code on its first run instead of interpreting
# it first; the detectors' large per-language lexicon patterns otherwise often stayed interpreted
# (Turkish/Japanese texts 8-13 ms detector CPU per decision instead of 1.5-2.5: scripts/bench-detectors.ts).
exec node --no-regexp-tier-up dist/src/main.js
