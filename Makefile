# MENACE as a Bayesian Observer: build and test entry points.
#
#   make book   install everything, vendor the browser assets, build the book (warnings = errors)
#               and the whole book as a PDF, which the site links (widget stills from the site)
#   make test   the above, then unit tests, notebook tests (the book build's executions checked
#               against the stored outputs by nbval's rules) and headless-browser tests
#   make lint   ruff check + ruff format --check + eslint (the widgets' JavaScript)
#   make handouts  the seminar handouts (plan, worksheets, one-page summary, student edition)
#   make pdf    the whole book as one PDF (part of `make book`; kept as a name for it)
#
# Everything runs in the current Python environment (use a virtualenv if you like).

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

PYTHON ?= python3
# An inherited MPLBACKEND (e.g. Agg) overrides the Jupyter kernels' inline backend: figures
# would silently vanish from the book and from the notebook tests.
unexport MPLBACKEND
PIP ?= $(PYTHON) -m pip
# jupyter-book from the same environment as $(PYTHON), whatever is first on PATH, without
# jsonschema's optional IRI format checker (scripts/jupyter_book_cli.py says why).
JB ?= $(PYTHON) scripts/jupyter_book_cli.py
CHROMIUM ?= /usr/bin/chromium
HTML := _build/html
# Book build: strict (warnings are errors), all problems reported before failing.
JB_FLAGS ?= --warningiserror --keep-going
# Notebook tests: every notebook runs in a fresh kernel and must not raise. Cells saved
# with an execution count must also reproduce their stored outputs (after the substitutions
# in tests/nbval_sanitize.cfg; images and widget ids are not compared). Cells saved unrun
# (outputs cleared) are only executed. `make test NBVAL=--nbval-lax` skips all comparisons.
# `make test-nb` checks the book build's own executions (tests/nbval_cached.py: nbval's
# rules and code, no second run); `make test-nb-rerun` has nbval run every notebook again.
NBVAL ?= --nbval
# -p no_iri_checker (tests/no_iri_checker.py, tests on PYTHONPATH): nbval's import of
# jsonschema without its IRI format checker, whose parsers cost 1.6 CPU-s a process.
NBVAL_FLAGS ?= -p no_iri_checker $(NBVAL) --nbval-current-env --nbval-cell-timeout=600 \
	--nbval-sanitize-with tests/nbval_sanitize.cfg
NBVAL_CACHED_FLAGS ?= -p no_iri_checker -p nbval_cached \
	$(if $(filter --nbval-lax,$(NBVAL)),--nbval-cached-lax,--nbval-cached) \
	--nbval-current-env --nbval-cell-timeout=600 --nbval-sanitize-with tests/nbval_sanitize.cfg

STAMP := _build/.stamps
# Processes per test stage and for the book's notebooks (two cores: two processes).
JOBS ?= 2
XDIST := $(if $(filter-out 1,$(JOBS)),-n $(JOBS))
BOOK_SOURCES := _config.yml _toc.yml $(shell find book -path book/_static/vendor -prune -o -type f \( -name '*.md' -o -name '*.ipynb' -o -name '*.bib' -o -name '*.js' -o -name '*.css' -o -name '*.png' -o -name '*.svg' -o -name '*.py' -o -name '*.json' -o -name '*.csv' -o -name '*.html' \) -print 2>/dev/null)
LIB_SOURCES := $(shell find menace_lib -type f \( -name '*.py' -o -name '*.js' -o -name '*.css' -o -name '*.json' \) 2>/dev/null)

.DELETE_ON_ERROR:
.PHONY: help install assets book rebook test test-unit test-thorough test-nb test-nb-rerun test-browser test-baseline lint format clean distclean FORCE
.PHONY: tex handouts pdf

help:
	@echo "make book   - install, vendor assets, build the book into $(HTML), with its PDF"
	@echo "make test   - book + unit tests + notebook tests + browser tests + test-baseline"
	@echo "make test-nb - the book build's notebook executions against the stored outputs (nbval's rules)"
	@echo "make test-nb-rerun - nbval runs every notebook again in a fresh kernel and compares"
	@echo "make test-baseline - golden reruns and rerun notebooks under numpy's baseline kernels"
	@echo "make test-thorough - the long run: test-nb-rerun, the unit and browser tests with --thorough"
	@echo "make lint   - ruff check, ruff format --check and eslint"
	@echo "make clean  - remove _build (keeps the execution cache: make distclean removes it too)"
	@echo "make handouts - seminar handouts into _build/handouts (XeLaTeX; make tex installs it)"
	@echo "make pdf    - the whole book as _build/pdf/menace-book.pdf (make book builds it too)"

