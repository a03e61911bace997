# syntax=docker/dockerfile:1.7
# memgate gateway image: one image, no secret in it, that starts alone.
#
#   docker build -t memgate .                                   # bundle signed with a throwaway key (its public half is kept)
#   docker build --secret id=policy_signing_key,src=policy-signing-private.pem -t memgate .   # signed with your key
#   docker run -p 4000:4000 -v memgate:/data memgate            # embedded database, development keys (try-out)
#
# No private key enters any layer: the policy signing key is a BuildKit secret (mounted for one
# RUN, never written), or a key generated and deleted inside that same RUN. Only public keys are
# copied. Everything else secret (token issuer, checkpoint key) is given at run time (docs/DEPLOY.md).
# Node 22: the newest floor any dependency declares is >=22.15 (see package.json engines).

# opa and the embedded database (FerretDB with memgate's patches), built exactly as `npm start`
# builds them: the same script, the same pins, the same patches.
FROM golang:1.24-bookworm AS tools
WORKDIR /src
ENV CGO_ENABLED=0
COPY scripts/bootstrap.sh ./scripts/
COPY scripts/ferretdb-tools ./scripts/ferretdb-tools
COPY scripts/ferretdb-patches ./scripts/ferretdb-patches
COPY scripts/ferretdb-source.sh scripts/ferretdb-test.sh ./scripts/
RUN bash scripts/bootstrap.sh

FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# The client packages are npm workspaces (npm ci needs their package.json); the ledger page imports the client's source.
COPY clients ./clients
RUN npm ci --no-audit --no-fund --engine-strict
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY scripts ./scripts
COPY policies ./policies
COPY web ./web
COPY clients/typescript/src ./clients/typescript/src
# JSON Schemas and the OpenAPI document are imported by the agent door and /v1/openapi.json (compiled into dist/).
COPY schema ./schema
COPY --from=tools /src/.tools/bin/opa /app/.tools/bin/opa
COPY --from=tools /src/.tools/opa.version /src/.tools/ferretdb.version /app/.tools/
COPY --from=tools /src/.tools/bin/ferretdb /app/.tools/bin/ferretdb
RUN bash scripts/policy.sh test
# The signing key is a build secret: given (--secret id=policy_signing_key), the bundle is signed
# with it and its public half is derived; not given, a throwaway key is generated, used and
# deleted in this one RUN. Either way only build/keys/policy-signing-public.pem remains.
RUN --mount=type=secret,id=policy_signing_key,required=false \
    if [ -s /run/secrets/policy_signing_key ]; then \
      mkdir -p build/keys \
      && node -e 'const c=require("node:crypto"),f=require("node:fs");f.writeFileSync(process.argv[2],c.createPublicKey(f.readFileSync(process.argv[1])).export({type:"spki",format:"pem"}))' \
           /run/secrets/policy_signing_key build/keys/policy-signing-public.pem \
      && MEMGATE_POLICY_SIGNING_KEY=/run/secrets/policy_signing_key bash scripts/policy.sh build; \
    else \
      bash scripts/policy.sh build && rm -f build/keys/policy-signing-private.pem; \
    fi \
 && ! grep -rl "PRIVATE KEY" build
RUN node scripts/build-web.mjs \
 && npx tsc -p tsconfig.build.json \
 # The gateway runs without the client packages: dropping the workspaces before the prune drops
 # them and their peers (@apollo/client, @langchain/*) from the runtime image.
 && npm pkg delete workspaces \
 && npm prune --omit=dev

FROM node:22-bookworm-slim
WORKDIR /app
ENV HOST=0.0.0.0 PORT=4000 MEMGATE_DATA_DIR=/data
# The runtime tree: test/deploy/runtime-tree.test.ts builds the same tree from these COPY lines and starts it.
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/build/policy ./build/policy
COPY --from=build /app/build/web ./build/web
COPY --from=build /app/build/keys/policy-signing-public.pem ./build/keys/policy-signing-public.pem
COPY --from=build /app/.tools/bin/ferretdb ./.tools/bin/ferretdb
COPY --from=build /app/deploy/container-start.sh ./deploy/container-start.sh
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 4000
# Follows PORT at run time (docker run -e PORT=8080 ...): node reads it, the shell form is not needed.
HEALTHCHECK --interval=10s --timeout=3s CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT || 4000}/readyz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# The start script execs node, so node is PID 1 and handles SIGTERM itself (drain, close the database).
ENTRYPOINT ["sh", "deploy/container-start.sh"]
