# syntax=docker/dockerfile:1
#
# One image for every process of the crawl service (gateway, worker, admin CLI);
# docker-compose.yml picks the entry point with `command`. TypeScript runs with
# tsx, so there is no build step.
#
# Debian, not Alpine: Temporal's native core-bridge does not load on musl.
FROM node:24-bookworm-slim

ARG DEBIAN_FRONTEND=noninteractive
# Chromium from Debian (Playwright's own browser download is skipped). The
# headless shell is what the scraper launches; full chromium stays for headful
# browser sessions. tini reaps the Chromium processes orphaned when a browser dies.
RUN apt-get update \
 && apt-get install -y --no-install-recommends \
      chromium chromium-headless-shell fonts-liberation ca-certificates tini \
 && rm -rf /var/lib/apt/lists/*

ENV NODE_ENV=production \
    PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 \
    CHROMIUM_PATH=/usr/lib/chromium/chromium-headless-shell

WORKDIR /app

# Dependencies first, so source edits do not reinstall them. npm 11 runs only the
# install scripts that package.json "allowScripts" allows.
COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm \
    npm ci --omit=dev --no-audit --no-fund --loglevel=error

# The Prisma client is generated at build time into src/generated/prisma (which
# .dockerignore keeps out of the context). The CLI needs DATABASE_URL set to parse
# the schema but makes no connection.
COPY prisma ./prisma
COPY prisma.config.ts ./
RUN DATABASE_URL=postgresql://generate@localhost/unused npx prisma generate

COPY . .

# Run as the image's unprivileged `node` user (uid 1000); Chromium runs as the
# same user with its sandbox on (the worker's container needs user namespaces:
# see security_opt in docker-compose.yml). The only writable places it may need in /app are
# the embedded-services data folder (unused when DATABASE_URL / TEMPORAL_ADDRESS
# are set) and Crawlee's default storage folder.
RUN mkdir -p /app/.data /app/storage && chown node:node /app/.data /app/storage
USER node

EXPOSE 3002

# -s: register as subreaper, so tini still reaps zombies when compose's own init
# (`init: true`) is PID 1.
ENTRYPOINT ["/usr/bin/tini", "-s", "--"]
CMD ["node", "--import", "tsx", "src/entry/gateway.ts"]
