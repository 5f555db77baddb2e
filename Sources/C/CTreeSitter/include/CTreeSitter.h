#ifndef FOLIO_CTREESITTER_H
#define FOLIO_CTREESITTER_H
// tree-sitter's C runtime, as folio uses it: loaded at run time from the grammar directory
// (`tree-sitter-runtime.so`, built by scripts/build-grammars.sh from the pinned runtime
// sources, beside the grammars it was checked against), never linked.
//
// Why not Debian's libtree-sitter (0.20.7): it frees a subtree twice (`ts_subtree_release`
// from `ts_tree_delete`) on deeply nested code, which aborted folio; it also has no query
// timeout. The runtime and the grammars are one pinned set, so they are loaded from one
// place: without it there is no highlighting, as without the grammars.
//
// The types and functions below are those of tree-sitter's `api.h` (MIT licence, Copyright
// (c) 2018-2024 Max Brunsfeld) that folio calls, declared as in runtime 0.23.2; their layout
// has not changed since 0.20. Each function is a static inline call through a table that
// `folio_ts_load` fills, so Swift code calls them by their usual names.

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct TSLanguage TSLanguage;
typedef struct TSParser TSParser;
typedef struct TSTree TSTree;
typedef struct TSQuery TSQuery;
typedef struct TSQueryCursor TSQueryCursor;

typedef struct TSNode {
  uint32_t context[4];
  const void *id;
  const TSTree *tree;
} TSNode;

typedef struct TSQueryCapture {
  TSNode node;
  uint32_t index;
} TSQueryCapture;

typedef struct TSQueryMatch {
  uint32_t id;
  uint16_t pattern_index;
  uint16_t capture_count;
  const TSQueryCapture *captures;
} TSQueryMatch;

typedef enum TSQueryPredicateStepType {
  TSQueryPredicateStepTypeDone,
  TSQueryPredicateStepTypeCapture,
  TSQueryPredicateStepTypeString,
} TSQueryPredicateStepType;

typedef struct TSQueryPredicateStep {
  TSQueryPredicateStepType type;
  uint32_t value_id;
} TSQueryPredicateStep;

typedef enum TSQueryError {
  TSQueryErrorNone = 0,
  TSQueryErrorSyntax,
  TSQueryErrorNodeType,
  TSQueryErrorField,
  TSQueryErrorCapture,
  TSQueryErrorStructure,
  TSQueryErrorLanguage,
} TSQueryError;

/// The runtime's entry points (filled by `folio_ts_load`, read-only afterwards).
typedef struct FolioTreeSitter {
  uint32_t (*language_version)(const TSLanguage *);
  TSQuery *(*query_new)(const TSLanguage *, const char *, uint32_t, uint32_t *, TSQueryError *);
  void (*query_delete)(TSQuery *);
  uint32_t (*query_capture_count)(const TSQuery *);
  const char *(*query_capture_name_for_id)(const TSQuery *, uint32_t, uint32_t *);
  uint32_t (*query_pattern_count)(const TSQuery *);
  uint32_t (*query_start_byte_for_pattern)(const TSQuery *, uint32_t);
  const TSQueryPredicateStep *(*query_predicates_for_pattern)(const TSQuery *, uint32_t, uint32_t *);
  const char *(*query_string_value_for_id)(const TSQuery *, uint32_t, uint32_t *);
  TSParser *(*parser_new)(void);
  void (*parser_delete)(TSParser *);
  bool (*parser_set_language)(TSParser *, const TSLanguage *);
  void (*parser_reset)(TSParser *);
  TSTree *(*parser_parse_string)(TSParser *, const TSTree *, const char *, uint32_t);
  void (*parser_set_timeout_micros)(TSParser *, uint64_t);
  void (*tree_delete)(TSTree *);
  TSNode (*tree_root_node)(const TSTree *);
  TSQueryCursor *(*query_cursor_new)(void);
  void (*query_cursor_delete)(TSQueryCursor *);
  void (*query_cursor_exec)(TSQueryCursor *, const TSQuery *, TSNode);
  bool (*query_cursor_next_capture)(TSQueryCursor *, TSQueryMatch *, uint32_t *);
  void (*query_cursor_set_match_limit)(TSQueryCursor *, uint32_t);
  bool (*query_cursor_did_exceed_match_limit)(const TSQueryCursor *);
  void (*query_cursor_set_timeout_micros)(TSQueryCursor *, uint64_t);
  uint32_t (*node_start_byte)(TSNode);
  uint32_t (*node_end_byte)(TSNode);
  /// Grammar ABIs the runtime reads (`TREE_SITTER_MIN_COMPATIBLE_LANGUAGE_VERSION`...
  /// `TREE_SITTER_LANGUAGE_VERSION`), from the runtime's own build.
  uint32_t abi_min, abi_max;
} FolioTreeSitter;

