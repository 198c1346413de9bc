# syntax=docker/dockerfile:1
# BNB Predict: the compiled server and the built web app on Node 24 LTS (decision 021).
# The same commands as without containers: `npm ci`, `npm run build`, `npm ci --omit=dev`,
# `npm run serve`. docs/operations.md "Containers" says how to run it with compose.yaml.

ARG NODE_IMAGE=node:24-slim

# 1. Build: every dependency, then the web app and the server (apps/*/dist).
FROM ${NODE_IMAGE} AS build
WORKDIR /app
ENV PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
COPY package.json package-lock.json ./
COPY packages/core/package.json packages/core/
COPY packages/escrow/package.json packages/escrow/
COPY packages/pay-and-post/package.json packages/pay-and-post/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY e2e/package.json e2e/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# 2. Run-time dependencies only (no TypeScript, no tsx, no test tools, no second Node binary).
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/core/package.json packages/core/
COPY packages/escrow/package.json packages/escrow/
COPY packages/pay-and-post/package.json packages/pay-and-post/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY e2e/package.json e2e/
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

# 3. The image: dependencies, the two builds and the migrations, run as the unprivileged `node` user.
FROM ${NODE_IMAGE}
# Metrics stay on the container's loopback unless told otherwise (METRICS_HOST=0.0.0.0, best with
# METRICS_TOKEN): they show the vault's balance and the business's volume (docs/operations.md "Metrics").
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8787 \
    METRICS_HOST=127.0.0.1 \
    METRICS_PORT=9464
WORKDIR /app
COPY --from=deps /app ./
COPY --from=build /app/apps/server/dist apps/server/dist
COPY --from=build /app/apps/server/drizzle apps/server/drizzle
COPY --from=build /app/apps/server/scripts/build-server.mjs apps/server/scripts/build-server.mjs
COPY --from=build /app/apps/web/dist apps/web/dist
# PGlite's directory when DATABASE_URL is unset (a single-instance trial); production uses PostgreSQL.
RUN mkdir -p /app/.data && chown node:node /app/.data
USER node
EXPOSE 8787
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:' + (process.env.PORT || 8787) + '/api/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
STOPSIGNAL SIGTERM
CMD ["npm", "run", "serve"]
