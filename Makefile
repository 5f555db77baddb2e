# folio — a Markdown pager for the terminal.
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR = $(DESTDIR)$(PREFIX)/bin
MANDIR = $(DESTDIR)$(PREFIX)/share/man/man1
SWIFT ?= swift

.PHONY: all build release demo test bench install uninstall clean

all: build

build:
	$(SWIFT) build

release:
	$(SWIFT) build -c release --product folio

# Installs what is missing (Debian packages) and opens the tour document in folio.
demo:
	.ci/install-deps
	$(SWIFT) build -c release --product folio
	"$$($(SWIFT) build -c release --show-bin-path)/folio" SampleDocs/tour.md

# The whole test suite: unit, law, screen and end-to-end (tmux) tests.
test:
	.ci/install-deps
	$(SWIFT) build --product folio
	$(SWIFT) test

# Release benchmarks (figures in the closing notes / README).
bench:
	$(SWIFT) run -c release folio-bench

install: release
	install -d "$(BINDIR)" "$(MANDIR)"
	install -m 0755 "$$($(SWIFT) build -c release --show-bin-path)/folio" "$(BINDIR)/folio"
	install -m 0644 man/folio.1 "$(MANDIR)/folio.1"

uninstall:
	rm -f "$(BINDIR)/folio" "$(MANDIR)/folio.1"

clean:
	rm -rf .build
