# syntax=docker/dockerfile:1
# Multi-stage image: build the TypeScript, the native addons and git >= 2.48, then a slim runtime.

FROM node:24-bookworm-slim AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ gcc libc6-dev zlib1g-dev xz-utils dpkg-dev ca-certificates \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
# git on bookworm is 2.39 (< 2.48, which the service requires): build a newer one into /app/.tools/git.
COPY .ci/provision.sh .ci/env.sh .ci/
RUN bash .ci/provision.sh
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:24-bookworm-slim AS runtime
RUN apt-get update \
 && apt-get install -y --no-install-recommends postgresql-client tini ca-certificates zlib1g \
 && rm -rf /var/lib/apt/lists/* \
 && mkdir -p /data/logs /data/backups && chown -R node:node /data
COPY --from=build /app/.tools/git /opt/git
ENV PATH=/opt/git/bin:$PATH \
    NODE_ENV=production \
    SYNTHORG_ENV=production \
    SYNTHORG_HOST=0.0.0.0 \
    SYNTHORG_PORT=8000 \
    SYNTHORG_DB_PATH=/data/synthorg.db \
    SYNTHORG_LOG_DIR=/data/logs
WORKDIR /app
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
COPY --from=build --chown=node:node /app/package.json ./package.json
COPY --from=build --chown=node:node /app/config ./config
# The command line (`synthorg`, docs/cli.md) on the PATH, e.g. `docker exec <container> synthorg status`.
RUN ln -s /app/dist/apps/cli/src/main.js /usr/local/bin/synthorg
USER node
EXPOSE 8000
VOLUME ["/data"]
# The signing secret must be provided: SYNTHORG_JWT_SECRET or SYNTHORG_JWT_SECRET_FILE (a mounted secret).
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s CMD node -e "fetch('http://127.0.0.1:'+(process.env.SYNTHORG_PORT||8000)+'/api/v1/health/live').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "--max-semi-space-size=16", "dist/apps/api/src/main.js"]
