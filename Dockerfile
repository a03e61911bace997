# memgate gateway image. The policy is compiled inside the image (opa is built from the Go
# module proxy, like scripts/bootstrap.sh does) with the same script as `npm start`, so a deploy
# never ships a stale bundle; the ledger page is built and served from the image too.
# Node 22: the newest floor any dependency declares is >=22.15 (see package.json engines).
FROM golang:1.24-bookworm AS opa
RUN GOBIN=/out go install github.com/open-policy-agent/opa@v1.10.1

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
# JSON Schemas and the OpenAPI document are imported by the agent door and /v1/openapi.json (compiled into dist/).
COPY schema ./schema
COPY --from=opa /out/opa /app/.tools/bin/opa
# The gateway runs without the client packages: dropping the workspaces before the prune drops
# them and their peers (@apollo/client, @langchain/*) from the runtime image.
RUN bash scripts/policy.sh test \
 && bash scripts/policy.sh build \
 && node scripts/build-web.mjs \
 && npx tsc -p tsconfig.build.json \
 && npm pkg delete workspaces \
 && npm prune --omit=dev

FROM node:22-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production HOST=0.0.0.0 PORT=4000 MEMGATE_DATA_DIR=/data
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# build/policy (the wasm bundle) and build/web/ledger (the ledger page at /ledger/)
COPY --from=build /app/build ./build
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 4000
# Follows PORT at run time (docker run -e PORT=8080 ...): node reads it, the shell form is not needed.
HEALTHCHECK --interval=10s --timeout=3s CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT || 4000}/readyz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node is PID 1 and handles SIGTERM itself (drain, close the database): `docker stop` is a clean stop.
CMD ["node", "dist/src/main.js"]
