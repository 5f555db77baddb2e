# folio — a Markdown pager for the terminal.
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR = $(DESTDIR)$(PREFIX)/bin
MANDIR = $(DESTDIR)$(PREFIX)/share/man/man1
SWIFT ?= swift

GRAMMARDIR = $(DESTDIR)$(PREFIX)/lib/folio/grammars
# Where each shell looks for completions installed under PREFIX.
BASHCOMPDIR = $(DESTDIR)$(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR = $(DESTDIR)$(PREFIX)/share/zsh/site-functions
FISHCOMPDIR = $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d

.PHONY: all build release demo test tsan grammars bench startup-order fuzz fuzz-build fuzz-grammars fuzz-replay install uninstall clean

all: build

build:
	$(SWIFT) build

# On Linux the Swift runtime is linked in, and with it (Package.swift) the C libraries and the
# C++ runtime from their archives: folio loads only glibc at start-up. With nothing to load
# from its own directory, it has no `$ORIGIN` run path either, which had the loader try eleven
# directories for libm before the system's (figures in docs/benchmarks.md, "Start-up").
RELEASE_FLAGS ?= $(if $(filter Linux,$(shell uname -s)),--static-swift-stdlib --disable-local-rpath,)

release:
	$(SWIFT) build -c release $(RELEASE_FLAGS) --product folio

# Installs what is missing (Debian packages) and opens the tour document in folio.
demo:
	.ci/install-deps
	scripts/build-grammars.sh
	$(SWIFT) build -c release $(RELEASE_FLAGS) --product folio
	"$$($(SWIFT) build -c release $(RELEASE_FLAGS) --show-bin-path)/folio" SampleDocs/tour.md

# The whole test suite: unit, law, screen and end-to-end (tmux) tests.
test:
	.ci/install-deps
	scripts/build-grammars.sh
	$(SWIFT) build --product folio
	FOLIO_REQUIRE_GRAMMARS=1 $(SWIFT) test

# The tests that need no tmux, under ThreadSanitizer (not in CI: on 2 cores the build takes
# ~4 min more and the run ~16 min; see DEVELOPERS.md). The highlighting budget test is left out:
# under TSan tree-sitter runs ~10x slower, so a large block passes its time budget by design.
tsan:
	scripts/build-grammars.sh
	FOLIO_REQUIRE_GRAMMARS=1 TSAN_OPTIONS="halt_on_error=1" $(SWIFT) test --sanitize=thread \
		--scratch-path .build-tsan --skip "EndToEnd|ordinaryCodeLargerThanAPieceIsHighlightedThroughout"

# Tree-sitter grammars for syntax highlighting, fetched (pinned, hash-checked) from PyPI and
# compiled into .build-grammars (skipped when already built).
grammars:
	scripts/build-grammars.sh

# Release benchmarks (figures in the closing notes / README).
bench:
	$(SWIFT) run -c release $(RELEASE_FLAGS) folio-bench

# Rewrites Sources/Link/startup-order.txt, the link order of the code a first screen runs
# (needs valgrind; see scripts/startup-order.py).
# (The build does not see the list change: the binary is removed so the next build links it.)
startup-order: release
	scripts/startup-order.py "$$($(SWIFT) build -c release $(RELEASE_FLAGS) --show-bin-path)/folio" Sources/Link/startup-order.txt
	rm -f "$$($(SWIFT) build -c release $(RELEASE_FLAGS) --show-bin-path)/folio"

# libFuzzer with AddressSanitizer (see DEVELOPERS.md): parse + layout + print, the key
# decoder, the reading-position store reader, the reading of $LESS and command lines, the
# syntax highlighter (every grammar) and the text decoder, FUZZ_RUNS executions each from the
# committed seed corpus (new inputs go to .build-fuzz/corpus-*, never into the repository).
# FuzzHighlight loads its grammars and tree-sitter's runtime from FUZZ_GRAMMARS, built there
# with AddressSanitizer and libFuzzer's coverage too (fuzz-grammars; skipped when built), by
# the clang of the Swift toolchain: gcc's ASan runtime is not the one Swift links.
FUZZ_RUNS ?= 1000000
FUZZ_TARGETS = FuzzPrint FuzzKeys FuzzStore FuzzLess FuzzHighlight FuzzText
FUZZ_GRAMMARS ?= .build-fuzz/grammars
FUZZ_CC ?= $(dir $(realpath $(shell command -v $(SWIFT))))clang
FUZZ_GRAMMAR_CFLAGS = -O1 -g -fsanitize=address -fsanitize=fuzzer-no-link
# Optimised code with ASan: Swift debug code runs ~3x slower under the sanitizer (84 vs 245
# executions/s of FuzzPrint on 2 cores), which makes a million runs take hours.
FUZZ_FLAGS = -c release --scratch-path .build-fuzz --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING

fuzz-build:
	for t in $(FUZZ_TARGETS); do $(SWIFT) build $(FUZZ_FLAGS) --product $$t || exit 1; done

fuzz-grammars:
	CC="$(FUZZ_CC)" GRAMMAR_CFLAGS="$(FUZZ_GRAMMAR_CFLAGS)" RUNTIME_CFLAGS="$(FUZZ_GRAMMAR_CFLAGS)" \
		scripts/build-grammars.sh $(FUZZ_GRAMMARS)

fuzz: fuzz-build fuzz-grammars
	mkdir -p .build-fuzz/corpus-print .build-fuzz/corpus-keys .build-fuzz/corpus-store .build-fuzz/corpus-less \
		.build-fuzz/corpus-highlight .build-fuzz/corpus-text
	SWIFT_BACKTRACE=enable=no .build-fuzz/release/FuzzPrint -runs=$(FUZZ_RUNS) -max_len=4096 -rss_limit_mb=2048 \
		-timeout=10 .build-fuzz/corpus-print Fuzz/corpus/print
	SWIFT_BACKTRACE=enable=no .build-fuzz/release/FuzzKeys -runs=$(FUZZ_RUNS) -max_len=1024 \
		.build-fuzz/corpus-keys Fuzz/corpus/keys
	SWIFT_BACKTRACE=enable=no .build-fuzz/release/FuzzStore -runs=$(FUZZ_RUNS) -max_len=4096 -timeout=10 \
		.build-fuzz/corpus-store Fuzz/corpus/store
	SWIFT_BACKTRACE=enable=no .build-fuzz/release/FuzzLess -runs=$(FUZZ_RUNS) -max_len=1024 \
		.build-fuzz/corpus-less Fuzz/corpus/less
	SWIFT_BACKTRACE=enable=no FOLIO_GRAMMARS="$(FUZZ_GRAMMARS)" .build-fuzz/release/FuzzHighlight -runs=$(FUZZ_RUNS) \
		-max_len=4096 -rss_limit_mb=2048 -timeout=10 .build-fuzz/corpus-highlight Fuzz/corpus/highlight
	SWIFT_BACKTRACE=enable=no .build-fuzz/release/FuzzText -runs=$(FUZZ_RUNS) -max_len=4096 -timeout=10 \
		.build-fuzz/corpus-text Fuzz/corpus/text

# The seed corpus through ordinary builds of the targets (no libFuzzer, no sanitizer;
# FuzzHighlight finds the checkout's grammars, `make grammars`, or FOLIO_GRAMMARS).
fuzz-replay:
	$(SWIFT) run FuzzPrint Fuzz/corpus/print
	$(SWIFT) run FuzzKeys Fuzz/corpus/keys
	$(SWIFT) run FuzzStore Fuzz/corpus/store
	$(SWIFT) run FuzzLess Fuzz/corpus/less
	$(SWIFT) run FuzzHighlight Fuzz/corpus/highlight
	$(SWIFT) run FuzzText Fuzz/corpus/text

install: release
	scripts/build-grammars.sh
	install -d "$(BINDIR)" "$(MANDIR)" "$(GRAMMARDIR)"
	install -m 0644 .build-grammars/*.so .build-grammars/*.scm "$(GRAMMARDIR)/"
	install -m 0755 "$$($(SWIFT) build -c release $(RELEASE_FLAGS) --show-bin-path)/folio" "$(BINDIR)/folio"
	install -m 0644 man/folio.1 "$(MANDIR)/folio.1"
	install -d "$(BASHCOMPDIR)" "$(ZSHCOMPDIR)" "$(FISHCOMPDIR)"
	"$(BINDIR)/folio" --completion=bash > "$(BASHCOMPDIR)/folio"
	"$(BINDIR)/folio" --completion=zsh > "$(ZSHCOMPDIR)/_folio"
	"$(BINDIR)/folio" --completion=fish > "$(FISHCOMPDIR)/folio.fish"

uninstall:
	rm -f "$(BINDIR)/folio" "$(MANDIR)/folio.1"
	rm -f "$(BASHCOMPDIR)/folio" "$(ZSHCOMPDIR)/_folio" "$(FISHCOMPDIR)/folio.fish"
	rm -rf "$(GRAMMARDIR)"

clean:
	rm -rf .build .build-fuzz
