# The README's commands. Each sets up .venv on first use (python3 -m venv + pip, or uv for the test set-up),
# and skips the install when pyproject.toml has not changed since the last one.
# `make lab` and `make test` are the two everyday ones; `make app`, `make site` and `make html`
# are the ways into a classroom without installing anything (README, "For teachers").
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# The smaller set-ups' stamps (issue 25; their rules are at the end).
LAB_STAMP := $(VENV)/.installed-lab
APP_STAMP := $(VENV)/.installed-app
SITE_STAMP := $(VENV)/.installed-site
INSTRUCTOR_STAMP := $(VENV)/.installed-instructor
PYTEST_ARGS ?=
# `make setup`/`make test` and `make frameworks` install about 200 packages with uv, which pip first brings into
# the venv: the same packages from the same index, resolved and linked from uv's cache in parallel, in a few
# seconds of CPU where pip took about 90 s of one core on CI's critical path. uv does not byte-compile the
# 10,000 modules either: the tests import a fraction of them, which Python compiles once on import.
UV := $(VENV)/bin/uv
# Where the environment sets PYTHONDONTWRITEBYTECODE, each test worker rewrites and compiles every
# test module again (pytest's assertion rewriting keeps its result in __pycache__): about half the
# CPU of collecting the tests. Python reads an empty value as unset.
export PYTHONDONTWRITEBYTECODE :=

.PHONY: lab lab-refresh test test-long test-deploy test-durations setup clean app site html setup-student setup-instructor student-edition frameworks

setup: $(STAMP)

$(UV):
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check uv
$(STAMP): pyproject.toml | $(UV)
	$(UV) pip install --quiet --python $(PY) -e ".[test,lab,voila,site]"
	touch $(STAMP)

# Jupyter refuses to run as root unless told; containers and CI machines often are root.
LAB_ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root,)

# Lab saves a notebook as soon as it runs, so `make lab` opens the user's own copy, my_notebooks/
# (made on the first run, ignored by git; tools/working_copy.py), and notebooks/ stays as committed.
lab: $(LAB_STAMP)
	$(PY) tools/working_copy.py
	$(VENV)/bin/jupyter lab $(LAB_ROOT_FLAG) my_notebooks/00_start_here.ipynb

# Take a lesson's original again (`make lab-refresh LESSON=pangu/01_rules_step_by_step.ipynb`),
# or every one with LESSON=all; the replaced copies are kept in my_notebooks/.replaced/.
lab-refresh: $(LAB_STAMP)
	$(if $(LESSON),,$(error say which: make lab-refresh LESSON=pangu/01_rules_step_by_step.ipynb, or LESSON=all))
	$(PY) tools/working_copy.py $(if $(filter all,$(LESSON)),--refresh-all,--refresh $(LESSON))

# The apps (notebooks/apps/) as web pages: Voila runs each and shows its board, never its code; it
# serves build/app/ (the apps and the rules pages they link to, tools/app_folder.py; voila.json).
app: $(APP_STAMP)
	$(PY) tools/app_folder.py --serve

# The browser-only site: build/site/, a static folder for any web host (README, "Publishing the site").
site: $(SITE_STAMP)
	$(PY) tools/build_site.py --output build/site

# Every lesson as a page that opens from disk with no network: build/html/.
html: $(SITE_STAMP)
	$(PY) tools/export_html.py --output build/html

# Unit tests, every notebook (nbval) and the Lab browser tests; the deployment tests are apart.
# pytest-xdist runs one worker per core; --dist loadfile keeps each file (a notebook's cells, a
# module's fixtures) on one worker, in order, and --no-loadscope-reorder hands the files out in
# collection order, where tests/conftest.py puts the longest first (tests/durations.json).
# PYTEST_ARGS='-n 0' runs everything in one process; GAMELIB_LONG_TESTS=1 runs the long sweeps.
test: $(STAMP)
	$(PY) -m pytest tests notebooks --nbval-lax --nbval-sanitize-with tests/nbval_sanitize.cfg \
		--ignore-glob='tests/test_deploy*' --ignore-glob='tests/test_*_browser.py' --ignore=notebooks/course/assignments \
		$(addprefix --ignore=,$(LONG_ONLY_FILES)) $(if $(LONG_RUNS_NEXT),$(addprefix --ignore=,$(LONG_TEST_FILES))) \
		--numprocesses auto --dist loadfile --no-loadscope-reorder $(PYTEST_ARGS)

