// Compiled into tree-sitter-runtime.so beside the runtime's own lib.c (scripts/build-grammars.sh):
// what folio's loader (Sources/C/CTreeSitter) checks before it uses the runtime.
#include <tree_sitter/api.h>
#include <stdint.h>

#ifndef FOLIO_TS_VERSION
#error "FOLIO_TS_VERSION (the pinned runtime version) must be defined"
#endif

const char *folio_tree_sitter_runtime_version(void) { return FOLIO_TS_VERSION; }
uint32_t folio_tree_sitter_abi_min(void) { return TREE_SITTER_MIN_COMPATIBLE_LANGUAGE_VERSION; }
uint32_t folio_tree_sitter_abi_max(void) { return TREE_SITTER_LANGUAGE_VERSION; }
