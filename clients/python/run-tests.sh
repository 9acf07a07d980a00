#!/usr/bin/env bash
# Runs the Python client's tests against a real `strata serve` (tests/conftest.py starts it).
# The venv is cached under ~/.cache/strata-python-venv, keyed by a hash of pyproject.toml, so a
# changed dependency list gets a fresh one; the package installs from PyPI with its test extras.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
python="${PYTHON:-python3}"
if ! "$python" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)' 2>/dev/null; then
  echo "run-tests.sh: needs Python >= 3.10 (set PYTHON=...)" >&2
  exit 2
fi
key="$(cat "$here/pyproject.toml" <("$python" -c 'import sys; print(sys.version)') | sha256sum | cut -c1-16)"
venv="${STRATA_PYTHON_VENV:-$HOME/.cache/strata-python-venv/$key}"
if [ ! -x "$venv/bin/pytest" ]; then
  rm -rf "$venv"
  "$python" -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check --upgrade pip
fi
# Editable install: the tests run the working tree's code; cheap when already installed.
"$venv/bin/pip" install --quiet --disable-pip-version-check -e "$here[test]"
cd "$here"
exec "$venv/bin/pytest" "$@"
