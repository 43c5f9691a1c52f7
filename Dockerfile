# syntax=docker/dockerfile:1
# Multi-stage image whose steps are only the npm scripts CI already runs.
# Build:  docker build -t daily-grind .
# Run:    docker run -p 3000:3000 -v grind-data:/app/data --env-file .env daily-grind

# Node 24 LTS. It loads better-sqlite3 13 (`better-sqlite3-node22`: Node-API, binaries in its
# package); 12, which aborts on Node 24.19+, is installed beside it for Node 20 machines
# (src/server/db/sqlite.ts) and still compiles here. `.ci/run` runs the Vitest suites on Node 24
# (`.ci/node24`); see docs/decisions/019-append-only-records-and-wallet-changes.md.
FROM node:24-bookworm-slim AS build
WORKDIR /app
# better-sqlite3 12 (the Node 20 driver) compiles from source when no prebuilt binary can be fetched.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0 DATA_DIR=/app/data
WORKDIR /app
COPY --from=build --chown=node:node /app /app
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=3s CMD node -e "fetch('http://127.0.0.1:3000/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["npm", "start"]