extern FolioTreeSitter folio_ts;

/// The runtime version folio's declarations are written for; `folio_ts_load` refuses
/// another (the runtime's build exports its own as `folio_tree_sitter_runtime_version`).
#define FOLIO_TREE_SITTER_RUNTIME "0.23.2"

/// Loads the runtime at `path` (RTLD_LOCAL) and fills `folio_ts`. Returns NULL on success,
/// else a static message saying why it was not loaded (the table is then left empty).
/// Not thread-safe: the caller loads once, under its lock, before any other call.
const char *folio_ts_load(const char *path);

/// Whether a runtime was loaded.
bool folio_ts_loaded(void);

/// The grammar ABIs the loaded runtime reads (0...0 before it is loaded).
uint32_t folio_ts_abi_min(void);
uint32_t folio_ts_abi_max(void);

static inline uint32_t ts_language_version(const TSLanguage *l) { return folio_ts.language_version(l); }
static inline TSQuery *ts_query_new(const TSLanguage *l, const char *s, uint32_t n, uint32_t *off, TSQueryError *e) {
  return folio_ts.query_new(l, s, n, off, e);
}
static inline void ts_query_delete(TSQuery *q) { folio_ts.query_delete(q); }
static inline uint32_t ts_query_capture_count(const TSQuery *q) { return folio_ts.query_capture_count(q); }
static inline const char *ts_query_capture_name_for_id(const TSQuery *q, uint32_t i, uint32_t *n) {
  return folio_ts.query_capture_name_for_id(q, i, n);
}
static inline uint32_t ts_query_pattern_count(const TSQuery *q) { return folio_ts.query_pattern_count(q); }
static inline uint32_t ts_query_start_byte_for_pattern(const TSQuery *q, uint32_t p) {
  return folio_ts.query_start_byte_for_pattern(q, p);
}
static inline const TSQueryPredicateStep *ts_query_predicates_for_pattern(const TSQuery *q, uint32_t p, uint32_t *n) {
  return folio_ts.query_predicates_for_pattern(q, p, n);
}
static inline const char *ts_query_string_value_for_id(const TSQuery *q, uint32_t i, uint32_t *n) {
  return folio_ts.query_string_value_for_id(q, i, n);
}
static inline TSParser *ts_parser_new(void) { return folio_ts.parser_new(); }
static inline void ts_parser_delete(TSParser *p) { folio_ts.parser_delete(p); }
static inline bool ts_parser_set_language(TSParser *p, const TSLanguage *l) { return folio_ts.parser_set_language(p, l); }
static inline void ts_parser_reset(TSParser *p) { folio_ts.parser_reset(p); }
static inline TSTree *ts_parser_parse_string(TSParser *p, const TSTree *old, const char *s, uint32_t n) {
  return folio_ts.parser_parse_string(p, old, s, n);
}
static inline void ts_parser_set_timeout_micros(TSParser *p, uint64_t us) { folio_ts.parser_set_timeout_micros(p, us); }
static inline void ts_tree_delete(TSTree *t) { folio_ts.tree_delete(t); }
static inline TSNode ts_tree_root_node(const TSTree *t) { return folio_ts.tree_root_node(t); }
static inline TSQueryCursor *ts_query_cursor_new(void) { return folio_ts.query_cursor_new(); }
static inline void ts_query_cursor_delete(TSQueryCursor *c) { folio_ts.query_cursor_delete(c); }
static inline void ts_query_cursor_exec(TSQueryCursor *c, const TSQuery *q, TSNode n) { folio_ts.query_cursor_exec(c, q, n); }
static inline bool ts_query_cursor_next_capture(TSQueryCursor *c, TSQueryMatch *m, uint32_t *i) {
  return folio_ts.query_cursor_next_capture(c, m, i);
}
static inline void ts_query_cursor_set_match_limit(TSQueryCursor *c, uint32_t n) { folio_ts.query_cursor_set_match_limit(c, n); }
static inline bool ts_query_cursor_did_exceed_match_limit(const TSQueryCursor *c) {
  return folio_ts.query_cursor_did_exceed_match_limit(c);
}
static inline void ts_query_cursor_set_timeout_micros(TSQueryCursor *c, uint64_t us) {
  folio_ts.query_cursor_set_timeout_micros(c, us);
}
static inline uint32_t ts_node_start_byte(TSNode n) { return folio_ts.node_start_byte(n); }
static inline uint32_t ts_node_end_byte(TSNode n) { return folio_ts.node_end_byte(n); }

#endif
