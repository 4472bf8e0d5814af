# syntax=docker/dockerfile:1
# One image recipe for every Quire process, parameterized by the workspace it runs:
#   docker build --build-arg WORKSPACE=services/content --build-arg PACKAGE=@quire/content --build-arg PORT=3102 .
# (docker-compose.yml passes these for each service and the gateway.)
# The services have no build step (Node 24 runs the TypeScript sources directly); the app's static files do.
ARG TURBO_VERSION=2.11.9

# 1. Prune the monorepo down to the workspace and the workspaces it depends on.
FROM node:24-slim AS pruner
ARG TURBO_VERSION
ARG PACKAGE
ENV TURBO_TELEMETRY_DISABLED=1
RUN npm install --global --no-fund --no-audit turbo@${TURBO_VERSION}
WORKDIR /repo
COPY . .
RUN turbo prune ${PACKAGE} --docker

# 2. Install production dependencies from the pruned lockfile, then add the sources.
FROM node:24-slim AS installer
WORKDIR /app
COPY --from=pruner /repo/out/json/ ./
COPY --from=pruner /repo/out/package-lock.json ./package-lock.json
RUN npm ci --omit=dev --ignore-scripts --no-fund --no-audit && npm cache clean --force
COPY --from=pruner /repo/out/full/ ./

# 3. The writers' app: static files only the gateway serves (gateway/src/web-app.ts reads app/dist), built with the
#    whole workspace's lockfile (`npm ci` runs it through the root `prepare` script outside Docker).
FROM node:24-slim AS app
WORKDIR /repo
COPY . .
RUN npm ci --ignore-scripts --no-fund --no-audit && npm run build -w @quire/app

# 4. Runtime: files stay root-owned (read-only to the app), the process runs as `node`.
FROM node:24-slim AS runtime
ARG WORKSPACE
ARG PORT
ENV NODE_ENV=production \
    MALLOC_ARENA_MAX=2 \
    HOST=0.0.0.0 \
    PORT=${PORT}
COPY --from=installer /app /app
COPY --from=app /repo/app/dist /app/app/dist
WORKDIR /app/${WORKSPACE}
USER node
EXPOSE ${PORT}
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=5 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+process.env.PORT+'/healthz',{signal:AbortSignal.timeout(4000)}).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# The memory settings of `quire` (packages/cli/bin/quire.ts, its first line; docs/running.md#memory).
CMD ["node", "--max-semi-space-size=8", "--heap-growing-percent=40", "src/main.ts"]
