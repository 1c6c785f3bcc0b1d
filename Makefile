# Incanto: two commands on a fresh clone, `make demo` and `make test`; both build .venv first.
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
PY_STAMP := $(VENV)/.installed-python
PORT ?= 8000

.PHONY: venv venv-python demo install test lint bench system-deps system-check clean cue-held-out-voices

# The Debian programs the tests use as real parts, by the command each package installs.
SYSTEM_COMMANDS := chromium socat espeak-ng sox strace npm systemd-analyze desktop-file-validate flite text2wave

venv: $(STAMP)
venv-python: $(PY_STAMP)

# Rebuilt whenever the project's own dependency files change. The Python half alone is all the demo
# needs; npm (the MicroPython interpreter for the firmware tests) only for the tests.
$(PY_STAMP): pyproject.toml
	@if [ -f $(STAMP) ] && [ $(STAMP) -nt pyproject.toml ]; then touch $(PY_STAMP); else \
		set -e; test -x $(PY) || $(PYTHON) -m venv $(VENV); \
		$(PY) -m pip install --quiet --upgrade pip; \
		$(PY) -m pip install --quiet -e '.[test]'; \
		touch $(PY_STAMP); fi

$(STAMP): pyproject.toml package.json
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	npm install --no-audit --no-fund --silent
	touch $(STAMP) $(PY_STAMP)

# `make demo PORT=8123` for another port.
demo: $(PY_STAMP)
	$(PY) -m companion demo --port $(PORT) --port-named PORT=

# On the Pi, after `make venv-python` as yourself: `sudo make install` installs and starts the service, and the
# kiosk when a screen is attached (docs/appliance.md). `make install DESTDIR=DIR` only writes the files there.
install:
	@test -x $(PY) || { echo "make install: run 'make venv-python' first (as yourself, not root)"; exit 2; }
	$(PY) -m companion install --exec $(abspath $(VENV))/bin/incanto $(if $(DESTDIR),--root $(DESTDIR))

test: system-check venv lint
	$(PY) -m pytest

# ruff, then mypy over companion, vision and calibration: the core strictly (both set in pyproject.toml).
lint: venv
	$(PY) -m ruff check .
	$(PY) -m mypy

# Installs the Debian packages the tests need when it can (as root, or with sudo that asks no
# password); otherwise stops at once with the command to run. No test may rely on a hand install.
system-check:
	@missing=""; for c in $(SYSTEM_COMMANDS); do command -v $$c >/dev/null || missing="$$missing $$c"; done; \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" = 0 ]; then $(MAKE) system-deps; \
		elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then sudo $(MAKE) system-deps; \
		else echo "make test needs Debian packages (missing:$$missing): run 'sudo make system-deps' first"; exit 1; fi; \
	fi

bench: venv
	$(PY) -m companion bench engine --json
	$(PY) -m companion bench inputs --json
	$(PY) -m companion.inputs.scanbench --json
	$(PY) -m companion bench display --json
	$(PY) -m companion bench faults --json
	$(PY) -m companion.tableside bench --json
	$(PY) -m vision bench --json
	$(PY) -m calibration bench --json

# Debian packages the tests use as real parts: Chromium, socat pty pairs, espeak-ng speech, strace (the
# store's fsync check), systemd's `systemd-analyze verify` for the service unit Incanto ships and
# desktop-file-utils' check of its kiosk's autostart entry; and the
# cue benchmark's other speech engines (festival and its English voices, flite: the held-out engine).
system-deps:
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
		chromium socat espeak-ng sox strace libportaudio2 systemd desktop-file-utils \
		festival festvox-kallpc16k festvox-kdlpc16k festvox-us-slt-hts flite >/dev/null
	command -v npm >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null

# The cue benchmark's held-out speakers (companion/cue/bench/held_out.json): festival's Italian, Finnish
# and Czech voices reading English. Only `python -m companion.cue.bench` needs them, never `make test`.
cue-held-out-voices:
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
		festival festvox-italp16k festvox-itapc16k festvox-suopuhe-lj festvox-suopuhe-mv festvox-czech-dita festvox-czech-machac >/dev/null

clean:
	rm -rf $(VENV) node_modules
