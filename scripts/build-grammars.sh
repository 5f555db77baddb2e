#!/usr/bin/env bash
# Fetches the tree-sitter grammars pinned in scripts/grammars.lock from PyPI (source archive for
# parser.c/scanner.c, the wheel of the same version for queries/highlights.scm where the source
# lacks it; the files a grammar's source archive leaves out come from tree-sitter-language-pack's
# source archive, "pack" in the lock), checks their sha256, compiles each into NAME.so and
# installs NAME.so + NAME.scm into DIR (default: .build-grammars in the checkout), with
# tree-sitter's runtime built from the pinned runtime sources into DIR/tree-sitter-runtime.so
# (folio loads it from there: Sources/C/CTreeSitter), and folio's image plugin, folio-images.so
# (Sources/C/CImages). Nothing third-party enters the repo.
#
#   scripts/build-grammars.sh [DIR]      GRAMMAR_CFLAGS (default -O1), RUNTIME_CFLAGS (default -O2),
#                                        JOBS (default nproc)
#
# Grammars already built for the pinned version are skipped (DIR/NAME.version), so running it
# again costs nothing. TypeScript and C++ queries extend JavaScript's and C's, as upstream does.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$root/.build-grammars}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
cflags="${GRAMMAR_CFLAGS:--O1}"
jobs="${JOBS:-$(nproc 2>/dev/null || echo 2)}"
cc="${CC:-cc}"
lock="$root/scripts/grammars.lock"

version_of() { awk -v n="$1" '$1 == n { print $2 }' "$lock"; }
# The PyPI package of a lock row: its fifth column, else tree-sitter-NAME.
package_of() { awk -v n="$1" '$1 == n { print ($5 != "" ? $5 : (n == "headers" ? "tree-sitter" : "tree-sitter-" n)) }' "$lock"; }
# Directory a package's archive unpacks to / its wheel's import name: tree_sitter_sql-0.3.7.
dist_of() { echo "$(package_of "$1" | tr - _)-$(version_of "$1")"; }
# What a built grammar's NAME.version holds: its version, the flags, and a checksum of folio's
# extra files for it (a changed patch rebuilds it).
stamp_of() {
  local extras=""
  [ -d "$root/scripts/grammar-extras/$1" ] && extras=" $(cat "$root/scripts/grammar-extras/$1"/* | cksum | cut -d' ' -f1)"
  echo "$2 $cflags$extras"
}
# Grammars whose source archive misses files that the language pack's carries.
from_pack="html typescript dockerfile"
todo=()
while read -r name version src_sha whl_sha package; do
  [ -z "$name" ] || [ "${name:0:1}" = "#" ] || [ "$name" = headers ] || [ "$name" = pack ] && continue
  if [ "$(cat "$out/$name.version" 2>/dev/null)" = "$(stamp_of "$name" "$version")" ] && [ -f "$out/$name.so" ] && [ -f "$out/$name.scm" ]; then
    continue
  fi
  todo+=("$name $version $src_sha $whl_sha")
done < "$lock"
# tree-sitter's runtime (tree-sitter-runtime.so), from the runtime sources pinned as "headers":
# rebuilt when its version or flags change.
runtime_cflags="${RUNTIME_CFLAGS:--O2}"
# (The stamp holds the patches' checksum: a changed patch rebuilds the runtime.)
runtime_stamp="$(version_of headers) $runtime_cflags $(cat "$root"/scripts/grammar-extras/runtime/* | cksum | cut -d' ' -f1)"
runtime_todo=0
if [ "$(cat "$out/tree-sitter-runtime.version" 2>/dev/null)" != "$runtime_stamp" ] || [ ! -f "$out/tree-sitter-runtime.so" ]; then
  runtime_todo=1
fi
# folio's image plugin (folio-images.so: the decoders and libchafa, loaded on the first image
# shown, never at start), from Native/images/folio-images.c against the system's libraries;
# rebuilt when its source or interface changes. Without the libraries images show as captions.
images_stamp="$(cat "$root/Native/images/folio-images.c" "$root/Sources/C/CImages/include/CImages.h" | cksum | cut -d' ' -f1)"
if [ "$(cat "$out/folio-images.version" 2>/dev/null)" != "$images_stamp" ] || [ ! -f "$out/folio-images.so" ]; then
  if pkg-config --exists chafa libpng libwebp librsvg-2.0 cairo 2>/dev/null && [ -e /usr/include/jpeglib.h ] && [ -e /usr/include/gif_lib.h ]; then
    # shellcheck disable=SC2046
    "$cc" -O2 -fPIC -shared -Wall -o "$out/folio-images.so.tmp" "$root/Native/images/folio-images.c" \
      $(pkg-config --cflags --libs chafa libpng libwebp librsvg-2.0 cairo) -ljpeg -lgif
    mv "$out/folio-images.so.tmp" "$out/folio-images.so"
    echo "$images_stamp" > "$out/folio-images.version"
  else
    echo "build-grammars: the image plugin needs libchafa-dev libpng-dev libjpeg-dev libgif-dev libwebp-dev librsvg2-dev (images show as captions)" >&2
  fi
