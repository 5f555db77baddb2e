#ifndef FOLIO_CTREESITTER_SHIM_H
#define FOLIO_CTREESITTER_SHIM_H
// tree-sitter's C runtime (Debian: libtree-sitter-dev 0.20.7, grammar ABI 13-14).
#include <tree_sitter/api.h>
#endif
