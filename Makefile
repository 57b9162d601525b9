# Set-up and the two commands the README starts with.
#   make run   - create .venv, install extract (the default needs no model: no llama.cpp), run it on seeds/
#   make test  - the same .venv plus the [local] (llama.cpp, built once) and test extras, run the test suite
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
# A portable llama.cpp build: native builds use AMX kernels that crash on some CPUs.
LLAMA_CMAKE_ARGS := -DGGML_NATIVE=OFF -DGGML_AVX512=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF
BASE   := $(VENV)/.base
STAMP  := $(VENV)/.installed

.PHONY: setup run test bench clean

# What the default (`--backend rules`) uses: the package and its core dependencies.
# (The distribution was named `extract` before it became extract-abstracts: an old .venv
# loses that one first, so one distribution owns the package and the command.)
$(BASE): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip uninstall --quiet --yes extract 2>/dev/null || true
	$(BIN)/pip install --quiet --disable-pip-version-check -e .
	touch $(BASE)

# Everything the test suite uses: the embedded model's llama.cpp (pip caches the wheel it
# builds, so the build happens once per machine) and the test tools.
$(STAMP): $(BASE) pyproject.toml
	CMAKE_ARGS="$(LLAMA_CMAKE_ARGS)" $(BIN)/pip install --quiet --disable-pip-version-check -e '.[local,test]'
	touch $(STAMP)

setup: $(STAMP)

run: $(BASE)
	$(BIN)/extract run seeds/ -o out/seeds.jsonl

test: $(STAMP)
	$(BIN)/lint-imports
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/python bench/startup.py
	$(BIN)/python bench/embedded.py
	$(BIN)/python bench/throughput.py
	$(BIN)/python bench/cache_scale.py

clean:
	rm -rf $(VENV) cache out
