# memgate gateway image. The policy is compiled inside the image (opa is built from the Go
# module proxy, like scripts/bootstrap.sh does), so a deploy never ships a stale bundle.
FROM golang:1.24-bookworm AS opa
RUN GOBIN=/out go install github.com/open-policy-agent/opa@v1.10.1

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY scripts ./scripts
COPY policies ./policies
COPY --from=opa /out/opa /usr/local/bin/opa
RUN opa check --strict policies \
 && opa test policies \
 && mkdir -p build/policy \
 && opa build -t wasm -e memgate/main/decision -o build/policy/bundle.tar.gz policies \
 && npx tsc -p tsconfig.build.json \
 && npm prune --omit=dev

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production HOST=0.0.0.0 PORT=4000 MEMGATE_DATA_DIR=/data
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/build ./build
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 4000
HEALTHCHECK --interval=10s --timeout=3s CMD node -e "fetch('http://127.0.0.1:4000/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "dist/src/main.js"]
