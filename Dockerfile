# Aide-de-Camp: a slim image that runs `python -m bot` as a non-root user.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DATABASE_URL=sqlite+aiosqlite:////data/aide-de-camp.db \
    HEARTBEAT_FILE=/tmp/aide-de-camp.heartbeat

RUN useradd --create-home --uid 10001 aide \
    && mkdir /data && chown aide:aide /data

WORKDIR /app

# Dependencies first, read from pyproject.toml alone: this layer is rebuilt only when they
# change, not on every code change. The postgres extra (asyncpg) too: the same image runs on
# SQLite (the default) or PostgreSQL (DATABASE_URL=postgresql+asyncpg://…, docker-compose.yml).
COPY pyproject.toml ./
RUN python -c "import tomllib; p = tomllib.load(open('pyproject.toml', 'rb'))['project']; print('\n'.join(p['dependencies'] + p['optional-dependencies']['postgres']))" > /tmp/requirements.txt \
    && pip install -r /tmp/requirements.txt \
    && rm /tmp/requirements.txt

COPY README.md ./
COPY bot ./bot
COPY cogs ./cogs
COPY rules_core ./rules_core
COPY migrations ./migrations
RUN pip install --no-deps .

# The entrypoint starts as root only to give /data to the bot's user (a bind-mounted folder
# keeps the host's owner), then runs the bot as that user. Made executable in a RUN: a chmod
# flag on COPY needs BuildKit, which older `docker build`s lack.
COPY docker-entrypoint.sh /usr/local/bin/docker-entrypoint.sh
RUN chmod 755 /usr/local/bin/docker-entrypoint.sh
# No settings are baked in: .env stays out of the build context (.dockerignore) and is given
# at run time, `docker run --env-file .env …` (docs/self-hosting.md), or by Compose's env_file.
VOLUME ["/data"]
# The war table (WEB_PORT); put a reverse proxy with TLS in front of it (docs/operations.md).
EXPOSE 8080
# Healthy while the bot is connected to Discord and its database answers: it touches
# HEARTBEAT_FILE every 30 s then (bot/health.py); docker-compose.yml uses the same check.
HEALTHCHECK --interval=60s --timeout=10s --start-period=120s --retries=3 \
    CMD ["python", "-m", "bot.health"]
# `docker stop` sends SIGTERM to the bot (PID 1 through the entrypoint's exec): it finishes the
# handler in flight and closes within SHUTDOWN_GRACE_S, before Docker's 10 s SIGKILL.
STOPSIGNAL SIGTERM
ENTRYPOINT ["docker-entrypoint.sh"]
CMD ["python", "-m", "bot"]