# Measure how long each file of `make test` takes and write tests/durations.json, the order in
# which `make test` starts its files (longest first). Run it after adding or slowing a test file.
test-durations: $(STAMP)
	GAMELIB_RECORD_DURATIONS=1 $(MAKE) test
# The same for `make test-long` and `make test-deploy-long` (CI's), which start their files in the order
# of tests/durations_long.json.
.PHONY: test-long-durations
test-long-durations: $(STAMP)
	GAMELIB_RECORD_DURATIONS=1 $(MAKE) test-deploy-long

# The long sweeps in full (GAMELIB_LONG_TESTS=1): the files whose loops and fuzz sweeps that
# variable lengthens (`make test` runs the same assertions on the first seeds of each), and the files
# only this target runs: the solved copies (they repeat their student notebooks, which nbval runs) and
# the numba bot evaluator against the engine and the numba builder's key listing (compiling their
# kernels is most of their cost). CI runs both.
LONG_ONLY_FILES := tests/test_course_solutions_run.py tests/test_pangu_bot_values_numba.py tests/test_pangu_solver_build_numba.py \
	tests/test_pangu_bot_values_random_numba.py
# Pig to 100 solved exactly against the published values (gamelib.studio.solve; a few minutes)
LONG_ONLY_FILES += tests/test_studio_solve_pig100.py
# The framework adapters (issue 27): their tests (cross-checks on 100 seeds in long mode, the frameworks' own
# test suites) and random play through them (CI's sizes; GAMELIB_FRAMEWORK_SWEEP=full plays 10,000 games a game)
LONG_ONLY_FILES += tests/test_frameworks.py tests/test_frameworks_sweep.py
# and their lesson (OpenSpiel's ISMCTS on a skill ladder: the longest notebook, and it needs that extra)
LONG_ONLY_FILES += notebooks/course/frameworks_search_bots.ipynb
LONG_TEST_FILES := tests/test_chakra_play.py tests/test_chakra_fuzz.py tests/test_nagaraja_fuzz.py \
	tests/test_nagaraja_invariants.py tests/test_pangu_fuzz.py tests/test_pangu_invariants.py $(LONG_ONLY_FILES)
LONG_TEST_FILES += tests/test_shipped_data.py
test-long: $(STAMP) frameworks  # the framework adapters' extra first
	GAMELIB_LONG_TESTS=1 $(PY) -m pytest $(LONG_TEST_FILES) --nbval-lax --nbval-sanitize-with tests/nbval_sanitize.cfg \
		--numprocesses auto --dist loadfile --no-loadscope-reorder $(PYTEST_ARGS)
# (a recipe reads its variables when it runs, so files appended here are in it too)
LONG_TEST_FILES += tests/test_design_files.py tests/test_typed_inputs.py tests/test_saves_seeds.py
# and the four files whose GAMELIB_LONG_TESTS=1 loops no target ran: the duel board's words on 12 games, the one
# builder on 12, the playtest fuzz on 2,500 cases, the Nagaraja view against its oracle on 40
LONG_TEST_FILES += tests/test_nagaraja_words.py tests/test_one_builder.py tests/test_playtests.py tests/test_nagaraja_view_oracle.py
# Issue 26's budget (make test within 5 minutes on an idle 2-core machine): the tiers that cost most move
# here whole: the Lab browser tests (every tests/test_*_browser.py: a JupyterLab server, Chromium and a
# kernel per notebook), and the graded assignments (their nbgrader round trip autogrades three students'
# copies of six assignments; the correct copy runs every cell of the instructor sources, a5 solving Pig
# exactly, and may raise nowhere, so nbval need not run the sources again).
LONG_ONLY_FILES += tests/test_course_grading.py
LONG_TEST_FILES += $(wildcard tests/test_*_browser.py) tests/test_course_grading.py
# The framework adapters' cheaper observations, byte for byte the old ones (issue 27; needs the frameworks extra)
LONG_ONLY_FILES += tests/test_frameworks_obs_speed.py
LONG_TEST_FILES += tests/test_frameworks_obs_speed.py

