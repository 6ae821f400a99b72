#!/bin/sh
# Started as root: make /data (often a bind mount owned by the host's user) writable by the
# bot's user, then drop to that user. Started with --user: run as given.
set -e
if [ "$(id -u)" = "0" ]; then
    if ! setpriv --reuid=aide --regid=aide --init-groups test -w /data; then
        chown -R aide:aide /data
    fi
    exec setpriv --reuid=aide --regid=aide --init-groups "$@"
fi
exec "$@"
