# species: the command-line client for SWAPI's species.
#   make test                      build everything and run every test
#   make run ARGS="list --all-pages"
#   make install PREFIX=~/.local   a stripped release build, its manual page, completions and docs
#   make uninstall PREFIX=~/.local removes exactly what install put there
#   make dist                      dist/species-<version>-linux-<arch>.tar.gz, and dist/SHA256SUMS
#   make deb                       dist/species_<version>_<arch>.deb, and dist/SHA256SUMS
#   make reproducible              dist and deb in two clones: the same bytes
#   make fuzz                      10,000 mutated responses, never a crash
#   make soak                      2,000 HTTPS runs of the installed build, never a signal
#   make bench                     timings and memory against a local server (docs/performance.md)
#   make docs                      SpeciesKit's documentation, a static site in .build/docs/site
#   make api-check                 SpeciesKit's public API against docs/SpeciesKit.api
#   make api-baseline              rewrites docs/SpeciesKit.api, with the version
#   make format                    rewrites Sources and Tests in the style of .swift-format
#   make lint                      checks that style, as CI does
#   make man                       rewrites the manual page, Sources/species/species.1
#   make bundle                    rewrites the SWAPI data built into species
#   make goldens                   rewrites the expected detail texts

SWIFT ?= swift
PREFIX ?= /usr/local
ARGS ?=
# Where release and install build; another than .build lets them run while
# a `swift test` holds .build.
SCRATCH ?= .build
# Where dist and deb write.
DIST ?= dist

# The version is stated once, in Sources/SpeciesKit/API/Version.swift.
VERSION := $(shell sed -n 's/.*static let version = "\(.*\)".*/\1/p' Sources/SpeciesKit/API/Version.swift)
# Builds are reproducible: the same source gives the same bytes, wherever
# and however often it is built. Their time is SOURCE_DATE_EPOCH, by default
# the commit's (else now, outside git).
SOURCE_DATE_EPOCH ?= $(shell git log -1 --format=%ct 2>/dev/null || date +%s)
export SOURCE_DATE_EPOCH
# What `species --version` says of the build: the commit (-dirty with
# uncommitted changes), when built from git, and the day of
# SOURCE_DATE_EPOCH, in UTC.
COMMIT := $(shell git rev-parse --short=7 HEAD 2>/dev/null)$(shell git status --porcelain --untracked-files=no 2>/dev/null | grep -q . && echo -dirty)
BUILD_DATE := $(shell date -u -d "@$(SOURCE_DATE_EPOCH)" +%Y-%m-%d)
BUILD_INFO = -Xcc '-DSPECIES_BUILD_COMMIT="$(COMMIT)"' -Xcc '-DSPECIES_BUILD_DATE="$(BUILD_DATE)"'
# No path of this folder in the binary (Swift's and C's file names); no hash
# of Swift's incremental code generation, which differs from build to build
# (.swift_modhash); and no debug information, which install strips anyway,
# but whose references to clang's module cache (a folder named by a hash of
# the compiler's arguments) would change the build-id.
ROOT := $(abspath .)
REPRODUCIBLE = -Xswiftc -file-prefix-map -Xswiftc $(ROOT)=. -Xswiftc -Xfrontend -Xswiftc -disable-incremental-llvm-codegen \
  -Xswiftc -gnone -Xcc -ffile-prefix-map=$(ROOT)=. -Xcc -g0
# Debian's hardening where the toolchain allows: symbols bound at start-up
# (bindnow, so the relocations can be read-only), and fortified C.
HARDENING = -Xlinker -z -Xlinker now -Xcc -O2 -Xcc -D_FORTIFY_SOURCE=2
RELEASE = $(SWIFT) build -c release --scratch-path "$(SCRATCH)" $(BUILD_INFO) $(REPRODUCIBLE) $(HARDENING)

BIN_DIR = $(DESTDIR)$(PREFIX)/bin
MAN_DIR = $(DESTDIR)$(PREFIX)/share/man/man1
BASH_DIR = $(DESTDIR)$(PREFIX)/share/bash-completion/completions
# Debian's zsh looks in /usr/share/zsh/vendor-completions (deb); elsewhere
# site-functions is the place.
ZSH_FOLDER ?= site-functions
ZSH_DIR = $(DESTDIR)$(PREFIX)/share/zsh/$(ZSH_FOLDER)
FISH_DIR = $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
DOC_DIR = $(DESTDIR)$(PREFIX)/share/doc/species
INSTALLED = $(BIN_DIR)/species $(MAN_DIR)/species.1 $(BASH_DIR)/species $(ZSH_DIR)/_species $(FISH_DIR)/species.fish \
  $(DOC_DIR)/README.md $(DOC_DIR)/LICENSE $(DOC_DIR)/LICENSE.swapi-data

