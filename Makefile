# Both targets bootstrap .venv/ themselves: a fresh clone needs nothing else.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

CORPUS := $(VENV)/corpus/pygments-2.19.2/tests/examplefiles

.PHONY: demo test lint bench clean corpus

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

# Real code in ~20 languages for the syntax tests and bench (tests/core/syntaxkit.py): the
# example files of the Pygments source distribution, fetched with pip from PyPI. Offline,
# the tests that need it skip loudly instead.
corpus: $(CORPUS)

$(CORPUS): | $(STAMP)
	mkdir -p $(VENV)/corpus
	$(BIN)/python -m pip download --quiet --no-deps --no-binary :all: pygments==2.19.2 \
		-d $(VENV)/corpus && tar xzf $(VENV)/corpus/pygments-2.19.2.tar.gz \
		-C $(VENV)/corpus pygments-2.19.2/tests/examplefiles \
		|| echo "the syntax corpus could not be fetched: its tests will skip"

demo: $(STAMP)
	$(BIN)/reviewtui demo

lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/mypy
	$(BIN)/lint-imports --no-cache

# compileall: the suite starts reviewtui in child processes some hundred times; with
# PYTHONDONTWRITEBYTECODE set (as on the project's machines) each child would compile every
# module of src/ again, about 0.1 s of CPU each.
# The warm-up beside lint (which keeps one core busy): pytest rewrites the asserts of every
# test module and of its plugins' packages (hypothesis, syrupy, anyio) when it imports them,
# and with PYTHONDONTWRITEBYTECODE set it cannot keep the result, so each of the suite's
# workers redid it, ~7 s of a worker's start. A collection with bytecode writing on stores
# them (in tests/ and .venv/, both ignored by git); the suite then reads them.
test: $(STAMP) corpus
	$(BIN)/python -m compileall -q src
	env -u PYTHONDONTWRITEBYTECODE $(BIN)/python -m pytest --collect-only -q -p no:cacheprovider \
		>/dev/null 2>&1 & warm=$$!; $(MAKE) --no-print-directory lint; status=$$?; \
		wait $$warm; exit $$status
	$(BIN)/python -m pytest -q -n auto --dist worksteal

bench: $(STAMP)
	$(BIN)/python bench/bench_parse.py
	$(BIN)/python bench/bench_match.py
	$(BIN)/python bench/bench_watch_latency.py
	$(BIN)/python bench/bench_diff.py
	$(BIN)/python bench/bench_import.py
	$(BIN)/python bench/bench_apply.py
	$(BIN)/python bench/bench_input_limit.py
	$(BIN)/python bench/bench_ui.py
	$(BIN)/python bench/bench_ui.py --scale
	$(BIN)/python bench/bench_stats.py
	$(BIN)/python bench/bench_startup.py
	$(BIN)/python bench/bench_first_frame.py
	$(MAKE) corpus
	$(BIN)/python bench/bench_syntax.py
	$(BIN)/python bench/bench_git.py
	$(BIN)/python bench/bench_mcp.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
