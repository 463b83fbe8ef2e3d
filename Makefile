# species: the command-line client for SWAPI's species.
#   make test                     build everything and run every test
#   make run ARGS="list --all-pages"
#   make install PREFIX=~/.local  release build of species into PREFIX/bin, its page into PREFIX/share/man
#   make fuzz                     10,000 mutated responses, never a crash
#   make bench                    times against a local server, next to curl + jq
#   make man                      rewrites the manual page, Sources/species/species.1

SWIFT ?= swift
PREFIX ?= /usr/local
ARGS ?=

.PHONY: build test run release install man clean serve goldens fuzz snapshot bench

build:
	$(SWIFT) build

test:
	$(SWIFT) test

# Quiet, so that `make -s run ARGS="... --json" | jq` sees only species' output.
run:
	@$(SWIFT) build --quiet
	@"$$($(SWIFT) build --show-bin-path)/species" $(ARGS)

# The release build of species and its HTTP helper species-http. The Swift
# runtime is linked statically (a faster start) when the linker finds
# libcurl.so, which Debian's libcurl4-openssl-dev provides; without it a link
# to the installed libcurl.so.4 in .build/link does; failing both, the build
# falls back to the dynamic runtime.
CURL_LINK := $(CURDIR)/.build/link
release:
	@mkdir -p "$(CURL_LINK)"
	@curl4=$$(/sbin/ldconfig -p 2>/dev/null | awk '/libcurl\.so\.4 / {print $$NF; exit}'); \
	  if [ -n "$$curl4" ]; then ln -sf "$$curl4" "$(CURL_LINK)/libcurl.so"; fi
	$(SWIFT) build -c release --static-swift-stdlib -Xlinker -L"$(CURL_LINK)" \
	  || { echo "make: the static build failed; building with the dynamic Swift runtime" >&2; $(SWIFT) build -c release; }

# species into PREFIX/bin, its helper into PREFIX/libexec/species/, its
# manual page into PREFIX/share/man/man1/.
install: release
	install -d "$(DESTDIR)$(PREFIX)/bin" "$(DESTDIR)$(PREFIX)/libexec/species" "$(DESTDIR)$(PREFIX)/share/man/man1"
	install -m 755 "$$($(SWIFT) build -c release --show-bin-path)/species" "$(DESTDIR)$(PREFIX)/bin/species"
	install -m 755 "$$($(SWIFT) build -c release --show-bin-path)/species-http" "$(DESTDIR)$(PREFIX)/libexec/species/species-http"
	install -m 644 Sources/species/species.1 "$(DESTDIR)$(PREFIX)/share/man/man1/species.1"

# Rewrites the manual page from the command definitions behind --help; a
# test fails until it is rewritten after they change.
man:
	@$(SWIFT) build --quiet
	"$$($(SWIFT) build --show-bin-path)/species" __manpage > Sources/species/species.1

clean:
	rm -rf .build

# Mutated SWAPI responses through list and show: never a crash, exit 0 or 65
# only. It prints how many ran; FUZZ_SEED=N repeats a run.
FUZZ_CASES ?= 10000
fuzz:
	FUZZ_CASES=$(FUZZ_CASES) $(SWIFT) test --filter FuzzTests

# Times the release build against a local server with LATENCY_MS a request,
# next to curl + jq and Python requests loops; prints one table.
LATENCY_MS ?= 100
bench: release
	python3 Tests/Tools/bench.py --bin-dir "$$($(SWIFT) build -c release --show-bin-path)" --latency-ms $(LATENCY_MS)

# A SWAPI-like server of the recorded responses on http://127.0.0.1:$(PORT)/api/.
PORT ?= 8000
serve:
	python3 Tests/Tools/swapi_server.py --port $(PORT)

# Writes the SWAPI snapshot built into species (Sources/SpeciesKit/Snapshot/)
# from Fixtures/swapi; a test checks that the two match.
snapshot:
	python3 Tests/Tools/make_snapshot.py

# Rewrites Fixtures/golden/show/ from the recorded species; review the diff.
goldens:
	python3 Tests/Tools/make_detail_goldens.py
