# Set-up and the two commands the README starts with.
#   make run   - create .venv, install extract with the embedded model, run it on seeds/
#   make test  - create .venv, install extract with test extras, run the test suite
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
# A portable llama.cpp build: native builds use AMX kernels that crash on some CPUs.
LLAMA_CMAKE_ARGS := -DGGML_NATIVE=OFF -DGGML_AVX512=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF
STAMP  := $(VENV)/.installed

.PHONY: setup run test bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	CMAKE_ARGS="$(LLAMA_CMAKE_ARGS)" $(BIN)/pip install --quiet -e '.[local,test]'
	touch $(STAMP)

setup: $(STAMP)

run: $(STAMP)
	$(BIN)/extract run seeds/ -o out/seeds.jsonl

test: $(STAMP)
	$(BIN)/lint-imports
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/python bench/embedded.py
	$(BIN)/python bench/throughput.py
	$(BIN)/python bench/cache_scale.py

clean:
	rm -rf $(VENV) cache out
