VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
STAMP := $(VENV)/.installed

.PHONY: run test eval bench lint browser clean

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PIP) install -q --upgrade pip
	$(PIP) install -q -e '.[server,eval,postgres,redis,dev]'
	touch $(STAMP)

# The web inspector's tests drive Debian's Chromium (no browser download at run time).
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-cjk >/dev/null; \
	  else echo "note: Chromium not installed (sudo apt-get install chromium); web tests will skip"; fi; }

run: $(STAMP)
	$(VENV)/bin/pmemo serve

test: $(STAMP) browser
	$(PY) -m pytest -q

eval: $(STAMP)
	$(VENV)/bin/pmemo eval all ../shared/data --out eval_out

bench: $(STAMP)
	$(PY) bench/core.py
	$(PY) bench/load.py
	$(PY) bench/scenario.py

lint: $(STAMP)
	$(VENV)/bin/ruff check src tests bench
	$(VENV)/bin/mypy src

clean:
	rm -rf $(VENV) pmemo_data