.PHONY: build test run release install uninstall dist deb reproducible docs api-check api-baseline format lint man bundle goldens clean serve fuzz soak bench

# Each step says what it does in one line, not its whole command.
build:
	@echo "swift build (debug, knowing its commit and date)"
	@$(SWIFT) build $(BUILD_INFO)

# End-to-end tests run the installed build too, where its paths differ
# (Tests/TestSupport/SpeciesRunner.swift): it is installed here, once,
# before the tests, into .build/test-install. Every suite is Swift
# Testing's, so XCTest, which would report "Executed 0 tests", is left out.
# The debug build the tests make is the one `make run` runs: it knows its
# commit and date (SPECIES_MAKE tells a test so).
TEST_INSTALL = $(MAKE) --no-print-directory install PREFIX="$(abspath .build/test-install)" \
  SCRATCH="$(abspath .build/test-release)" HINTS=no >/dev/null
# swift test's whole output goes to TEST_LOG; what a person needs of it is
# shown (Tests/Tools/test_summary.py): build errors, each failure with its
# message, skipped tests, the closing line. A fixture server that outlives
# the run is a bug of the tests: its stdin, held by the test process only,
# closes at its end. Only this run's count: every process the tests start
# carries SPECIES_TEST_RUN (ChildProcess.environment), so a server started
# by hand, or by another checkout's run, is left alone.
TEST_LOG = .build/test.log
TEST_RUN := $(shell od -An -N6 -tx1 /dev/urandom | tr -d ' \n')
SERVERS = for pid in $$(pgrep -f "$(abspath Tests/Tools)/[s]wapi_server.py"); do \
  tr '\0' '\n' < /proc/$$pid/environ 2>/dev/null | grep -qx "SPECIES_TEST_RUN=$(TEST_RUN)" && echo $$pid; done
test:
	@echo "make install into .build/test-install, for the end-to-end tests of the installed build"
	@$(TEST_INSTALL)
	@echo "swift test (about a minute on 2 cores; everything it says is in $(TEST_LOG))"
	@{ SPECIES_MAKE=1 SPECIES_TEST_RUN=$(TEST_RUN) $(SWIFT) test --disable-xctest $(BUILD_INFO) 2>&1; \
	  echo $$? > .build/test.status; } | python3 Tests/Tools/test_summary.py $(TEST_LOG)
	@for wait in 1 2 3 4 5 6 7 8 9 10; do [ -n "$$($(SERVERS))" ] || break; sleep 0.5; done; \
	  left=$$($(SERVERS)); if [ -n "$$left" ]; then \
	  echo "make: fixture servers outlived the tests:" >&2; ps -o pid=,args= -p "$$(echo $$left | tr ' ' ,)" >&2; exit 1; fi
	@exit $$(cat .build/test.status)

# species alone, not the tests' support; of the build's output only errors
# and warnings, on stderr, so that `make -s run ARGS="... --json" | jq` sees
# only species' output.
run:
	@$(SWIFT) build --product species --quiet $(BUILD_INFO) >&2
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
	@echo "swift build -c release into $(SCRATCH) (the Swift runtime linked in; reproducible; hardened)"
	@$(RELEASE) --static-swift-stdlib -Xlinker -L"$(CURL_LINK)" \
	  || { echo "make: the static build failed; building with the dynamic Swift runtime" >&2; $(RELEASE); }

# One stripped executable, its manual page, its completion scripts where
# bash-completion, zsh and fish look for them, and its README and licences
# (the code's, and the SWAPI data's, which the executable carries). Then, on
# this machine, it says whether PATH leads to the executable and which shell
# will not look where the scripts went, and the line that makes each.
install: release
	@bin="$$($(RELEASE) --show-bin-path)/species"; \
	  install -d "$(BIN_DIR)" "$(MAN_DIR)" "$(BASH_DIR)" "$(ZSH_DIR)" "$(FISH_DIR)" "$(DOC_DIR)" && \
	  install -m 755 "$$bin" "$(BIN_DIR)/species" && strip --strip-all --remove-section=.comment "$(BIN_DIR)/species" && \
	  install -m 644 Sources/species/species.1 "$(MAN_DIR)/species.1" && \
	  "$$bin" completions bash > "$(BASH_DIR)/species" && \
	  "$$bin" completions zsh > "$(ZSH_DIR)/_species" && \
	  "$$bin" completions fish > "$(FISH_DIR)/species.fish" && \
	  install -m 644 README.md LICENSE "$(DOC_DIR)/" && \
	  install -m 644 Fixtures/swapi-data/LICENSE "$(DOC_DIR)/LICENSE.swapi-data"
	@echo "installed species, its manual page, completions, README and licences under $(DESTDIR)$(PREFIX)"
	@if [ -z "$(DESTDIR)" ] && [ "$(HINTS)" != no ]; then $(SHELL_HINTS); fi

