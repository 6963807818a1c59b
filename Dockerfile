# Build the single binary, then run it as a non-root user with a /data volume.
FROM node:20-bookworm-slim AS build
WORKDIR /src
COPY package.json bun.lock ./
# bun install applies the patches package.json names (patchedDependencies): they must be there first.
COPY patches ./patches
# The Bun version comes from package.json (engines.bun), the one place it is pinned.
RUN npm i -g "bun@$(node -p "require('./package.json').engines.bun")" && bun install --frozen-lockfile
COPY . .
RUN bun run build

# Nothing is fetched here: the binary carries its runtime and Bun's root certificates, and checks its own health.
FROM debian:bookworm-slim
RUN useradd --system --uid 10001 --home-dir /data tablo \
  && mkdir -p /data && chown tablo /data
COPY --from=build /src/dist/tablo /usr/local/bin/tablo
USER tablo
# The image is replaced as a whole (pull the new one): Tablo only announces new versions here.
ENV NC_DATA_DIR=/data PORT=8080 NC_UPDATE_MODE=notice
VOLUME ["/data"]
EXPOSE 8080
# `tablo health` asks GET /api/health where the server listens, read from the same variables (PORT, HOST,
# NC_PUBLIC_URL's path, also when changed with `docker run -e PORT=...`; flags given as arguments to the
# server are not seen by the check: set the variables instead).
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
  CMD ["/usr/local/bin/tablo", "health"]
ENTRYPOINT ["/usr/local/bin/tablo"]
