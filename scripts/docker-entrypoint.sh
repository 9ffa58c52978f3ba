#!/bin/sh
# Entry point of the ndc-saga image: the first argument picks the role.
#   airline | worker | api   run that role from the compiled dist/ tree
#   anything else            is executed as given (e.g. `node -e ...`, `sh`)
set -eu
role="${1:-api}"
case "$role" in
  airline) shift || true; exec node dist/src/airline/main.js "$@" ;;
  worker)  shift || true; exec node dist/src/worker/main.js "$@" ;;
  api)     shift || true; exec node dist/src/main.js "$@" ;;
  *)       exec "$@" ;;
esac