# What each shell of this machine searches, against where install put its
# script: zsh's $$fpath; fish's completion path (its own config, not the
# user's); bash-completion's XDG_DATA_DIRS and ~/.local/share.
SHELL_HINTS = \
  case ":$$PATH:" in *":$(BIN_DIR):"*) ;; \
    *) echo "your PATH does not hold $(BIN_DIR); add to ~/.profile: export PATH=\"$(BIN_DIR):\$$PATH\"";; esac; \
  share="$(PREFIX)/share"; \
  if command -v zsh >/dev/null && ! zsh -fc 'print -l -- $$fpath' | grep -qxF "$(ZSH_DIR)"; then \
    echo "zsh does not look in $(ZSH_DIR); add to ~/.zshrc, before compinit: fpath=($(ZSH_DIR) \$$fpath)"; fi; \
  if command -v fish >/dev/null && ! fish --no-config -c 'source $$__fish_data_dir/config.fish; string join \n -- $$fish_complete_path' \
      | grep -qxF "$(FISH_DIR)"; then \
    echo "fish does not look in $(FISH_DIR); add to ~/.profile: export XDG_DATA_DIRS=\"$$share:\$${XDG_DATA_DIRS:-/usr/local/share:/usr/share}\""; fi; \
  case ":$${XDG_DATA_DIRS:-/usr/local/share:/usr/share}:$${XDG_DATA_HOME:-$$HOME/.local/share}:" in \
    *":$$share:"*) ;; \
    *) echo "bash-completion does not look in $(BASH_DIR); add to ~/.profile: export XDG_DATA_DIRS=\"$$share:\$${XDG_DATA_DIRS:-/usr/local/share:/usr/share}\"";; \
  esac

# Removes the files install wrote, then the folders it made, if they are empty.
uninstall:
	rm -f $(INSTALLED)
	@for dir in "$(BIN_DIR)" "$(MAN_DIR)" "$(DESTDIR)$(PREFIX)/share/man" "$(BASH_DIR)" \
	  "$(DESTDIR)$(PREFIX)/share/bash-completion" "$(ZSH_DIR)" "$(DESTDIR)$(PREFIX)/share/zsh" "$(FISH_DIR)" \
	  "$(DESTDIR)$(PREFIX)/share/fish" "$(DOC_DIR)" "$(DESTDIR)$(PREFIX)/share/doc" "$(DESTDIR)$(PREFIX)/share"; do \
	  [ -d "$$dir" ] && rmdir --ignore-fail-on-non-empty "$$dir"; done; true

# The checksums of what dist and deb wrote, in sha256sum's format.
CHECKSUMS = cd "$(DIST)" && sha256sum $$(ls species-*.tar.gz species_*.deb 2>/dev/null) > SHA256SUMS

# A tarball of what install puts under a prefix, in a folder of its own:
# `tar -xzf species-*.tar.gz -C ~/.local --strip-components=1` installs it.
# Files in name order, owned by root, dated SOURCE_DATE_EPOCH.
ARCH := $(shell uname -m)
STAGE = $(abspath $(DIST))/species-$(VERSION)-linux-$(ARCH)
dist: release
	@rm -rf "$(STAGE)" && mkdir -p "$(DIST)"
	@$(MAKE) --no-print-directory install PREFIX="$(STAGE)" HINTS=no >/dev/null
	@echo "tar, gzip: $(STAGE).tar.gz"
	@tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$(SOURCE_DATE_EPOCH)" \
	  -C "$(DIST)" -cf - "$(notdir $(STAGE))" | gzip -9n > "$(STAGE).tar.gz"
	@rm -rf "$(STAGE)"
	@$(CHECKSUMS)
	@echo "wrote $(STAGE).tar.gz and $(abspath $(DIST))/SHA256SUMS"

