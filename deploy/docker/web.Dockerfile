# syntax=docker/dockerfile:1
#
# The web: builds the shell and the four Module Federation remotes, then serves
# them with frontends/scripts/serve.mjs (no dependencies beyond Node): the
# shell on WEB_PORT (3000) with /env.js, the remotes home, analytics,
# connections and account on 3001-3004. Build from the repository root:
#
#   docker build -f deploy/docker/web.Dockerfile -t uplift/web .
#
# Runtime settings (UPLIFT_*) are read when the server starts and written to
# /env.js, so one image runs in every environment. serve.mjs also sends the
# security headers on every response (Content-Security-Policy built from the
# same settings, X-Frame-Options, nosniff, Referrer-Policy;
# frontends/scripts/security-headers.mjs); nothing in front of it needs to.

ARG NODE_IMAGE=node:20-slim

# ---- build
FROM ${NODE_IMAGE} AS build
WORKDIR /src/frontends
# Manifests first, so `npm ci` is cached until dependencies change.
COPY frontends/package.json frontends/package-lock.json ./
COPY frontends/packages/platform/package.json packages/platform/
COPY frontends/shell/package.json shell/
COPY frontends/home/package.json home/
COPY frontends/analytics/package.json analytics/
COPY frontends/connections/package.json connections/
COPY frontends/account/package.json account/
COPY frontends/e2e/package.json e2e/
# Playwright's browsers are not needed to build (and @playwright/test does not
# fetch them on install); make sure nothing tries.
ENV PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
RUN --mount=type=cache,target=/root/.npm npm ci --no-audit --no-fund
COPY frontends/ ./
# Production bundles use hidden source maps (no sourceMappingURL); the maps
# themselves stay out of the image.
RUN npm run build && find shell/dist home/dist analytics/dist connections/dist account/dist -name '*.map' -delete

# ---- run: only the server script and the built apps.
FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    WEB_PORT=3000
WORKDIR /app
COPY --from=build /src/frontends/scripts/serve.mjs /src/frontends/scripts/security-headers.mjs scripts/
COPY --from=build /src/frontends/shell/dist shell/dist
COPY --from=build /src/frontends/home/dist home/dist
COPY --from=build /src/frontends/analytics/dist analytics/dist
COPY --from=build /src/frontends/connections/dist connections/dist
COPY --from=build /src/frontends/account/dist account/dist
# The node image's unprivileged user (uid/gid 1000); files stay root-owned
# and read-only to it.
USER node
EXPOSE 3000 3001 3002 3003 3004
# serve.mjs stops its servers on SIGTERM itself, so node can be PID 1.
CMD ["node", "scripts/serve.mjs"]
