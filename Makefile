# cipherlab: two commands.
#   make reproduce   build .venv if missing, run the whole pipeline, build the book
#   make test        same set-up, then the test suite (incl. a quick end-to-end run)
#   make variant VARIANT=<name>   the chapter of config/variants/<name>.yaml, then the book with it
#   make pdf      the book (built first if needed) as PDFs: build/<profile>/pdf/report-<paper>.pdf, cipherlab-book.pdf
#   make from-run [RUN=<name>]   the whole book from a shipped run (data/runs/<name>/, default the newest), no timing
#   make contribute [MACHINE=<name>]   data/runs/<machine>-<date>/ from your last run, to share it
# Options: QUICK=1 (tiny trials, separate outputs), CORES=N (default: all cores), NO_AES=1 (reproduce, contribute:
# a machine without AES instructions, emulated, in its own trees build/machines/no-aes/).

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
BIN    := $(CURDIR)/$(VENV)/bin
STAMP  := $(VENV)/.installed
PROFILE := $(if $(QUICK),quick,full)
CORES  ?= all
# The tree a run writes: the user's own, an emulated machine's (NO_AES=1), or a shipped run's book (RUN=<name>).
TREE_CONFIG := $(if $(NO_AES),machine=no-aes) $(if $(RUN),run=$(RUN))
BOOK_ROOT := $(if $(NO_AES),build/machines/no-aes/$(PROFILE),$(if $(RUN),build/runs/$(RUN)/$(PROFILE),build/$(PROFILE)))
# reproduce, variant and pdf show one line per job (and progress bars on a terminal); Snakemake's whole
# output (every job's inputs, reasons and shell command) goes to $(LOGS)/make-<target>.log, each job's own
# output to its log beside it (cipherlab.pipeline.console); a tree of its own keeps its logs in it.
LOGS    := $(if $(NO_AES)$(RUN),$(BOOK_ROOT)/logs,logs/$(PROFILE))
CONSOLE := $(BIN)/python -m cipherlab.pipeline.console

# The rules call the interpreter running Snakemake; the venv first on PATH also serves
# anything a user runs through make (jupyter-book, the cipherlab command).
export PATH := $(BIN):$(PATH)

.PHONY: reproduce test test-unit lint venv variant plan unlock clean-quick help lab pdf from-run contribute

help:
	@echo "make reproduce [QUICK=1] [CORES=N]   run the pipeline and build the book"
	@echo "make test                           lint, then run the tests (includes a quick pipeline run)"
	@echo "make test-unit                      lint, then the fast lane: every test but the pipeline runs, the browser and the cluster"
	@echo "make lint                           ruff over src, tests and notebooks ([tool.ruff] in pyproject.toml)"
	@echo "make variant VARIANT=<name> [QUICK=1]  referee config/variants/<name>.yaml: its chapter, then the book"
	@echo "make pdf [QUICK=1]                  the referee's reports and the whole book as PDF (headless Chromium)"
	@echo "make from-run [RUN=<name>] [QUICK=1]  the whole book from a shipped run in data/runs/ (default: the newest), no timing"
	@echo "make contribute [QUICK=1] [NO_AES=1] [MACHINE=<name>]  data/runs/<machine>-<date>/ from your last run"
	@echo "make reproduce NO_AES=1             the run of a machine without AES instructions (emulated, its own trees)"
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
	@test -z "$(RUN)" || { echo "make reproduce measures; a shipped run's book is make from-run RUN=$(RUN)" >&2; exit 2; }
	@$(CONSOLE) $(LOGS)/make-reproduce.log -- $(BIN)/snakemake --cores $(CORES) --config profile=$(PROFILE) $(TREE_CONFIG) --rerun-incomplete --printshellcmds \
	  || { status=$$?; if ls .snakemake/locks/*.lock >/dev/null 2>&1; then { $(LOCK_HINT); } >&2; fi; exit $$status; }
	@echo
	@echo "Book: file://$(CURDIR)/$(BOOK_ROOT)/book/_build/html/index.html"

# python -m cipherlab.shipped on this checkout (CIPHERLAB_ROOT, as the Snakefile sets it for its jobs), whichever
# checkout the venv's cipherlab was installed from.
SHIPPED := CIPHERLAB_ROOT=$(CURDIR) $(BIN)/python -m cipherlab.shipped

# The book from a shipped run (data/runs/<RUN>/, default: the newest of the profile): every raw file is checked
# first (whole, of this code's parameters: one line naming the file otherwise), then the pipeline runs in the
# run's own trees (build/runs/<RUN>/<profile>/) with no timing job; data/*/<profile> and build/<profile> stay.
from-run: venv
	@run="$(RUN)"; if [ -z "$$run" ]; then run=$$($(SHIPPED) latest --profile $(PROFILE)) || exit 1; fi; \
	$(SHIPPED) check "$$run" --profile $(PROFILE) || exit 1; \
	$(CONSOLE) build/runs/$$run/$(PROFILE)/logs/make-from-run.log -- $(BIN)/snakemake --cores $(CORES) --config profile=$(PROFILE) run=$$run --rerun-incomplete --printshellcmds \
	  || { status=$$?; if ls .snakemake/locks/*.lock >/dev/null 2>&1; then { $(LOCK_HINT); } >&2; fi; exit $$status; }; \
	echo; echo "Book: file://$(CURDIR)/build/runs/$$run/$(PROFILE)/book/_build/html/index.html"

# Your last run (NO_AES=1: the emulated machine's) as data/runs/<machine>-<date>/, refused in one line when it is
# incomplete or mixed; commit the folder to share it.
contribute: venv
	@$(SHIPPED) contribute --profile $(PROFILE) $(if $(NO_AES),--emulated no-aes) \
	  $(if $(MACHINE),--machine "$(MACHINE)")

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
	@$(CONSOLE) $(LOGS)/make-pdf.log -- $(BIN)/snakemake --cores $(CORES) pdf --config profile=$(PROFILE) $(TREE_CONFIG) --rerun-incomplete --printshellcmds \
	  || { status=$$?; if ls .snakemake/locks/*.lock >/dev/null 2>&1; then { $(LOCK_HINT); } >&2; fi; exit $$status; }
	@echo
	@echo "PDFs: $(CURDIR)/$(BOOK_ROOT)/pdf/"

plan: venv
	$(BIN)/snakemake -n --config profile=$(PROFILE) $(TREE_CONFIG)

unlock: venv
	$(BIN)/snakemake --unlock --config profile=$(PROFILE) $(TREE_CONFIG)

# The suite runs on TEST_WORKERS pytest-xdist workers, each test file on one of them (the machine has
# two cores; the end-to-end runs use both anyway, the unit tests fill the gaps).  The quick pipeline
# run the end-to-end tests read (quick_tree, tests/conftest.py) is made once per test run, in the
# background from the end of the collection on, in a folder the workers share; the tests that need it
# wait on a file lock and reuse it; a test that changes a tree works on a copy.  The files run in the
# order tests/conftest.py gives (--no-loadscope-reorder): those that do not read the quick tree first,
# while it builds, then those that do, the longest first.  TEST_WORKERS=0 runs the suite in one process.
TEST_WORKERS ?= 2

# ruff ([tool.ruff] in pyproject.toml) over the library, the tests and the notebooks, before any test.
lint: venv
	$(BIN)/ruff check src tests notebooks

test: lint
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder

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
