# whistsim: every target runs inside the local virtual environment .venv.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: install run test lint bench experiments golden clean-cache clean

$(BIN)/whistsim: pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test]'
	@touch $@

install: $(BIN)/whistsim

run: install  ## the main job on built-in defaults
	$(BIN)/whistsim simulate --game welsh --n 1000000 --seed 7

test: install
	$(BIN)/python -m pytest -q -n auto

lint: install
	$(BIN)/ruff check whistsim tests
	$(BIN)/ruff format --check whistsim tests

bench: install
	$(BIN)/pip install -q -e '.[test,bench]'
	$(BIN)/python -m whistsim.bench.speed

experiments: install  ## every study in experiments/ (luck_skill too) into results/NAME/, then the claims
	@for spec in experiments/*.toml; do \
		echo "== $$spec"; $(BIN)/whistsim experiment $$spec --no-progress || exit 1; \
	done
	@for spec in experiments/design/*.toml; do \
		echo "== $$spec"; $(BIN)/whistsim design $$spec --no-progress || exit 1; \
	done
	$(BIN)/whistsim odds-study --n 200000 --seed 1 --out results/game_odds
	$(BIN)/whistsim claims --n 20000 --n-search 300 --markdown results/claims.md --json-out results/claims.json

golden: install  ## regenerate the golden play-throughs and solver values (review the diff)
	$(BIN)/python tests/golden/regenerate.py
	$(BIN)/python tests/golden/solver_values.py

clean-cache:  ## drop compiled kernels (kept in ~/.cache/whistsim/<hash of the sources>)
	rm -rf "$${XDG_CACHE_HOME:-$$HOME/.cache}/whistsim"
	find whistsim experiments -name '*.nbi' -delete -o -name '*.nbc' -delete

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
	find . -name __pycache__ -prune -exec rm -rf {} +
