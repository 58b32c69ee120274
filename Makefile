# Two entry points for a fresh clone: `make demo` (the main job, offline, SQLite default) and
# `make test` (the whole suite). Both create .venv and install core + every first-party plugin
# on first use, and skip that when nothing it depends on changed.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
PLUGIN_DIRS := $(sort $(wildcard plugins/schemarouter-*))
INSTALL_INPUTS := pyproject.toml $(wildcard plugins/*/pyproject.toml)

.PHONY: setup demo test

$(STAMP): $(INSTALL_INPUTS)
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[dev]' $(foreach d,$(PLUGIN_DIRS),-e $(d))
	touch $(STAMP)

setup: $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/schemarouter registry sync
	$(VENV)/bin/schemarouter plan "What is the band gap of LiFePO4 in the Materials Project?"

test: $(STAMP)
	$(PY) -m pytest -q
