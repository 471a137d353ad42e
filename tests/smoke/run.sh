#!/usr/bin/env bash
# `npm run test:smoke`: the built app under another Node.js than the machine's, taken from the
# npm registry's `node` package (default 24, the newest supported; SMOKE_NODE=22 for another).
# Inside `npx -p node@N` every `node` on the PATH is that one, npm's own included, so a build
# the smoke run needs is made by it too. What it does: tests/smoke/smoke.mjs.
set -euo pipefail
cd "$(dirname "$0")/../.."
exec npx -y -p "node@${SMOKE_NODE:-24}" -- node tests/smoke/smoke.mjs
