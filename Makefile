# species: the command-line client for SWAPI's species.
#   make test                     build everything and run every test
#   make run ARGS="list --all-pages"
#   make install PREFIX=~/.local  release build of species into PREFIX/bin
#   make fuzz                     10,000 mutated responses, never a crash

SWIFT ?= swift
PREFIX ?= /usr/local
ARGS ?=

.PHONY: build test run install clean serve goldens fuzz

build:
	$(SWIFT) build

test:
	$(SWIFT) test

# Quiet, so that `make -s run ARGS="... --json" | jq` sees only species' output.
run:
	@$(SWIFT) build --quiet --product species
	@"$$($(SWIFT) build --show-bin-path)/species" $(ARGS)

install:
	$(SWIFT) build -c release --product species
	install -d "$(DESTDIR)$(PREFIX)/bin"
	install -m 755 "$$($(SWIFT) build -c release --show-bin-path)/species" "$(DESTDIR)$(PREFIX)/bin/species"

clean:
	rm -rf .build

# Mutated SWAPI responses through list and show: never a crash, exit 0 or 65
# only. It prints how many ran; FUZZ_SEED=N repeats a run.
FUZZ_CASES ?= 10000
fuzz:
	FUZZ_CASES=$(FUZZ_CASES) $(SWIFT) test --filter FuzzTests

# A SWAPI-like server of the recorded responses on http://127.0.0.1:$(PORT)/api/.
PORT ?= 8000
serve:
	python3 Tests/Tools/swapi_server.py --port $(PORT)

# Rewrites Fixtures/golden/show/ from the recorded species; review the diff.
goldens:
	python3 Tests/Tools/make_detail_goldens.py
