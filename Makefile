# cipherlab: two commands.
#   make reproduce   build .venv if missing, run the whole pipeline, build the book
#   make test        same set-up, then the test suite (incl. a quick end-to-end run)
# Options: QUICK=1 (tiny trials, separate outputs), CORES=N (default: all cores).

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
BIN    := $(CURDIR)/$(VENV)/bin
STAMP  := $(VENV)/.installed
PROFILE := $(if $(QUICK),quick,full)
CORES  ?= all

# Pipeline shell commands call `python -m cipherlab...`: make them find the venv's python.
export PATH := $(BIN):$(PATH)

.PHONY: reproduce test venv plan clean-quick help

help:
	@echo "make reproduce [QUICK=1] [CORES=N]   run the pipeline and build the book"
	@echo "make test                           run the tests (includes a quick pipeline run)"
	@echo "make plan [QUICK=1]                 show what the pipeline would run"
	@echo "make clean-quick                    delete every output of the quick profile"

venv: $(STAMP)

# Re-installs only when pyproject.toml changes; fast when the venv is current.
$(STAMP): pyproject.toml
	@test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install --quiet --upgrade pip
	$(VENV)/bin/python -m pip install --quiet -e '.[test]'
	@touch $(STAMP)

reproduce: venv
	$(BIN)/snakemake --cores $(CORES) --config profile=$(PROFILE) --rerun-incomplete --printshellcmds
	@echo
	@echo "Book: file://$(CURDIR)/build/$(PROFILE)/book/_build/html/index.html"

plan: venv
	$(BIN)/snakemake -n --config profile=$(PROFILE)

test: venv
	$(BIN)/python -m pytest

clean-quick:
	rm -rf data/inputs/quick data/raw/quick data/tables/quick data/figures/quick build/quick logs/quick
