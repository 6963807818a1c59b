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

FROM debian:bookworm-slim
RUN apt-get update \
  && apt-get install -y --no-install-recommends ca-certificates curl \
  && rm -rf /var/lib/apt/lists/* \
  && useradd --system --uid 10001 --home-dir /data tablo \
  && mkdir -p /data && chown tablo /data
COPY --from=build /src/dist/tablo /usr/local/bin/tablo
USER tablo
# The image is replaced as a whole (pull the new one): Tablo only announces new versions here.
ENV NC_DATA_DIR=/data PORT=8080 NC_UPDATE_MODE=notice
VOLUME ["/data"]
EXPOSE 8080
# The port the server listens on: PORT may be changed with `docker run -e PORT=...`.
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
  CMD curl -fsS "http://127.0.0.1:${PORT:-8080}/api/health" || exit 1
ENTRYPOINT ["/usr/local/bin/tablo"]
