# Both targets bootstrap .venv/ themselves: a fresh clone needs nothing else.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

CORPUS := $(VENV)/corpus/pygments-2.19.2/tests/examplefiles

# Kept between clones, like pip's own cache: the pinned corpus sdist and a copy of mypy's
# cache. Empty (make DEV_CACHE=) keeps nothing outside the clone.
DEV_CACHE ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/reviewtui-dev

.PHONY: demo test lint bench clean corpus

# Suite workers: one more than the cores. The extra worker fills the time UI tests wait on
# Pilot's idle checks and subprocess tests on their children. On a quiet 2-core machine
# (2,473 tests, back to back): 2 workers 2:12, 3 workers 2:02, 4 workers 2:45; the s8 stop's
# quiet runs 2:29 / 2:04 with 2, 2:04 / 1:59 with 3. Under other load (1.5-4.5) it did not
# win reliably (4:27 then 3:48; 3:22 then 4:52). TEST_WORKERS=N (or auto) chooses another.
TEST_WORKERS ?= $(shell $(PYTHON) -c "import os; print((os.cpu_count() or 1) + 1)")

# A new venv gets no pip of its own (venv would install Python's bundled pip and setuptools
# only for the upgrade to replace them, ~4 s of CPU): the bundled pip, run from its wheel,
# installs the newest pip directly.
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv --without-pip $(VENV)
	if $(BIN)/python -m pip --version >/dev/null 2>&1; then pip="-m pip"; else \
		pip=$$($(BIN)/python -c 'import ensurepip, glob, os; \
		print(max(glob.glob(os.path.dirname(ensurepip.__file__) + "/_bundled/pip-*.whl")))')/pip; \
		fi; $(BIN)/python $$pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

# Real code in ~20 languages for the syntax tests and bench (tests/core/syntaxkit.py): the
# example files of the Pygments source distribution, fetched with pip from PyPI. Offline,
# the tests that need it skip loudly instead.
corpus: $(CORPUS)

$(CORPUS): | $(STAMP)
	mkdir -p $(VENV)/corpus
	{ test -z "$(DEV_CACHE)" || cp $(DEV_CACHE)/pygments-2.19.2.tar.gz $(VENV)/corpus/ 2>/dev/null \
		|| $(BIN)/python -m pip download --quiet --no-deps --no-binary :all: pygments==2.19.2 \
		-d $(VENV)/corpus; } && tar xzf $(VENV)/corpus/pygments-2.19.2.tar.gz \
		-C $(VENV)/corpus pygments-2.19.2/tests/examplefiles \
		|| { rm -f $(DEV_CACHE)/pygments-2.19.2.tar.gz; \
		     echo "the syntax corpus could not be fetched: its tests will skip"; }
	-test -z "$(DEV_CACHE)" || test -f $(DEV_CACHE)/pygments-2.19.2.tar.gz \
		|| { mkdir -p $(DEV_CACHE) && cp $(VENV)/corpus/pygments-2.19.2.tar.gz $(DEV_CACHE)/.sdist.$$$$ \
		&& mv $(DEV_CACHE)/.sdist.$$$$ $(DEV_CACHE)/pygments-2.19.2.tar.gz; } 2>/dev/null

demo: $(STAMP)
	$(BIN)/reviewtui demo

# mypy without its cache spends ~12 s of CPU re-reading Textual, Rich, Hypothesis and the
# standard library's stubs. A clone without a .mypy_cache/ starts from the copy in DEV_CACHE:
# mypy checks every cached module against its source's hash, so only what differs is checked
# again (the same as switching branches in one clone). The copy is a tarball replaced by a
# rename, so clones running at once never read a half-written one.
lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	-test -z "$(DEV_CACHE)" || test -d .mypy_cache || ! test -f $(DEV_CACHE)/mypy-cache.tar \
		|| tar xf $(DEV_CACHE)/mypy-cache.tar
	$(BIN)/mypy
	-test -z "$(DEV_CACHE)" || { mkdir -p $(DEV_CACHE) \
		&& tar cf $(DEV_CACHE)/.mypy-cache.$$$$.tar .mypy_cache \
		&& mv $(DEV_CACHE)/.mypy-cache.$$$$.tar $(DEV_CACHE)/mypy-cache.tar; } 2>/dev/null
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
	$(BIN)/python -m pytest -q -n $(TEST_WORKERS) --dist worksteal

bench: $(STAMP)
	$(BIN)/python bench/bench_parse.py
	$(BIN)/python bench/bench_match.py
	$(BIN)/python bench/bench_watch_latency.py
	$(BIN)/python bench/bench_diff.py
	$(BIN)/python bench/bench_import.py
	$(BIN)/python bench/bench_apply.py
	$(BIN)/python bench/bench_big_file.py
	$(BIN)/python bench/bench_one_file.py
	$(BIN)/python bench/bench_input_limit.py
	$(BIN)/python bench/bench_ui.py
	$(BIN)/python bench/bench_ui.py --scale
	$(BIN)/python bench/bench_tmux.py
	$(BIN)/python bench/bench_search.py
	$(BIN)/python bench/bench_stats.py
	$(BIN)/python bench/bench_startup.py
	$(BIN)/python bench/bench_big_project.py
	$(BIN)/python bench/bench_state_save.py
	$(BIN)/python bench/bench_first_frame.py
	$(MAKE) corpus
	$(BIN)/python bench/bench_syntax.py
	$(BIN)/python bench/bench_git.py
	$(BIN)/python bench/bench_mcp.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
