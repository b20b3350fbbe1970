# The gateway as compiled JavaScript: the build stage installs everything and runs `prepare`
# (esbuild bundles src/ into dist/gateway.js; the pre-migrated PGlite template; the dashboard),
# the runtime stage has production dependencies only, no TypeScript and no build tools.
# The Node version matches package.json's "engines" (>= 20.19).
FROM node:20.20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# Scripts after the sources are in place: `prepare` needs them.
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY . .
RUN npm run build:gateway && npm run build:dashboard

FROM node:20.20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
# patch-package applies patches/ to node_modules (the postgres.js fix: see docs/operations.md, "Real Postgres").
COPY patches ./patches
RUN npm ci --omit=dev --no-audit --no-fund --ignore-scripts && npx patch-package && npm cache clean --force
COPY --from=build /app/dist/gateway.js /app/dist/gateway.js.map ./dist/
COPY --from=build /app/dist/pglite-template ./dist/pglite-template
COPY --from=build /app/dashboard/dist ./dashboard/dist
COPY drizzle ./drizzle
# Exploration (GraphiQL, introspection, suggestions) is off in the image; set
# SWITCHBOARD_EXPLORATION=true to turn it on. HOST=0.0.0.0 inside the container only: publish
# the port on 127.0.0.1 (docker-compose.yml does) unless it must be reachable from elsewhere.
ENV HOST=0.0.0.0 PORT=4000 SWITCHBOARD_EXPLORATION=false SWITCHBOARD_DATA_DIR=/data
# Without DATABASE_URL the embedded database and the generated admin token live in /data:
# mount a named volume there (docker-compose.yml does), or they go with the container. It is
# 0700, as the gateway requires of its data folder (docs/operations.md, "Privacy of the data
# folder"); a new named volume takes that mode from here.
RUN install -d -m 0700 -o node -g node /data
EXPOSE 4000
USER node
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=5 \
  CMD node -e "fetch('http://127.0.0.1:4000/readyz').then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
# A larger young generation halves the CPU of large reads (frontier, directory).
CMD ["node", "--max-semi-space-size=64", "dist/gateway.js"]
