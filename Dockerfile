# Trusted Sitters: one container, SQLite on a volume at /data.
# The app is tested on Node 20.18 and later; the image runs the current long-term-support line (24).
FROM node:24-slim AS build
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:24-slim
ENV NODE_ENV=production DATA_DIR=/data PORT=3000
WORKDIR /app
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/build ./build
COPY --from=build --chown=node:node /app/locales ./locales
COPY --from=build --chown=node:node /app/package.json /app/server.js ./
# The operator's commands (npm run db:migrate, db:seed, db:restore, admin:grant, ...) run build/scripts/*.js
# through scripts/run-script.js: tsx is a development dependency, pruned above.
COPY --from=build --chown=node:node /app/scripts/backup.js /app/scripts/load-env.js /app/scripts/run-script.js ./scripts/
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 3000
# The first start imports the gazetteer into a new database before it answers.
HEALTHCHECK --interval=30s --timeout=5s --start-period=90s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
# Migrations run at start, before the server accepts requests.
CMD ["node", "server.js"]