fi
# C++ and TypeScript queries need C's and JavaScript's: fetch those too when either is rebuilt.
[ ${#todo[@]} -eq 0 ] && [ $runtime_todo -eq 0 ] && exit 0
command -v pip >/dev/null 2>&1 || command -v pip3 >/dev/null 2>&1 || { echo "build-grammars: pip is needed" >&2; exit 1; }
pip="$(command -v pip || command -v pip3)"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/dl" "$work/src"
start=$(date +%s)

# Requirement files with hashes: pip refuses anything else.
: > "$work/sources.txt"; : > "$work/wheels.txt"; : > "$work/pack.txt"
while read -r name version src_sha whl_sha package; do
  [ -z "$name" ] || [ "${name:0:1}" = "#" ] && continue
  pkg="$(package_of "$name")"
  if [ "$name" = pack ]; then echo "$pkg==$version --hash=sha256:$src_sha" > "$work/pack.txt"; continue; fi
  if [ "$src_sha" != "-" ]; then echo "$pkg==$version --hash=sha256:$src_sha" >> "$work/sources.txt"; fi
  if [ "$whl_sha" != "-" ]; then echo "$pkg==$version --hash=sha256:$whl_sha" >> "$work/wheels.txt"; fi
done < <(printf '%s\n' "${todo[@]}"; grep -E '^(c|javascript|headers) ' "$lock"
         printf '%s\n' "${todo[@]}" | grep -qE "^(${from_pack// /|}) " && grep -E '^pack ' "$lock")
sort -u -o "$work/sources.txt" "$work/sources.txt"; sort -u -o "$work/wheels.txt" "$work/wheels.txt"
echo "build-grammars: fetching $(wc -l < "$work/sources.txt") grammars from PyPI" >&2
"$pip" download -q --no-deps --require-hashes --no-binary :all: -d "$work/dl" -r "$work/sources.txt" >&2
if [ -s "$work/wheels.txt" ]; then
  "$pip" download -q --no-deps --require-hashes --only-binary :all: --platform manylinux2014_x86_64 \
    --python-version 3.11 --implementation cp -d "$work/dl" -r "$work/wheels.txt" >&2
fi
for f in "$work"/dl/*.tar.gz; do tar xzf "$f" -C "$work/src"; done
if [ -s "$work/pack.txt" ]; then
  # Only this package from source: its build requirements (cython…) come as wheels, which
  # makes pip's metadata step take seconds instead of minutes.
  "$pip" download -q --no-deps --require-hashes --no-binary "$(package_of pack)" -d "$work/pack" -r "$work/pack.txt" >&2
  p="$(dist_of pack)"
  tar xzf "$work"/pack/*.tar.gz -C "$work/src" "$p/parsers/html/src/tag.h" "$p/parsers/typescript/common/scanner.h" \
    "$p/parsers/dockerfile/src"
  # The headers the grammars' archives leave out, where their scanners include them.
  if [ -d "$work/src/$(dist_of html)" ]; then cp "$work/src/$p/parsers/html/src/tag.h" "$work/src/$(dist_of html)/src/"; fi
  if [ -d "$work/src/$(dist_of typescript)" ]; then
    mkdir -p "$work/src/$(dist_of typescript)/common"
    cp "$work/src/$p/parsers/typescript/common/scanner.h" "$work/src/$(dist_of typescript)/common/"
  fi
fi
# tree_sitter/parser.h, array.h, alloc.h for the grammars; allocation goes to libc's malloc
# (the -D flags below), as grammars built without TREE_SITTER_REUSE_ALLOCATOR do.
mkdir -p "$work/include/tree_sitter"
hdr="$work/src/tree-sitter-$(version_of headers)/tree_sitter/core/lib/src"
cp "$hdr/parser.h" "$hdr/array.h" "$hdr/alloc.h" "$hdr/ts_assert.h" "$work/include/tree_sitter/"
# The runtime: all of it is one translation unit (lib.c), plus folio's version check, with
# folio's patches (scripts/grammar-extras/runtime/*.patch: each says why).
if [ $runtime_todo -eq 1 ]; then
  core="$work/src/tree-sitter-$(version_of headers)/tree_sitter/core/lib"
  for p in "$root"/scripts/grammar-extras/runtime/*.patch; do patch -s -d "$core" -p1 < "$p"; done
  "$cc" $runtime_cflags -fPIC -shared -std=c11 -w -fvisibility=default -I"$core/include" -I"$core/src" \
    -DFOLIO_TS_VERSION="\"$(version_of headers)\"" "$core/src/lib.c" "$root/scripts/grammar-extras/runtime/folio-runtime.c" \
    -o "$out/tree-sitter-runtime.so.tmp"
  mv "$out/tree-sitter-runtime.so.tmp" "$out/tree-sitter-runtime.so"
  echo "$runtime_stamp" > "$out/tree-sitter-runtime.version"
fi
for f in "$work"/dl/*.whl; do
  [ -e "$f" ] || continue
  d="$work/whl/$(basename "$f" | cut -d- -f1-2)"; mkdir -p "$d"
  python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' "$f" "$d"
done

# The query of NAME: the source archive's, else the wheel's.
query() {
  local name="$1" pkg sub="${2:-}"
  pkg="$(dist_of "$name")"
  for q in "$work/src/$pkg/queries/${sub}highlights.scm" "$work/whl/$pkg/${pkg%-*}/queries/${sub}highlights.scm"; do
    [ -f "$q" ] && { cat "$q"; return 0; }
  done
  echo "build-grammars: no highlights.scm for $name" >&2; return 1
}

build_one() {
  local name="$1" version="$2" pkg src
  pkg="$(dist_of "$name")"
  case "$name" in
    typescript) src="$work/src/$pkg/typescript/src" ;;
    markdown) src="$work/src/$pkg/tree-sitter-markdown/src" ;;
    dockerfile) src="$work/src/$(dist_of pack)/parsers/dockerfile/src" ;;  # no source archive of its own
    *) src="$work/src/$pkg/src" ;;
  esac
  rm -f "$out/$name.so" "$out/$name.scm" "$out/$name.version"
  # folio's fixes to a grammar's sources (scripts/grammar-extras/NAME/*.patch: each says why),
  # applied in its src/ directory.
  for p in "$root/scripts/grammar-extras/$name/"*.patch; do [ -e "$p" ] && patch -s -d "$src" -p1 < "$p"; done
  local files=("$src/parser.c") extra=()
  [ -f "$src/scanner.c" ] && files+=("$src/scanner.c")
  # Files folio writes itself for a grammar whose archive lacks them (yaml's schema.core.c).
  [ -d "$root/scripts/grammar-extras/$name" ] && extra=(-I"$root/scripts/grammar-extras/$name")
  "$cc" $cflags -fPIC -shared -std=c11 -w -I"$src" "${extra[@]}" -I"$work/include" -Dts_malloc=malloc -Dts_calloc=calloc \
    -Dts_realloc=realloc -Dts_free=free "${files[@]}" -o "$out/$name.so.tmp"
  case "$name" in
    typescript) { query javascript; query typescript; } > "$out/$name.scm.tmp" ;;
    cpp) { query c; query cpp; } > "$out/$name.scm.tmp" ;;
    markdown) query markdown markdown/ > "$out/$name.scm.tmp" ;;
    *) query "$name" > "$out/$name.scm.tmp" ;;
  esac
  mv "$out/$name.so.tmp" "$out/$name.so"; mv "$out/$name.scm.tmp" "$out/$name.scm"
  stamp_of "$name" "$version" > "$out/$name.version"
}
export -f build_one query version_of package_of dist_of stamp_of
export work out cflags cc lock root
status=0
if [ ${#todo[@]} -gt 0 ]; then
  printf '%s\n' "${todo[@]}" | awk '{ print $1, $2 }' | xargs -P "$jobs" -L 1 bash -ec 'build_one "$0" "$1"' || status=1
fi
echo "build-grammars: ${#todo[@]} grammars$([ $runtime_todo -eq 1 ] && echo " and the runtime") built into $out in $(( $(date +%s) - start )) s" >&2
exit $status
