# airkey in a container: the package as users install it, on Node 24 LTS, as a non-root user.
# test/package/container-recipe.test.ts runs the runtime stage's commands outside a container.

# Build stage: dev dependencies, the back office bundle and dist/, packed into one tarball.
FROM node:24-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm pack --pack-destination /tmp && mv /tmp/airkey-*.tgz /tmp/airkey.tgz

# Runtime stage: the packed package with production dependencies only.
FROM node:24-slim AS runtime
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 MALLOC_ARENA_MAX=2
WORKDIR /home/node
USER node
COPY --chown=node:node --from=build /tmp/airkey.tgz ./airkey.tgz
RUN npm install --omit=dev --no-audit --no-fund ./airkey.tgz && rm airkey.tgz && mkdir -p data
VOLUME /home/node/data
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/readyz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# The Node flags npm start uses too (docs/performance.md, Memory): memory near what the server holds.
CMD ["node", "--max-semi-space-size=16", "--heap-growing-percent=100", "node_modules/airkey/bin/airkey", "serve"]
