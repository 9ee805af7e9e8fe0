#!/usr/bin/env bash
# Browser tests of the web client (web/tests/*.test.mjs) against a real `polyshogi serve`:
# installs Debian's Chromium, Node and npm, a Japanese font (for the kanji pieces) and playwright-core when missing, builds the server, starts it on
# a free port with a throwaway SQLite database, runs the tests, and stops the server.
# Screenshots and downloaded records go to test-artifacts/ (gitignored).
#
#   bash scripts/browser-test.sh                 # every test
#   bash scripts/browser-test.sh web/tests/views.test.mjs   # some of them
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT="$PWD"

# Never let Playwright fetch a browser: Debian's chromium is the one used.
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1

# Chromium, Node and npm, and a font with the kanji of the kanji piece set: without one Chromium draws them as
# empty boxes (Debian's default fonts have no Japanese).
PACKAGES=()
if [[ ! -x /usr/bin/chromium ]]; then PACKAGES+=(chromium); fi
# Node runs the tests (node --test) and npm fetches playwright-core.
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then PACKAGES+=(nodejs npm); fi
if ! fc-list :lang=ja family 2>/dev/null | grep -q .; then PACKAGES+=(fonts-noto-cjk); fi
if [[ ${#PACKAGES[@]} -gt 0 ]]; then
  echo "== installing ${PACKAGES[*]}"
  SUDO=""
  if [[ "$(id -u)" != 0 ]]; then SUDO="sudo"; fi
  $SUDO apt-get update
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${PACKAGES[@]}"
fi

echo "== npm dependencies (playwright-core)"
if [[ -f package-lock.json ]]; then
  npm ci --no-audit --no-fund
else
  npm install --no-audit --no-fund
fi

echo "== building the server"
cargo build --release -p polyshogi-cli
# Where cargo put it: CARGO_TARGET_DIR when set (relative to this directory, as for cargo).
BIN="${CARGO_TARGET_DIR:-$ROOT/target}/release/polyshogi"

WORK="$(mktemp -d)"
SERVER_PIDS=()
cleanup() {
  for pid in "${SERVER_PIDS[@]}"; do
    if kill -0 "$pid" 2>/dev/null; then
      kill "$pid" 2>/dev/null || true
      wait "$pid" 2>/dev/null || true
    fi
  done
  rm -rf "$WORK"
}
trap cleanup EXIT

# start_server NAME [serve options…]: a server on a free port with its own database and log
# ($WORK/NAME.log); prints its URL. Without the per-address limits: every test page comes from
# 127.0.0.1, and the tests create more games in a minute than one person would.
start_server() {
  local name="$1"; shift
  local port
  port="$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
  local url="http://127.0.0.1:$port"
  "$BIN" serve --addr "127.0.0.1:$port" --database "sqlite:$WORK/$name.db" --no-address-limits "$@" >"$WORK/$name.log" 2>&1 &
  SERVER_PIDS+=($!)
  for _ in $(seq 1 100); do
    if curl -fsS "$url/health" >/dev/null 2>&1; then break; fi
    if ! kill -0 "${SERVER_PIDS[-1]}" 2>/dev/null; then
      echo "the server $name stopped:" >&2; cat "$WORK/$name.log" >&2; exit 1
    fi
    sleep 0.1
  done
  curl -fsS "$url/health" >/dev/null || { echo "no answer from $url/health" >&2; cat "$WORK/$name.log" >&2; exit 1; }
  echo "$url"
}

echo "== starting polyshogi serve"
start_server server >"$WORK/url"
POLYSHOGI_URL="$(cat "$WORK/url")"
export POLYSHOGI_URL
# A second server whose humans have two seconds for their first move: the abort test's.
start_server impatient --first-move-seconds 2 >"$WORK/url"
POLYSHOGI_IMPATIENT_URL="$(cat "$WORK/url")"
export POLYSHOGI_IMPATIENT_URL
echo "   on $POLYSHOGI_URL, and $POLYSHOGI_IMPATIENT_URL (2 s for a first move)"

export POLYSHOGI_ARTIFACTS="$ROOT/test-artifacts"
rm -rf "$POLYSHOGI_ARTIFACTS"   # only this run's screenshots and records
mkdir -p "$POLYSHOGI_ARTIFACTS"

echo "== browser tests"
status=0
if [[ $# -gt 0 ]]; then
  node --test --test-concurrency=1 "$@" || status=$?
else
  node --test --test-concurrency=1 web/tests/*.test.mjs || status=$?
fi
cp "$WORK/server.log" "$WORK/impatient.log" "$POLYSHOGI_ARTIFACTS/" 2>/dev/null || true
if [[ $status -ne 0 ]]; then
  echo "== browser tests FAILED (server log: test-artifacts/server.log)"
else
  echo "== browser tests passed; screenshots in test-artifacts/"
fi
exit $status
