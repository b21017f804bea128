VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
STAMP := $(VENV)/.installed

.PHONY: run test eval bench lint clean

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PIP) install -q --upgrade pip
	$(PIP) install -q -e '.[server,eval,postgres,redis,dev]'
	touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/pmemo serve

test: $(STAMP)
	$(PY) -m pytest -q

eval: $(STAMP)
	$(VENV)/bin/pmemo eval all ../shared/data --out eval_out

bench: $(STAMP)
	$(PY) bench/core.py

lint: $(STAMP)
	$(VENV)/bin/ruff check src tests

clean:
	rm -rf $(VENV) pmemo_data
