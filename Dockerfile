FROM node:20-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
# patch-package (postinstall, in npm ci) applies patches/ to node_modules: see README, Real Postgres.
COPY patches ./patches
RUN npm ci --omit=dev --no-audit --no-fund
COPY tsconfig.json ./
COPY src ./src
COPY drizzle ./drizzle
ENV HOST=0.0.0.0 PORT=4000 NODE_ENV=production
# Without DATABASE_URL the embedded database and the generated admin token live here.
RUN mkdir -p /app/.switchboard && chown node:node /app/.switchboard
VOLUME /app/.switchboard
EXPOSE 4000
USER node
HEALTHCHECK --interval=10s --timeout=3s --retries=5 \
  CMD node -e "fetch('http://127.0.0.1:4000/readyz').then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
# A larger young generation halves the CPU of large reads (frontier, directory): see README.
CMD ["node", "--max-semi-space-size=64", "--import", "tsx", "src/main.ts"]
