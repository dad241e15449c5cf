# UpNext: one app instance. `docker compose up` (compose.yaml) runs two behind a load balancer.
# Build: the web app, and the migrated PGlite data directory a first start copies. Run: the
# server's TypeScript on Node 24 (type stripping, no compile step), with production dependencies
# only, as the unprivileged `node` user.

# Every workspace's package.json: npm ci needs the whole workspace to install any of it.
FROM node:24-bookworm-slim AS manifests
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY packages/contract/package.json packages/contract/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY e2e/package.json e2e/
COPY bench/package.json bench/

FROM manifests AS build
RUN npm ci --no-audit --no-fund
COPY tsconfig.base.json ./
COPY packages/contract packages/contract
COPY apps/web apps/web
COPY apps/server/src apps/server/src
RUN npm run build

FROM manifests AS dependencies
RUN npm ci --omit=dev --workspace=@upnext/server --no-audit --no-fund

FROM node:24-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 DATA_DIR=/data
WORKDIR /app
COPY --from=dependencies /app/node_modules node_modules
COPY package.json ./
COPY packages/contract packages/contract
COPY apps/server/package.json apps/server/
COPY apps/server/src apps/server/src
COPY --from=build /app/apps/web/dist apps/web/dist
COPY --from=build /app/apps/server/dist apps/server/dist
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000
# Ready: migrated, listening and not draining (503 while it stops, so the balancer moves on).
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+process.env.PORT+'/api/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "apps/server/src/server.ts"]