# A Debian package, made by dpkg-deb alone: the files where Debian's shells
# look, the manual page gzipped, the licences as its copyright file, a
# changelog of one entry for the version, md5sums, and Depends: the packages
# of the libraries the executable needs (readelf's NEEDED, found by ldd,
# owned per dpkg -S). lintian accepts it (docs/releases.md says what it
# still notes). dpkg-deb dates what it packs by SOURCE_DATE_EPOCH.
MAINTAINER = species maintainers <maintainers@users.noreply.a-seed-03b71a6a.example>
DEB_ARCH = $(shell dpkg --print-architecture 2>/dev/null || echo $(ARCH))
DEB = $(abspath $(DIST))/species_$(VERSION)_$(DEB_ARCH).deb
DEB_ROOT = $(abspath $(DIST))/deb-root
deb: release
	@command -v dpkg-deb >/dev/null || { echo "make: deb needs dpkg-deb (Debian's dpkg)" >&2; exit 1; }
	@rm -rf "$(DEB_ROOT)" && mkdir -p "$(DIST)"
	@$(MAKE) --no-print-directory install DESTDIR="$(DEB_ROOT)" PREFIX=/usr ZSH_FOLDER=vendor-completions >/dev/null
	@cd "$(DEB_ROOT)/usr/share" && gzip -9n man/man1/species.1 && \
	  { cat doc/species/LICENSE; echo; echo "The SWAPI data built into species:"; echo; cat doc/species/LICENSE.swapi-data; } \
	    > doc/species/copyright && rm doc/species/LICENSE doc/species/LICENSE.swapi-data && \
	  { echo "species ($(VERSION)) unstable; urgency=medium"; echo; \
	    echo "  * species $(VERSION); what it does is in /usr/share/doc/species/README.md."; echo; \
	    echo " -- $(MAINTAINER)  $$(date -u -R -d "@$(SOURCE_DATE_EPOCH)")"; } | gzip -9n > doc/species/changelog.gz
	@bin="$(DEB_ROOT)/usr/bin/species"; \
	  depends=$$(for lib in $$(readelf -d "$$bin" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do \
	    path=$$(ldd "$$bin" | awk -v lib="$$lib" '$$1 == lib && $$3 ~ /^\// {print $$3}'); \
	    [ -n "$$path" ] && { dpkg -S "$$path" || dpkg -S "$$(readlink -f "$$path")"; } 2>/dev/null | sed 's/:.*//'; \
	  done | sort -u | paste -sd, | sed 's/,/, /g'); \
	  mkdir -p "$(DEB_ROOT)/DEBIAN" && \
	  { echo "Package: species"; echo "Version: $(VERSION)"; echo "Architecture: $(DEB_ARCH)"; \
	    echo "Maintainer: $(MAINTAINER)"; \
	    echo "Installed-Size: $$(du -sk "$(DEB_ROOT)/usr" | cut -f1)"; echo "Depends: $$depends"; \
	    echo "Section: utils"; echo "Priority: optional"; \
	    echo "Description: browse the species of the Star Wars API (SWAPI)"; \
	    echo " species prints SWAPI's species as a table, TSV, CSV, Markdown or JSON made"; \
	    echo " for jq, asking SWAPI's public services in turn, and answers without a"; \
	    echo " network from its cache or the SWAPI data built into it."; \
	  } > "$(DEB_ROOT)/DEBIAN/control" && \
	  cd "$(DEB_ROOT)" && find usr -type f | LC_ALL=C sort | xargs md5sum > DEBIAN/md5sums
	@echo "dpkg-deb: $(DEB)"
	@dpkg-deb --root-owner-group -Zgzip --build "$(DEB_ROOT)" "$(DEB)" >/dev/null
	@rm -rf "$(DEB_ROOT)"
	@$(CHECKSUMS)
	@echo "wrote $(DEB) and $(abspath $(DIST))/SHA256SUMS"

# Proves the builds reproducible: dist and deb in two clean clones of HEAD,
# in folders of other names and depths, and again in the first from
# nothing, must give the same SHA256SUMS each time. About four minutes.
reproducible:
	@one=$$(mktemp -d) && two=$$(mktemp -d) && \
	  git clone -q . "$$one/species" && git clone -q . "$$two/another/place" && \
	  build() { $(MAKE) --no-print-directory -s -C "$$1" dist deb >/dev/null && cat "$$1/dist/SHA256SUMS"; } && \
	  first=$$(build "$$one/species") && second=$$(build "$$two/another/place") && \
	  rm -rf "$$one/species/.build" "$$one/species/dist" && third=$$(build "$$one/species") && \
	  if [ "$$first" = "$$second" ] && [ "$$first" = "$$third" ]; then \
	    echo "$$first"; echo "reproducible: three builds in two folders, the same bytes"; rm -rf "$$one" "$$two"; \
	  else printf '%s\n\n%s\n\n%s\n' "$$first" "$$second" "$$third"; \
	    echo "reproducible: the builds differ; they are in $$one and $$two" >&2; exit 1; fi

# SpeciesKit's symbol graph: its public declarations and their comments,
# from a build of its own (the flags would rebuild .build's).
DOCS = .build/docs
symbol-graph:
	@$(SWIFT) build --quiet --target SpeciesKit --scratch-path "$(DOCS)/build" \
	  -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$(abspath $(DOCS))/symbol-graph"

# The DocC catalog (Sources/SpeciesKit/SpeciesKit.docc) with the symbol
# graph, as a static site; a warning fails it.
docs: symbol-graph
	@rm -rf "$(DOCS)/site"
	@echo "docc convert into $(DOCS)/site"
	@docc convert Sources/SpeciesKit/SpeciesKit.docc --additional-symbol-graph-dir "$(DOCS)/symbol-graph" \
	  --fallback-display-name SpeciesKit --fallback-bundle-identifier species.SpeciesKit \
	  --transform-for-static-hosting --warnings-as-errors --output-path "$(DOCS)/site"
	@echo "its pages need a web server: python3 -m http.server 8001 --directory $(DOCS)/site"
	@echo "then open http://127.0.0.1:8001/documentation/specieskit/"

# SpeciesKit's public declarations against docs/SpeciesKit.api, the baseline
# of the version there: one removed or changed fails, unless the baseline
# and the version move together (api-baseline refuses to write a smaller API
# under the same version).
api-check: symbol-graph
	@python3 Tests/Tools/public_api.py check docs/SpeciesKit.api "$(DOCS)/symbol-graph" $(VERSION)
api-baseline: symbol-graph
	@python3 Tests/Tools/public_api.py write docs/SpeciesKit.api "$(DOCS)/symbol-graph" $(VERSION)

# The style of .swift-format (Tests/.swift-format there: its public helpers
# need no documentation): `format` rewrites, `lint` only checks, as CI does.
FORMATTED = Package.swift Sources Tests
format:
	$(SWIFT) format --in-place --recursive --parallel $(FORMATTED)
lint:
	$(SWIFT) format lint --strict --recursive --parallel $(FORMATTED)

# Rewrites the manual page from the command definitions behind --help; a
# test fails until it is rewritten after they change.
man:
	SPECIES_WRITE_MANUAL=1 $(SWIFT) test --quiet --filter 'ManualPageTests/theCommittedPageIsUpToDate'

# Rewrites Sources/SpeciesKit/Shell/BundledData.swift from Fixtures/swapi-data;
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
# only (69 where a mutated count makes page 1 an empty list: not SWAPI). It
# prints how many ran; FUZZ_SEED=N repeats a run.
FUZZ_CASES ?= 10000
fuzz:
	FUZZ_CASES=$(FUZZ_CASES) $(SWIFT) test --disable-xctest --filter FuzzTests

# The installed build over HTTPS, SOAK_RUNS times, two at a time: every
# run must end with its whole output and exit 0, never by a signal. It
# prints how many ran and how they ended.
SOAK_RUNS ?= 2000
soak:
	@$(TEST_INSTALL)
	SOAK_RUNS=$(SOAK_RUNS) $(SWIFT) test --disable-xctest --filter SoakTests

# Times the release build against a local server with LATENCY_MS a request,
# next to curl, jq and a program that only starts; prints one table. BEFORE,
# the folder of an earlier release build, is measured beside it where the
# cost of use is (docs/performance.md).
LATENCY_MS ?= 100
BEFORE ?=
bench: release
	@echo "Tests/Tools/bench.py, $(LATENCY_MS) ms a request"
	@python3 Tests/Tools/bench.py --bin-dir "$$($(RELEASE) --show-bin-path)" --latency-ms $(LATENCY_MS) \
	  --link-dir "$(CURL_LINK)" $(if $(BEFORE),--before "$(BEFORE)")

# A SWAPI server of the data set on http://127.0.0.1:$(PORT)/api/ (drf);
# http://127.0.0.1:$(PORT)/dialect=tech/api/ and .../dialect=info/api/ serve
# the other dialects.
PORT ?= 8000
serve:
	python3 Tests/Tools/swapi_server.py --port $(PORT)