# The optional framework adapters' packages (PettingZoo, Gymnasium, OpenSpiel; issue 27): their tests
# skip without them, except where GAMELIB_REQUIRE_FRAMEWORKS=1 (CI) makes a missing package a failure.
# Installed once per venv (a stamp, as for the other set-ups): `make test-long` after CI's `make frameworks`
# does not run pip again.
FRAMEWORKS_STAMP := $(VENV)/.installed-frameworks
frameworks: $(FRAMEWORKS_STAMP)
$(FRAMEWORKS_STAMP): $(STAMP)
	$(UV) pip install --quiet --python $(PY) -e ".[frameworks]"
	touch $@

# The ways into a classroom, in a browser: the apps in Voila, the JupyterLite site (built once,
# offline, about a minute), the HTML export from disk, and a plain pip install in a fresh venv.
# CI (.ci/run) runs it after `make test`; it needs npm once to fetch Pyodide and the renderers.
# Its four files share nothing (each starts its own server or build), so they run side by side.
DEPLOY_TEST_FILES := tests/test_deploy_apps.py tests/test_deploy_html.py tests/test_deploy_site.py tests/test_deploy_pip.py
test-deploy: $(STAMP)
	$(PY) -m pytest $(DEPLOY_TEST_FILES) --numprocesses auto --dist loadfile $(PYTEST_ARGS)

# CI (.ci/run) runs the files of test-deploy and test-long in one pytest session, longest first
# (tests/durations_long.json holds both), so that neither tier ends with one worker idle while the other
# finishes its last file. The same tests; the deployment tests do not read GAMELIB_LONG_TESTS.
.PHONY: test-deploy-long
test-deploy-long: $(STAMP) frameworks
	GAMELIB_LONG_TESTS=1 $(PY) -m pytest $(LONG_TEST_FILES) $(DEPLOY_TEST_FILES) --nbval-lax \
		--nbval-sanitize-with tests/nbval_sanitize.cfg --numprocesses auto --dist loadfile --no-loadscope-reorder $(PYTEST_ARGS)

clean:
	rm -rf $(VENV) .pytest_cache test-artifacts build

# What each route installs (issue 25): `make lab` and `make setup-student` only JupyterLab and the
# lessons' runtime (the `lab` extra: no test, grading, browser or site tools, so no nbgrader menu);
# `make app` adds Voila, `make site` / `make html` the JupyterLite build; `make setup` / `make test`
# (the STAMP above) everything; `make setup-instructor` the lab plus nbgrader for grading.
setup-student: $(LAB_STAMP)
setup-instructor: $(INSTRUCTOR_STAMP)
$(LAB_STAMP): EXTRAS := lab
$(APP_STAMP): EXTRAS := lab,voila
$(SITE_STAMP): EXTRAS := lab,site
$(INSTRUCTOR_STAMP): EXTRAS := lab,course
$(LAB_STAMP) $(APP_STAMP) $(SITE_STAMP) $(INSTRUCTOR_STAMP): pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -e ".[$(EXTRAS)]"
	touch $@

# The student edition (docs/teaching/deploying.md): build/student/, the repository without the
# instructor material (solutions, nbgrader sources with hidden tests, the instructor guide, tests).
# Teachers publish that folder to students instead of this repository.
student-edition:
	python3 tools/student_edition.py --output build/student

# Lint (issue 26; CONTRIBUTING.md), the first step of `make test`: ruff's checks and ruff's format
# check ([tool.ruff] in pyproject.toml) on all the code. `make format` formats it.
LINTED := gamelib tests tools bench
.PHONY: lint
lint: $(STAMP)
	$(PY) -m ruff check $(LINTED)
	$(PY) -m ruff format --check $(LINTED)
.PHONY: format
format: $(STAMP)
	$(PY) -m ruff format $(LINTED)
test: lint

# CI (.ci/run) runs `make test LONG_RUNS_NEXT=1` and then `make test-deploy-long`: the files that the long
# session runs again in full (LONG_TEST_FILES: their sweeps lengthened, the same tests on the first seeds
# and more) are left to it, so CI does not play their short sweeps twice (about 100 s of CPU).
