# Incanto: two commands on a fresh clone, `make demo` and `make test`; both build .venv first.
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: venv demo test bench system-deps clean

venv: $(STAMP)

# Rebuilt whenever the project's own dependency files change.
$(STAMP): pyproject.toml package.json
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	npm install --no-audit --no-fund --silent
	touch $(STAMP)

demo: venv
	$(PY) -m companion demo

test: venv
	$(PY) -m pytest

bench: venv
	$(PY) -m companion bench engine --json
	$(PY) -m companion bench inputs --json
	$(PY) -m companion bench display --json
	$(PY) -m companion.tableside bench --json
	$(PY) -m vision bench --json

# Debian packages the tests use as real parts: Chromium, socat pty pairs, espeak-ng speech.
system-deps:
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
		chromium socat espeak-ng sox libportaudio2 >/dev/null
	command -v npm >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null

clean:
	rm -rf $(VENV) node_modules
