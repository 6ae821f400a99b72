# Aide-de-Camp: a slim image that runs `python -m bot` as a non-root user.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    DATABASE_URL=sqlite+aiosqlite:////data/aide-de-camp.db

RUN useradd --create-home --uid 10001 aide \
    && mkdir /data && chown aide:aide /data

WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY cogs ./cogs
COPY rules_core ./rules_core
COPY migrations ./migrations
RUN pip install .

USER aide
VOLUME ["/data"]
CMD ["python", "-m", "bot"]