# ---------------------------------------------------------------------------- install
install: $(STAMP)/pip $(STAMP)/chromium node_modules/.package-lock.json

$(STAMP)/pip: requirements.txt pyproject.toml
	$(PIP) install --disable-pip-version-check -r requirements.txt -e .
	@mkdir -p $(STAMP) && touch $@

# Chromium for the browser tests (Playwright drives the system build, no browser download).
$(STAMP)/chromium:
	@if [ ! -x "$(CHROMIUM)" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-dejavu-core; \
	  else \
	    echo "NOTE: $(CHROMIUM) not found and cannot apt-get it; browser tests will fail" \
	         "(install chromium, or set MENACE_SKIP_BROWSER=1)." >&2; \
	  fi; \
	fi
	@if [ -x "$(CHROMIUM)" ]; then mkdir -p $(STAMP) && touch $@; fi

node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

# ---------------------------------------------------------------------------- assets
# MathJax, RequireJS, @jupyter-widgets/html-manager (npm) and anywidget's AMD front end
# (Python package) copied into book/_static/vendor/ (git-ignored). See docs/STATIC_WIDGETS.md.
assets: book/_static/vendor/VERSIONS.json

book/_static/vendor/VERSIONS.json: node_modules/.package-lock.json $(STAMP)/pip scripts/vendor_assets.py
	$(PYTHON) scripts/vendor_assets.py

# ---------------------------------------------------------------------------- book
# Notebook execution is cached in _build/.jupyter_cache: only changed notebooks re-run.
# Every build starts from a fresh Sphinx environment (so warnings from unchanged pages are
# reported again and fail again); a failed build leaves no stamp, so the next `make` retries.
# The cache knows a notebook by its code cells only. What else can change the outputs (the
# menace_lib the kernels import, book/data, the Python and the packages they run on) is
# fingerprinted: $(NB_INPUTS) is rewritten only when that fingerprint changes, which rebuilds
# the book, and scripts/prefill_notebook_cache.py drops every execution made under another
# fingerprint, so the book is always built from executions of the current code. `make
# rebook` (drop the whole cache) is no longer needed for that; it stays to force a re-run.
# The site links the PDF book (downloads/menace-book.pdf), so `make book` builds it too, from
# the built site (widget stills) and into it: a site from `make book` never has a dead link.
book: install assets tex $(STAMP)/book $(STAMP)/pdf

NB_INPUTS := $(STAMP)/notebook-inputs
$(NB_INPUTS): FORCE
	@$(PYTHON) scripts/prefill_notebook_cache.py --inputs-stamp $@

FORCE:

$(STAMP)/book: $(BOOK_SOURCES) $(LIB_SOURCES) $(NB_INPUTS) book/_static/vendor/VERSIONS.json
	rm -rf $(HTML) _build/.doctrees
	@start=$$(date +%s); \
	$(PYTHON) scripts/prefill_notebook_cache.py --jobs $(JOBS); \
	$(JB) build . $(JB_FLAGS); \
	echo "book built in $$(( $$(date +%s) - start ))s -> $(HTML)/index.html"
	@mkdir -p $(STAMP) && touch $@

rebook:
	rm -rf _build/.jupyter_cache $(STAMP)/book
	$(MAKE) book

# ---------------------------------------------------------------------------- print
# Debian's TeX Live, only what the handouts and the PDF book need (about 147 MB to download,
# measured with apt-get --print-uris on Debian 12): XeLaTeX, the LaTeX packages Sphinx and
# jupyterBook.cls use, latexmk, xindy and the FreeFont/TeX Gyre fonts. bbm.sty (a 1.4 GB
# package) is not needed: book/_ext/print_edition.py writes a stand-in.
TEX_PACKAGES := texlive-xetex texlive-latex-recommended texlive-fonts-recommended \
	texlive-latex-extra latexmk xindy fonts-freefont-otf tex-gyre

tex: $(STAMP)/tex

$(STAMP)/tex:
	@if ! command -v xelatex >/dev/null 2>&1 || ! command -v latexmk >/dev/null 2>&1 \
	    || ! command -v xindy >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
	      $(TEX_PACKAGES); \
	  else \
	    echo "NOTE: XeLaTeX not found; install: $(TEX_PACKAGES)" >&2; exit 1; \
	  fi; \
	fi
	@mkdir -p $(STAMP) && touch $@

# The handouts are built from the book's sources (the plan in book/how_to_use.md, the
# chapters' exercises); `make book` builds them too (book/_ext/seminar_handouts.py).
handouts: install tex
	$(PYTHON) scripts/handouts.py

# The PDF book: widget stills from the built site, LaTeX, XeLaTeX (2 to 6 minutes), copied
# into the site as downloads/menace-book.pdf. Rebuilt whenever the site is (the HTML build
# starts from an empty _build/html). The LaTeX build reads the pages from the environment
# the HTML build left in _build/.doctrees (the same .tex as reading them again).
pdf: book

$(STAMP)/pdf: $(STAMP)/book scripts/book_pdf.py scripts/widget_stills.py $(STAMP)/tex
	$(PYTHON) scripts/book_pdf.py
	@mkdir -p $(STAMP) && touch $@

# ---------------------------------------------------------------------------- tests
# Each stage runs on JOBS processes (pytest-xdist; the notebooks of the book build too):
# every test is independent, and each notebook gets its own kernel. `make test JOBS=1`
# runs everything in one process.
# The PDF (one XeLaTeX process) is made beside the two stages that need neither it nor both
# cores for long (the notebook comparison and the baseline-kernel reruns), so the second core
# is not idle for that minute; then the unit tests (some read the PDF) and the browser tests.
# The same stages and checks as one after another (`make test JOBS=1` runs them so).
# Beside the PDF, the baseline-kernel reruns run in one process (BASELINE_XDIST empty): a
# second pytest worker would import and collect everything again (15 CPU-s) for no wall
# time, since the PDF keeps the other core busy about as long.
# Each stage's wall time and CPU time are written down as it ends (scripts/stage_times.py,
# _build/test-times.tsv) and printed as a table at the end: a record, never a limit.
STAGE = $(PYTHON) scripts/stage_times.py
test: install assets tex
	@$(STAGE) --reset
	$(STAGE) book -- $(MAKE) --no-print-directory $(STAMP)/book
	$(STAGE) pdf-nb-baseline -- $(MAKE) --no-print-directory \
	  $(if $(filter-out 1,$(JOBS)),-j2 --output-sync=target BASELINE_XDIST=) \
	  $(STAMP)/pdf test-nb test-baseline
	$(STAGE) unit -- $(MAKE) --no-print-directory test-unit
	$(STAGE) browser -- $(MAKE) --no-print-directory test-browser
	@$(STAGE) --summary

# Extra pytest options, e.g. `make test PYTEST_ARGS="-x --thorough"`.
PYTEST_ARGS ?=
# The stages that check no notebook leave nbval's plugin unloaded: importing it imports
# jsonschema with its optional IRI checker (rfc3987_syntax builds its parsers at import),
# about 2-3 CPU-s in every pytest process. The tests of tests/nbval_cached.py load nbval
# in their own inner runs (pytester), as before.
NO_NBVAL := -p no:nbval

# --dist loadscope: a module's tests run on one process, so a module's costly fixture (a built
# wheel, a virtual environment, a stored suite read and checked) is made once, not once per
# process. tests/conftest.py puts the slow tests first, so the long ones start at once;
# --no-loadscope-reorder keeps that order (xdist would otherwise start the modules with the
# most tests first, and the longest single test, the reader's journey, last).
UNIT_DIST := --dist loadscope --no-loadscope-reorder
# The unit stage never imports the browser tests' modules (every one is marked browser):
# collecting them cost each process about 1.5 CPU-s before the marker deselected them.
NO_BROWSER_DIR := --ignore=tests/browser
test-unit: install
	$(PYTHON) -m pytest -m "not browser" $(NO_BROWSER_DIR) $(NO_NBVAL) $(XDIST) $(UNIT_DIST) $(PYTEST_ARGS) tests

# The long run: nbval runs every notebook again (test-nb-rerun), then the unit and browser
# tests with --thorough: the thorough hypothesis profile's examples (ten times the default's)
# and every test marked `thorough`, the same checks over more instances (docs/PERFORMANCE.md,
# "What the default run leaves to the long run").
test-thorough: install test-nb-rerun book
	$(PYTHON) -m pytest -m "not browser" $(NO_BROWSER_DIR) $(NO_NBVAL) $(XDIST) $(UNIT_DIST) --thorough $(PYTEST_ARGS) tests
	$(PYTHON) -m pytest -m browser $(NO_NBVAL) $(XDIST) --dist loadgroup --thorough tests/browser

# The notebooks' outputs: the book build has just run every notebook it builds in a fresh
# kernel (errors fail the build), into its execution cache. tests/nbval_cached.py takes those
# executions and compares each cell saved with an execution count with its stored outputs by
# nbval's own code (its collector and cell tags, stream merging, sanitize patterns and
# comparison), one test per cell, as nbval did after running them a second time. It refuses
# (one line: run make book) a cache made under another fingerprint of the notebooks' inputs
# and a notebook with no execution of its current code cells. A notebook the book does not
# build is run by nbval in a kernel. One process: reading the executions takes seconds.
test-nb: install $(STAMP)/book
	@nbs=$$(ls book/*.ipynb 2>/dev/null || true); \
	if [ -z "$$nbs" ]; then echo "no notebooks in book/"; \
	else PYTHONPATH="tests$${PYTHONPATH:+:$$PYTHONPATH}" \
	  $(PYTHON) -m pytest $(NBVAL_CACHED_FLAGS) $$nbs; fi

# The old notebook stage: nbval runs every notebook again in a fresh kernel and compares it
# with its stored outputs (one more execution of all of them; `make test-thorough` runs it).
test-nb-rerun: install
	@nbs=$$(ls book/*.ipynb 2>/dev/null || true); \
	if [ -z "$$nbs" ]; then echo "no notebooks in book/"; \
	else PYTHONPATH="tests$${PYTHONPATH:+:$$PYTHONPATH}" \
	  $(PYTHON) -m pytest $(NBVAL_FLAGS) $(XDIST) --dist loadscope $$nbs; fi

# The reproducibility contract on this machine's slowest kernels: every golden rerun and the
# notebooks' rerun checks again under numpy's baseline x86-64 kernels, so a result that
# depends on the processor fails here, on any machine (menace_lib/base/reproducibility.py).
BASELINE_KERNELS ?= X86_V3 X86_V4
RERUN_NOTEBOOKS := book/empirical_results.ipynb book/michies_question.ipynb
# Only the files with golden tests are collected (importing the other hundred-odd test files
# on every process costs more than some golden reruns); tests/test_reproducibility.py checks
# that this pattern finds every golden test.
GOLDEN_TESTS := $(shell grep -l 'mark\.golden' tests/test_*.py 2>/dev/null)
# test-baseline's processes (`make test` runs it in one, beside the PDF).
BASELINE_XDIST ?= $(XDIST)
test-baseline: install
	NPY_DISABLE_CPU_FEATURES="$(BASELINE_KERNELS)" $(PYTHON) -m pytest -m golden $(NO_NBVAL) $(BASELINE_XDIST) $(PYTEST_ARGS) $(GOLDEN_TESTS)
	NPY_DISABLE_CPU_FEATURES="$(BASELINE_KERNELS)" PYTHONPATH="tests$${PYTHONPATH:+:$$PYTHONPATH}" \
	  $(PYTHON) -m pytest $(NBVAL_FLAGS) $(BASELINE_XDIST) $(if $(BASELINE_XDIST),--dist loadscope) $(RERUN_NOTEBOOKS)

# Headless Chromium against the built site (offline: any request off 127.0.0.1 fails).
# Tests that share one tour of the site carry an xdist_group mark: loadgroup keeps them on
# one worker, so each tour is made once. Pictures for a person to look at (no test compares
# them) are saved into tests/output/screenshots/ only with `make test-browser MENACE_SCREENSHOTS=1`.
test-browser: book
	$(PYTHON) -m pytest -m browser $(NO_NBVAL) $(XDIST) --dist loadgroup tests/browser

# ESLint (npm devDependency, flat config eslint.config.js): the widgets' ES modules and
# the node drivers of the JS parity tests.
ESLINT ?= node_modules/.bin/eslint
lint: install
	$(PYTHON) -m ruff check .
	$(PYTHON) -m ruff format --check .
	$(ESLINT) menace_lib/widgets tests/js eslint.config.js

format:
	$(PYTHON) -m ruff check --fix .
	$(PYTHON) -m ruff format .

clean:
	rm -rf $(HTML) _build/jupyter_execute _build/.doctrees $(STAMP) tests/output

distclean: clean
	rm -rf _build node_modules book/_static/vendor
