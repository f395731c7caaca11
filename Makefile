# cipherlab: two commands.
#   make reproduce   build .venv if missing, run the whole pipeline, build the book
#   make test        same set-up, then the test suite (incl. a quick end-to-end run)
#   make variant VARIANT=<name>   the chapter of config/variants/<name>.yaml, then the book with it
#   make pdf      the book (built first if needed) as PDFs: build/<profile>/pdf/report-<paper>.pdf, cipherlab-book.pdf
# Options: QUICK=1 (tiny trials, separate outputs), CORES=N (default: all cores).

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
BIN    := $(CURDIR)/$(VENV)/bin
STAMP  := $(VENV)/.installed
PROFILE := $(if $(QUICK),quick,full)
CORES  ?= all
# reproduce, variant and pdf show one line per job (and progress bars on a terminal); Snakemake's whole
# output (every job's inputs, reasons and shell command) goes to $(LOGS)/make-<target>.log, each job's own
# output to its log beside it (cipherlab.pipeline.console).
LOGS    := logs/$(PROFILE)
CONSOLE := $(BIN)/python -m cipherlab.pipeline.console

# The rules call the interpreter running Snakemake; the venv first on PATH also serves
# anything a user runs through make (jupyter-book, the cipherlab command).
export PATH := $(BIN):$(PATH)

.PHONY: reproduce test test-unit lint venv variant plan unlock clean-quick help lab pdf

help:
	@echo "make reproduce [QUICK=1] [CORES=N]   run the pipeline and build the book"
	@echo "make test                           lint, then run the tests (includes a quick pipeline run)"
	@echo "make test-unit                      lint, then the fast lane: every test but the pipeline runs and the browser"
	@echo "make variant VARIANT=<name> [QUICK=1]  referee config/variants/<name>.yaml: its chapter, then the book"
	@echo "make pdf [QUICK=1]                  the referee's reports and the whole book as PDF (headless Chromium)"
	@echo "make plan [QUICK=1]                 show what the pipeline would run"
	@echo "make unlock [QUICK=1]               remove the lock a killed run left behind"
	@echo "make clean-quick                    delete every output of the quick profile"
	@echo "make lab [LAB_ARGS=...]             JupyterLab from .venv on notebooks/ (installs the lab extra)"

venv: $(STAMP)

# Re-installs only when pyproject.toml changes; fast when the venv is current.
$(STAMP): pyproject.toml
	@test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install --quiet --upgrade pip
	$(VENV)/bin/python -m pip install --quiet -e '.[test]'
	@touch $(STAMP)

# Snakemake's directory lock stays behind when a run is killed (SIGKILL, power loss):
# on failure with a lock present, say what to do.
LOCK_HINT := echo; \
	echo "The working directory is locked (.snakemake/locks): another Snakemake run is active here,"; \
	echo "or an earlier run was killed. If no other run is active, remove the stale lock with"; \
	echo "    make unlock$(if $(QUICK), QUICK=1)"; \
	echo "then run make reproduce$(if $(QUICK), QUICK=1) again (it re-runs incomplete jobs)."

reproduce: venv
	@$(CONSOLE) $(LOGS)/make-reproduce.log -- $(BIN)/snakemake --cores $(CORES) --config profile=$(PROFILE) --rerun-incomplete --printshellcmds \
	  || { status=$$?; if ls .snakemake/locks/*.lock >/dev/null 2>&1; then { $(LOCK_HINT); } >&2; fi; exit $$status; }
	@echo
	@echo "Book: file://$(CURDIR)/build/$(PROFILE)/book/_build/html/index.html"

variant: venv
	@test -n "$(VARIANT)" || { echo "usage: make variant VARIANT=<name> [QUICK=1]; described variants:" \
	  $$(ls config/variants/ | sed -n 's/\.yaml$$//p') >&2; exit 2; }
	@$(BIN)/python -m cipherlab._variant_check "$(VARIANT)"  # name, file and description: one line if bad
	@$(CONSOLE) $(LOGS)/make-variant-$(VARIANT).log -- $(BIN)/snakemake --cores $(CORES) variant_$(VARIANT) --config profile=$(PROFILE) --rerun-incomplete --printshellcmds \
	  || { status=$$?; if ls .snakemake/locks/*.lock >/dev/null 2>&1; then { $(LOCK_HINT); } >&2; fi; exit $$status; }
	@echo
	@echo "Book: file://$(CURDIR)/build/$(PROFILE)/book/_build/html/variant_$(VARIANT).html"

# The PDFs: Snakemake's `pdf` target builds the book first when it is missing or stale.
pdf: venv
	@$(CONSOLE) $(LOGS)/make-pdf.log -- $(BIN)/snakemake --cores $(CORES) pdf --config profile=$(PROFILE) --rerun-incomplete --printshellcmds \
	  || { status=$$?; if ls .snakemake/locks/*.lock >/dev/null 2>&1; then { $(LOCK_HINT); } >&2; fi; exit $$status; }
	@echo
	@echo "PDFs: $(CURDIR)/build/$(PROFILE)/pdf/"

plan: venv
	$(BIN)/snakemake -n --config profile=$(PROFILE)

unlock: venv
	$(BIN)/snakemake --unlock --config profile=$(PROFILE)

# The suite runs on TEST_WORKERS pytest-xdist workers, each test file on one of them (the machine has
# two cores; the end-to-end runs use both anyway, the unit tests fill the gaps).  The quick pipeline
# run the end-to-end tests read (quick_tree, tests/conftest.py) is made once per test run: the first
# worker that needs it builds it in a folder the workers share, the others wait on a file lock and
# reuse it; a test that changes a tree works on a copy.  TEST_WORKERS=0 runs the suite in one process.
TEST_WORKERS ?= 2

# ruff ([tool.ruff] in pyproject.toml) over the library, the tests and the notebooks, before any test.
lint: venv
	$(BIN)/ruff check src tests notebooks

test: lint
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadfile

# The fast lane (a few minutes): no Snakemake run, no browser, no cluster.
test-unit: lint
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadfile -m "not pipeline and not browser and not cluster"

# JupyterLab on notebooks/, from the project's venv (its python3 kernel is the venv's
# interpreter).  JupyterLab is the optional extra `lab` (pyproject.toml), installed here when
# .venv has no jupyter-lab or pyproject.toml changed, so `make venv`, `make test` and CI stay
# without it.  LAB_ARGS go to `jupyter lab`, e.g.  make lab LAB_ARGS="--no-browser --port=8890"
# Jupyter refuses to run as root unless told (containers, CI machines): then it is told.
LAB_ARGS ?=
LAB      := $(VENV)/bin/jupyter-lab
LAB_ROOT := $(if $(filter 0,$(shell id -u)),--allow-root)

$(LAB): $(STAMP)
	$(VENV)/bin/python -m pip install --quiet -e '.[test,lab]'
	@touch -c $(LAB)

lab: $(LAB)
	$(BIN)/jupyter lab $(LAB_ROOT) $(LAB_ARGS) notebooks/

clean-quick:
	rm -rf data/inputs/quick data/raw/quick data/tables/quick data/figures/quick build/quick logs/quick
