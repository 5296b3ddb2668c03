# Two commands on a fresh machine (Python 3.11 + make):  make play  |  make test
# Any nctui command through make: make play ARGS="solo --difficulty hard"
PYTHON ?= python3
ARGS   ?=
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
TESTED := $(VENV)/.installed-test

.PHONY: play test lint bench clean

$(STAMP): pyproject.toml requirements.lock
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check -r requirements.lock
	$(BIN)/pip install --quiet --disable-pip-version-check --no-deps -e .
	@# An editable install compiles nothing, and without .pyc files every start of nctui compiles it all
	@# again (2.4x a bare Textual app's instructions instead of 1.2x). Python uses a .pyc file whenever it
	@# exists and matches its source, even under PYTHONDONTWRITEBYTECODE (which only stops Python writing
	@# them); compileall writes them regardless. Silent, and a file it cannot write costs speed, not the install.
	@$(BIN)/python -m compileall -qq -j 0 nctui || true
	touch $(STAMP)

# Playing needs only the runtime lock; the tests, the type check and the linter add their tools.
$(TESTED): $(STAMP) requirements-test.lock
	$(BIN)/pip install --quiet --disable-pip-version-check -r requirements-test.lock
	touch $(TESTED)

play: $(STAMP)
	$(BIN)/nctui $(ARGS)

test: $(TESTED)
	$(BIN)/python -m pytest -n auto

# Type check (mypy, config and msgspec plugin in pyproject.toml), lint and formatting (ruff); CI runs it after the tests.
lint: $(TESTED)
	@status=0; $(BIN)/mypy || status=1; $(BIN)/ruff check || status=1; $(BIN)/ruff format --check || status=1; exit $$status

bench: $(STAMP)
	$(BIN)/python benchmarks/history_memory.py --players 4
	$(BIN)/python -m nctui simulate --players 4 --games 50 --seed 1
	$(BIN)/python benchmarks/engine_speed.py
	$(BIN)/python benchmarks/ui_startup.py
	$(BIN)/python benchmarks/serve_session.py
	$(BIN)/python benchmarks/serve_load.py
	$(BIN)/python benchmarks/remote_latency.py
	$(BIN)/python benchmarks/ui_latency.py
	$(BIN)/python benchmarks/ui_screens.py
	$(BIN)/python benchmarks/long_game.py
	$(BIN)/python benchmarks/ui_instructions.py
	$(BIN)/python benchmarks/planner_speed.py
	$(BIN)/python benchmarks/cathedral_strength.py

clean:
	rm -rf $(VENV) build *.egg-info
