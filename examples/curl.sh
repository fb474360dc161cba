#!/usr/bin/env bash
# One curl per endpoint, with the key in X-API-Key. Exits non-zero at the first failure.
#
#   bash examples/curl.sh
#
# MBOA_BASE_URL defaults to http://localhost:3000; the key is MBOA_API_KEY, or else the
# server's demo Pro key from ${MBOA_DATA_DIR:-.mboa-data}/demo-keys.json (Pro, because
# market/trends is not in the Starter plan).
set -euo pipefail

BASE="${MBOA_BASE_URL:-http://localhost:3000}"
KEYS="${MBOA_DATA_DIR:-.mboa-data}/demo-keys.json"
if [[ -z "${MBOA_API_KEY:-}" ]]; then
  [[ -f "$KEYS" ]] || { echo "Set MBOA_API_KEY, or start the server once (npm start) so it writes $KEYS." >&2; exit 1; }
  MBOA_API_KEY="$(node -p "require(require('path').resolve(process.argv[1])).pro" "$KEYS")"
fi

# --fail-with-body: print the problem+json body of an error, and fail.
call() {
  echo "# GET $1" >&2
  curl --silent --show-error --fail-with-body -H "X-API-Key: $MBOA_API_KEY" "${@:2}" "$BASE$1"
  echo
}

# Health and quota; -i shows the quota and rate-limit headers (ping is never counted).
echo "# GET /api/v1/ping (with headers)" >&2
curl --silent --show-error --fail-with-body -i -H "X-API-Key: $MBOA_API_KEY" "$BASE/api/v1/ping"
echo

# Search: the 2 cheapest 3-bedroom apartments for rent in Yaoundé (accents optional).
page="$(call '/api/v1/listings?city=yaounde&type=apartment&purpose=rent&min_bedrooms=3&sort=price&limit=2')"
echo "$page"

# The next page: same filters, plus the cursor of the page before.
cursor="$(node -p 'JSON.parse(process.argv[1]).meta.next_cursor ?? ""' "$page")"
if [[ -n "$cursor" ]]; then
  call "/api/v1/listings?city=yaounde&type=apartment&purpose=rent&min_bedrooms=3&sort=price&limit=2&cursor=$cursor"
fi

# One listing, with its price history.
id="$(node -p 'JSON.parse(process.argv[1]).data[0]?.id ?? ""' "$page")"
if [[ -n "$id" ]]; then
  call "/api/v1/listings/$id"
fi

# Market statistics per city, and 30-day trends per neighbourhood (Pro and Enterprise).
call '/api/v1/market/stats?city=Douala&purpose=sale'
call '/api/v1/market/trends?city=Douala&type=villa&purpose=sale'

# Monthly history of 2-bedroom flat rents in a quarter (Pro and Enterprise), as CSV.
call '/api/v1/market/history?city=Douala&neighborhood=Bonamoussadi&purpose=rent&type=apartment&bedrooms=2&months=12' -H 'Accept: text/csv'
