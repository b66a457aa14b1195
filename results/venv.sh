# Sourced by results/report and results/test: makes sure results/.venv holds exactly the pinned
# requirements. The venv is (re)built only when requirements.txt or the Python version changed
# (a stamp file records both); pip's output goes to .venv/pip.log and is shown only on failure.
# Set GEOSHARD_PYTHON to use another interpreter than python3 (3.10 or newer).

results_home=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
venv="$results_home/.venv"

ensure_venv() {
  local python="${GEOSHARD_PYTHON:-python3}" me="${1:-report}"
  if ! command -v "$python" >/dev/null 2>&1; then
    echo "$me: $python is needed (Python 3.10 or newer); install it, e.g. apt-get install python3 python3-venv" >&2
    exit 2
  fi
  if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 10))'; then
    echo "$me: Python 3.10 or newer is needed; $python is $("$python" --version 2>&1)" >&2
    exit 2
  fi
  local want
  want="$("$python" -c 'import sys; print(sys.version.split()[0])') $(sha256sum "$results_home/requirements.txt" | cut -d' ' -f1)"
  if [ -x "$venv/bin/python" ] && [ "$(cat "$venv/.stamp" 2>/dev/null)" = "$want" ]; then
    return 0
  fi
  mkdir -p "$venv"
  (
    # One setup at a time (the report and the tests may start together).
    if command -v flock >/dev/null 2>&1; then flock 9; fi
    if [ -x "$venv/bin/python" ] && [ "$(cat "$venv/.stamp" 2>/dev/null)" = "$want" ]; then exit 0; fi
    echo "$me: setting up the Python environment in results/.venv from requirements.txt (first use or requirements changed)..." >&2
    rm -f "$venv/.stamp"
    if [ "$("$venv/bin/python" -c 'import sys; print(sys.version.split()[0])' 2>/dev/null)" != "${want%% *}" ]; then
      # New or other interpreter: build the environment afresh (the lock file stays).
      rm -rf "$venv/bin" "$venv/lib" "$venv/lib64" "$venv/include" "$venv/share" "$venv/pyvenv.cfg"
      local log
      log=$(mktemp)
      if ! "$python" -m venv "$venv" >"$log" 2>&1; then
        cat "$log" >&2
        rm -f "$log"
        echo "$me: could not create a virtual environment; on Debian/Ubuntu: apt-get install python3-venv" >&2
        exit 2
      fi
      rm -f "$log"
    fi
    if ! PIP_DISABLE_PIP_VERSION_CHECK=1 "$venv/bin/python" -m pip install --no-input -r "$results_home/requirements.txt" \
        >"$venv/pip.log" 2>&1; then
      tail -n 30 "$venv/pip.log" >&2
      echo "$me: installing the pinned requirements failed (full log: results/.venv/pip.log)" >&2
      exit 2
    fi
    echo "$want" >"$venv/.stamp"
    echo "$me: Python environment ready." >&2
  ) 9>"$venv/.lock" || exit $?
}
