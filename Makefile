# The README's two commands. Both set up .venv on first use (python3 -m venv + pip),
# and skip the install when pyproject.toml has not changed since the last one.
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
PYTEST_ARGS ?=

.PHONY: lab test setup clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -e ".[test]"
	touch $(STAMP)

lab: $(STAMP)
	$(VENV)/bin/jupyter lab notebooks/00_start_here.ipynb

test: $(STAMP)
	$(PY) -m pytest tests notebooks --nbval-lax --nbval-sanitize-with tests/nbval_sanitize.cfg $(PYTEST_ARGS)

clean:
	rm -rf $(VENV) .pytest_cache test-artifacts
