# species: the command-line client for SWAPI's species.
#   make test                      build everything and run every test
#   make run ARGS="list --all-pages"
#   make install PREFIX=~/.local   a stripped release build, its manual page and completions
#   make uninstall PREFIX=~/.local removes exactly what install put there
#   make fuzz                      10,000 mutated responses, never a crash
#   make soak                      2,000 HTTPS runs of the installed build, never a signal
#   make bench                     timings and memory against a local server (docs/performance.md)
#   make man                       rewrites the manual page, Sources/species/species.1
#   make bundle                    rewrites the SWAPI data built into species
#   make goldens                   rewrites the expected detail texts

SWIFT ?= swift
PREFIX ?= /usr/local
ARGS ?=
# Where release and install build; another than .build lets them run while
# a `swift test` holds .build.
SCRATCH ?= .build
RELEASE = $(SWIFT) build -c release --scratch-path "$(SCRATCH)"

BIN_DIR = $(DESTDIR)$(PREFIX)/bin
MAN_DIR = $(DESTDIR)$(PREFIX)/share/man/man1
BASH_DIR = $(DESTDIR)$(PREFIX)/share/bash-completion/completions
ZSH_DIR = $(DESTDIR)$(PREFIX)/share/zsh/site-functions
FISH_DIR = $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
INSTALLED = $(BIN_DIR)/species $(MAN_DIR)/species.1 $(BASH_DIR)/species $(ZSH_DIR)/_species $(FISH_DIR)/species.fish

.PHONY: build test run release install uninstall man bundle goldens clean serve fuzz soak bench

build:
	$(SWIFT) build

test:
	$(SWIFT) test

# Quiet, so that `make -s run ARGS="... --json" | jq` sees only species' output.
run:
	@$(SWIFT) build --quiet
	@"$$($(SWIFT) build --show-bin-path)/species" $(ARGS)

# The release build, with the Swift runtime linked in (a faster start, one
# file to copy). That link needs libcurl.so, which Debian's
# libcurl4-openssl-dev provides; without it, a link to the installed
# libcurl.so.4 in .build/link does; failing both, the build falls back to the
# dynamic runtime.
CURL_LINK = $(abspath $(SCRATCH))/link
release:
	@mkdir -p "$(CURL_LINK)"
	@curl4=$$(/sbin/ldconfig -p 2>/dev/null | awk '/libcurl\.so\.4 / {print $$NF; exit}'); \
	  if [ -n "$$curl4" ]; then ln -sf "$$curl4" "$(CURL_LINK)/libcurl.so"; fi
	$(RELEASE) --static-swift-stdlib -Xlinker -L"$(CURL_LINK)" \
	  || { echo "make: the static build failed; building with the dynamic Swift runtime" >&2; $(RELEASE); }

# One stripped executable, its manual page, and its completion scripts
# where bash-completion, zsh and fish look for them.
install: release
	@bin="$$($(RELEASE) --show-bin-path)/species"; \
	  install -d "$(BIN_DIR)" "$(MAN_DIR)" "$(BASH_DIR)" "$(ZSH_DIR)" "$(FISH_DIR)" && \
	  install -m 755 -s "$$bin" "$(BIN_DIR)/species" && \
	  install -m 644 Sources/species/species.1 "$(MAN_DIR)/species.1" && \
	  "$$bin" completions bash > "$(BASH_DIR)/species" && \
	  "$$bin" completions zsh > "$(ZSH_DIR)/_species" && \
	  "$$bin" completions fish > "$(FISH_DIR)/species.fish"
	@echo "installed: $(INSTALLED)"

# Removes the files install wrote, then the folders it made, if they are empty.
uninstall:
	rm -f $(INSTALLED)
	@for dir in "$(BIN_DIR)" "$(MAN_DIR)" "$(DESTDIR)$(PREFIX)/share/man" "$(BASH_DIR)" \
	  "$(DESTDIR)$(PREFIX)/share/bash-completion" "$(ZSH_DIR)" "$(DESTDIR)$(PREFIX)/share/zsh" "$(FISH_DIR)" \
	  "$(DESTDIR)$(PREFIX)/share/fish" "$(DESTDIR)$(PREFIX)/share"; do \
	  [ -d "$$dir" ] && rmdir --ignore-fail-on-non-empty "$$dir"; done; true

# Rewrites the manual page from the command definitions behind --help; a
# test fails until it is rewritten after they change.
man:
	@$(SWIFT) build --quiet
	"$$($(SWIFT) build --show-bin-path)/species" __manpage > Sources/species/species.1

# Rewrites Sources/SpeciesKit/Bundled/BundledData.swift from Fixtures/swapi-data;
# a test fails until it is rewritten after the data changes.
bundle:
	python3 Tests/Tools/make_bundle.py

# Rewrites Fixtures/golden/show/ from the recorded species, a separate
# reading of docs/detail-view.md; review the diff.
goldens:
	python3 Tests/Tools/make_detail_goldens.py

clean:
	rm -rf .build

# Mutated SWAPI responses through list and show: never a crash, exit 0 or 65
# only. It prints how many ran; FUZZ_SEED=N repeats a run.
FUZZ_CASES ?= 10000
fuzz:
	FUZZ_CASES=$(FUZZ_CASES) $(SWIFT) test --filter FuzzTests

# The installed build over HTTPS, SOAK_RUNS times, two at a time: every
# run must end with its whole output and exit 0, never by a signal. It
# prints how many ran and how they ended.
SOAK_RUNS ?= 2000
soak:
	SOAK_RUNS=$(SOAK_RUNS) $(SWIFT) test --filter SoakTests

# Times the release build against a local server with LATENCY_MS a request,
# next to curl, jq and a program that only starts; prints one table.
LATENCY_MS ?= 100
bench: release
	python3 Tests/Tools/bench.py --bin-dir "$$($(RELEASE) --show-bin-path)" --latency-ms $(LATENCY_MS) \
	  --link-dir "$(CURL_LINK)"

# A SWAPI server of the data set on http://127.0.0.1:$(PORT)/api/ (drf);
# http://127.0.0.1:$(PORT)/dialect=tech/api/ and .../dialect=info/api/ serve
# the other dialects.
PORT ?= 8000
serve:
	python3 Tests/Tools/swapi_server.py --port $(PORT)
