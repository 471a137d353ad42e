# The service's image: built with every dependency, run with the production ones only, as the
# unprivileged `node` user, keeping its data in the /data volume. docs/self-hosting.md.
#   docker build -t contentio .
# BASE_IMAGE names the Node.js image both stages start from (Debian bookworm, with npm and a
# `node` user, as the official image has): 24, the newest supported line (20.19+ and 22 run it too).
ARG BASE_IMAGE=node:24-bookworm-slim

FROM ${BASE_IMAGE} AS build
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1 PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm_config_update_notifier=false
# Dependencies first: this layer is rebuilt only when they change. patches/ is applied by the
# postinstall step.
COPY package.json package-lock.json ./
COPY patches ./patches
# Not the tests' Bluesky network (@atproto/dev-env: a PDS on SQLite, whose better-sqlite3 is
# compiled from source where no prebuilt binary can be fetched, and the build has no compiler).
RUN npm pkg delete "devDependencies[@atproto/dev-env]" && npm install --no-audit --no-fund --loglevel=error
COPY . .
# The copy brought back the full package.json: the same deletion again, or the prune would fetch
# and compile what the install left out.
# Only the build uses the rest: its cache, and the compiler (about 100 MB).
RUN npm pkg delete "devDependencies[@atproto/dev-env]" && npm run build && npm prune --omit=dev --no-audit --no-fund --loglevel=error \
  && rm -rf .next/cache node_modules/@next/swc-* && npm cache clean --force

FROM ${BASE_IMAGE}
WORKDIR /app
# HOST: every interface of the container, which is why APP_URL must be set (server/server.mjs
# refuses to listen beyond loopback without it).
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 DATA_DIR=/data HOST=0.0.0.0 PORT=3000
COPY --from=build /app/package.json /app/next.config.mjs ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/.next ./.next
COPY --from=build /app/server ./server
COPY --from=build /app/lib ./lib
COPY --from=build /app/drizzle/migrations ./drizzle/migrations
RUN mkdir -p /data && chown node:node /data && chmod 0700 /data
USER node
VOLUME /data
EXPOSE 3000
# Ready, not only alive: the database reachable, migrations applied, the scheduler as configured.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+process.env.PORT+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "server/server.mjs"]
