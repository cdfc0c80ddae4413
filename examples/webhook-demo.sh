#!/bin/sh
# End to end on the demo (`npm start`): sign in as the demo reseller, set the callback URL to a
# local receiver, place a PUBG Mobile order and refresh it until the signed order.successful
# webhook arrives. Needs curl and jq. BASE defaults to the demo's address.
set -eu
BASE=${BASE:-http://127.0.0.1:8000}
PORT=${RECEIVER_PORT:-8787}
JAR=$(mktemp)
json() { curl -sf -b "$JAR" -c "$JAR" -H 'Content-Type: application/json' "$@"; }

json -d '{"username":"reseller@demo.test","password":"demo-reseller-pass"}' \
  "$BASE/api/login_reseller" >/dev/null
# The first URL comes with the signing secret (shown once; POST .../roll_secret makes a new one).
SECRET=$(json -X PUT -d "{\"url\":\"http://127.0.0.1:$PORT/hooks/topup\"}" \
  "$BASE/api/reseller/webhook" | jq -r '.secret // empty')
if [ -z "$SECRET" ]; then
  SECRET=$(json -X POST "$BASE/api/reseller/webhook/roll_secret" | jq -r .secret)
fi
WEBHOOK_SECRET=$SECRET deno run --allow-net --allow-env examples/webhook-receiver.ts "$PORT" &
RECEIVER=$!
trap 'kill $RECEIVER' EXIT
sleep 1

GAME=$(json "$BASE/api/reseller/games" | jq -c 'map(select(.supplierName == "pubgm"))[0]')
ITEM=$(json "$BASE/api/resellers/game/$(echo "$GAME" | jq -r ._id)" | jq -c '.gameItems[0]')
ORDER=$(jq -nc --argjson g "$GAME" --argjson i "$ITEM" '{game: $g.name,
  supplierGameName: "pubgm", userid: "5551234", serverid: "", denom: $i.key,
  userName: "Player", itemName: $i.name, amount: $i.price, cost: 0}')
ID=$(json -H "Idempotency-Key: demo-$(date +%s)" -d "$ORDER" "$BASE/api/reseller/place_order" |
  jq -r .order.id)
echo "placed order $ID"
for _ in $(seq 60); do
  STATUS=$(json -d "{\"denom\":$(echo "$ITEM" | jq .key)}" \
    "$BASE/api/reseller/order/$ID/refresh_status" | jq -r .order.status)
  [ "$STATUS" = successful ] && break
  sleep 1
done
sleep 2 # the job runner polls every second
json "$BASE/api/reseller/webhook/deliveries" |
  jq -r '.deliveries[] | "\(.at) \(.type) \(.orderId) -> \(.statusCode) \(.responseExcerpt)"'
