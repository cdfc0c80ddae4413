#!/bin/sh
# A reseller order end to end with curl and an API key, and its signed webhook on a local receiver
# (README "Reseller webhooks"). Needs curl and jq; run from anywhere in the checkout.
#
#   sh examples/webhook-demo.sh
#     Issues a key for the demo reseller with the CLI, then starts the demo (`npm start`) on a free
#     port (a fresh PGlite folder unless DATA_DIR or DATABASE_URL is set) and stops it at the end.
#   BASE=http://127.0.0.1:8000 API_KEY=tk_live_... sh examples/webhook-demo.sh
#     Uses a demo already running, with a key from My Account (or the CLI).
#
# Everything after the key is /api/v1 with the key: the callback URL, the order and its status.
set -eu
cd "$(dirname "$0")/.."
PATH="$PWD/node_modules/.bin:$PATH"
RESELLER_EMAIL=${RESELLER_EMAIL:-reseller@demo.test}
RECEIVER_PORT=${RECEIVER_PORT:-8787}
WORK=$(mktemp -d)
SERVER=
RECEIVER=
stop() {
  [ -z "$RECEIVER" ] || kill "$RECEIVER" 2>/dev/null || true
  # The server runs in its own process group (npm, then deno): stop all of it.
  [ -z "$SERVER" ] || kill -TERM "-$SERVER" 2>/dev/null || true
  # Wait for the whole group: deno may still be closing the database after npm has exited.
  [ -z "$SERVER" ] || while kill -0 "-$SERVER" 2>/dev/null; do sleep 0.2; done
  rm -rf "$WORK"
}
trap stop EXIT
trap 'exit 130' INT TERM

# Polls `$1` (a shell test) once a second for up to `$2` seconds.
wait_for() {
  i=0
  until eval "$1"; do
    i=$((i + 1))
    [ "$i" -le "$2" ] || { echo "timed out waiting for: $1" >&2; return 1; }
    sleep 1
  done
}

if [ -z "${BASE:-}" ]; then
  # PGlite is one process's: the CLI issues the key before the server opens the folder.
  [ -n "${DATABASE_URL:-}" ] || export DATA_DIR=${DATA_DIR:-$WORK/data}
  npm run --silent cli -- seed --demo >/dev/null
  API_KEY=$(npm run --silent cli -- reseller api-key create --email "$RESELLER_EMAIL" \
    --name "webhook demo" --json | jq -r .secret)
  echo "issued API key ${API_KEY%"${API_KEY#????????????}"}… with the CLI"
  PORT=0 setsid npm start >"$WORK/server.log" 2>&1 &
  SERVER=$!
  wait_for 'grep -qs "^Serving on" "$WORK/server.log"' 120 || { cat "$WORK/server.log"; exit 1; }
  BASE=$(sed -n 's/^Serving on \(http[^ ]*\).*/\1/p' "$WORK/server.log")
  echo "demo serving on $BASE"
fi
: "${API_KEY:?set API_KEY to a key from My Account (or run without BASE)}"
AUTH="Authorization: Bearer $API_KEY"
v1() { curl -sSf -H "$AUTH" -H 'Content-Type: application/json' "$@"; }

# The callback URL; the first one comes with the signing secret (shown once), otherwise roll a
# new one.
SECRET=$(v1 -X PUT -d "{\"url\":\"http://127.0.0.1:$RECEIVER_PORT/hooks/topup\"}" \
  "$BASE/api/v1/webhook" | jq -r '.secret // empty')
[ -n "$SECRET" ] || SECRET=$(v1 -X POST "$BASE/api/v1/webhook/roll_secret" | jq -r .secret)
echo "callback URL set with the key (PUT /api/v1/webhook)"

WEBHOOK_SECRET=$SECRET deno run --allow-net --allow-env examples/webhook-receiver.ts \
  "$RECEIVER_PORT" >"$WORK/receiver.log" 2>&1 &
RECEIVER=$!
wait_for 'grep -qs Listening "$WORK/receiver.log"' 30
echo "receiver listening on 127.0.0.1:$RECEIVER_PORT"

# PUBG Mobile's first item, ordered once with the key (a retry with the same Idempotency-Key
# would answer the same order).
GAMES=$(v1 "$BASE/api/v1/games")
GAME=$(echo "$GAMES" | jq -r '.games[] | select(.name == "PUBG Mobile") | .id')
ITEM=$(echo "$GAMES" | jq -r ".games[] | select(.id == \"$GAME\") | .items[0].key")
ORDER=$(v1 -H "Idempotency-Key: demo-$(date +%s)-$$" \
  -d "{\"gameId\":\"$GAME\",\"item\":\"$ITEM\",\"userid\":\"5551234\"}" "$BASE/api/v1/orders")
ID=$(echo "$ORDER" | jq -r .order.id)
echo "placed order $ID: $(echo "$ORDER" | jq -r '.order | "\(.item) for $\(.amount), \(.status)"')"

status() { v1 "$BASE/api/v1/orders/$ID" | jq -r .order.status; }
wait_for '[ "$(status)" = successful ]' 60
echo "order $ID is successful (GET /api/v1/orders/$ID)"
wait_for 'grep -q "^verified" "$WORK/receiver.log"' 60
echo "receiver: $(grep '^verified' "$WORK/receiver.log")"
