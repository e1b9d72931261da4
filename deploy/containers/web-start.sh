#!/bin/sh
# The web image's /app: the same server `make run` uses, on Debian's Node.js.
exec node /srv/web/scripts/serve.mjs "$@"
