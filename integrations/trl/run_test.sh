#!/usr/bin/env bash
# `npm run test:trl`: the venv with TRL (made once), a local edgegym serving mcqa, then test_grpo_step.py; stops what it started.
set -euo pipefail
cd "$(dirname "$0")/../.."
VENV="${EDGEGYM_TRL_VENV:-.edgegym/venv-trl}"
# This machine's local index (`pip config list`); elsewhere set EDGEGYM_TRL_PIP_ARGS (e.g. to nothing, for PyPI).
PIP_ARGS="${EDGEGYM_TRL_PIP_ARGS---index-url file:///opt/pypi/simple --extra-index-url file:///opt/pypi-more/simple --find-links /opt/wheels}"
PYTHON="$VENV/bin/python"

if ! "$PYTHON" -c "import trl, transformers, torch, datasets, accelerate" 2>/dev/null; then
  echo "test:trl: installing trl, transformers, accelerate, datasets and torch into $VENV" >&2
  python3 -m venv "$VENV"
  # shellcheck disable=SC2086
  "$VENV/bin/pip" install --quiet $PIP_ARGS trl transformers accelerate datasets torch
fi

PORT="$("$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
TOKEN="trl-$("$PYTHON" -c 'import secrets; print(secrets.token_urlsafe(24))')"
STATE="$(mktemp -d "${TMPDIR:-/tmp}/edgegym-trl-XXXXXX")"
DEV_PID=""
cleanup() {
  # The emulation and its workerd children: the process group setsid gave it.
  if [ -n "$DEV_PID" ]; then kill -- "-$DEV_PID" 2>/dev/null || true; wait "$DEV_PID" 2>/dev/null || true; fi
  rm -rf "$STATE"
}
trap cleanup EXIT INT TERM

export WRANGLER_SEND_METRICS=false CLOUDFLARE_CF_FETCH_ENABLED=false
API_TOKENS="trl:$TOKEN:run+model" setsid npx tsx local/cli/main.ts dev --port "$PORT" --state-dir "$STATE" \
  --environments mcqa >"$STATE/dev.log" 2>&1 &
DEV_PID=$!
for _ in $(seq 1 180); do
  if curl -sf "http://127.0.0.1:$PORT/health" >/dev/null; then break; fi
  if ! kill -0 "$DEV_PID" 2>/dev/null; then cat "$STATE/dev.log" >&2; echo "test:trl: the emulation exited" >&2; exit 1; fi
  sleep 1
done
curl -sf "http://127.0.0.1:$PORT/health" >/dev/null || { cat "$STATE/dev.log" >&2; echo "test:trl: no /health in 180 s" >&2; exit 1; }

EDGEGYM_URL="http://127.0.0.1:$PORT" EDGEGYM_TOKEN="$TOKEN" timeout 600 "$PYTHON" integrations/trl/test_grpo_step.py
