# syntax=docker/dockerfile:1
# One image for the three roles of ndc-saga: `airline`, `worker`, `api` (the container command
# picks the role, see scripts/docker-entrypoint.sh). Built and run by docker-compose.yml.

ARG NODE_IMAGE=node:24-bookworm-slim

# ---- build: all dependencies, compile TypeScript to dist/ ----
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json nest-cli.json .swcrc ./
COPY src ./src
COPY workflows ./workflows
COPY activities ./activities
RUN npm run build
# The workflow bundles, built once here: workers load one (WORKFLOW_BUNDLE_PATH) instead of running
# webpack at every start. The .tracing one has the workflow span interceptor: point
# WORKFLOW_BUNDLE_PATH at it when the worker exports traces (OTEL_EXPORTER_OTLP_ENDPOINT).
COPY scripts/bundle-workflows.ts ./scripts/
RUN node -r @swc-node/register scripts/bundle-workflows.ts dist/workflow-bundle.js
RUN node -r @swc-node/register scripts/bundle-workflows.ts dist/workflow-bundle.tracing.js --tracing

# ---- prod-deps: runtime dependencies only ----
FROM ${NODE_IMAGE} AS prod-deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

# ---- runtime ----
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    WORKFLOW_BUNDLE_PATH=/app/dist/workflow-bundle.js
WORKDIR /app
COPY --from=prod-deps /app/node_modules ./node_modules
COPY package.json ./
COPY --from=build /app/dist ./dist
# The airline's world file is read relative to the compiled code (dist/data) and the repository
# root (data); the NDC schemas are used by tooling that validates responses.
COPY data ./data
COPY data ./dist/data
COPY schemas ./schemas
COPY scripts/docker-entrypoint.sh /usr/local/bin/ndc-saga
RUN mkdir -p /data /keys && chown node:node /data /keys
USER node
EXPOSE 3000 4010 9464
ENTRYPOINT ["ndc-saga"]
CMD ["api"]
