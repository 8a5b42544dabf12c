# weak-queens: one image for every role (worker, producer, dashboard); the command picks the role,
# e.g. `docker run weak-queens worker`. Multi-stage: dependencies, build, then a slim runtime
# that holds only production dependencies and compiled code, and runs as the non-root `node` user.
#
#   docker build -t weak-queens:local .
#   docker build --build-arg NODE_IMAGE=<a Node 20 Debian image> -t weak-queens:local .
#
# NODE_IMAGE: the official image by default; the tests pass one they build locally where no
# registry answers (scripts/container-engine.sh). It needs `node`, `npm` and a uid-1000 `node` user.
ARG NODE_IMAGE=node:20-bookworm-slim

# Production dependencies of the packages the image runs (no compilers, test or bench tools).
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY shared/package.json shared/
COPY producer/package.json producer/
COPY worker/package.json worker/
COPY dashboard/package.json dashboard/
COPY test/package.json test/
COPY bench/package.json bench/
RUN npm ci --omit=dev --ignore-scripts \
      --workspace=@weak-queens/shared --workspace=@weak-queens/producer \
      --workspace=@weak-queens/worker --workspace=@weak-queens/dashboard

# Every dependency, the sources, and the compiled packages. It starts from `deps` for its
# manifests (one list of them to keep); npm ci then installs anew, dev dependencies included.
FROM deps AS build
RUN npm ci --ignore-scripts
COPY tsconfig.json turbo.json ./
COPY shared/ shared/
COPY producer/ producer/
COPY worker/ worker/
COPY dashboard/ dashboard/
RUN npx turbo run build --filter=@weak-queens/producer --filter=@weak-queens/worker \
      --filter=@weak-queens/dashboard

# What runs: compiled code and production dependencies, owned by root and run as `node`.
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /app
# The manifests and node_modules (workspace links and any nested per-package modules).
COPY --from=deps /app ./
COPY --from=build /app/shared/dist shared/dist
COPY --from=build /app/producer/bin producer/bin
COPY --from=build /app/producer/dist producer/dist
COPY --from=build /app/worker/dist worker/dist
COPY --from=build /app/dashboard/dist dashboard/dist
COPY --from=build /app/dashboard/public dashboard/public
COPY scripts/container-health.mjs scripts/container-health.mjs
USER node
EXPOSE 3000
# One check for every role: the dashboard answers /healthz, a worker heartbeats (a frozen one
# turns unhealthy within WORKER_TTL_MS plus an interval), the producer is healthy while it runs.
HEALTHCHECK --interval=10s --timeout=6s --start-period=20s --retries=2 \
  CMD ["node", "/app/scripts/container-health.mjs"]
ENTRYPOINT ["node", "/app/producer/bin/wq.js"]
CMD ["--help"]
