// Loads tree-sitter's runtime (see CTreeSitter.h): the one place its symbols are looked up.
#include "CTreeSitter.h"
#include <dlfcn.h>
#include <string.h>

FolioTreeSitter folio_ts;
static bool loaded;

bool folio_ts_loaded(void) { return loaded; }
uint32_t folio_ts_abi_min(void) { return folio_ts.abi_min; }
uint32_t folio_ts_abi_max(void) { return folio_ts.abi_max; }

const char *folio_ts_load(const char *path) {
  if (loaded) return NULL;
  void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!handle) return "cannot be loaded";
  const char *(*version)(void) = (const char *(*)(void))dlsym(handle, "folio_tree_sitter_runtime_version");
  uint32_t (*abi_min)(void) = (uint32_t (*)(void))dlsym(handle, "folio_tree_sitter_abi_min");
  uint32_t (*abi_max)(void) = (uint32_t (*)(void))dlsym(handle, "folio_tree_sitter_abi_max");
  if (!version || !abi_min || !abi_max || strcmp(version(), FOLIO_TREE_SITTER_RUNTIME) != 0) {
    dlclose(handle);
    return "is not the runtime version folio was written for (" FOLIO_TREE_SITTER_RUNTIME ")";
  }
  FolioTreeSitter t;
  memset(&t, 0, sizeof t);
  // Every entry, or none: a missing symbol leaves the table empty.
#define LOOK(field, name) \
  if (!(*(void **)&t.field = dlsym(handle, name))) { dlclose(handle); return "lacks " name; }
  LOOK(language_version, "ts_language_version")
  LOOK(query_new, "ts_query_new")
  LOOK(query_delete, "ts_query_delete")
  LOOK(query_capture_count, "ts_query_capture_count")
  LOOK(query_capture_name_for_id, "ts_query_capture_name_for_id")
  LOOK(query_pattern_count, "ts_query_pattern_count")
  LOOK(query_start_byte_for_pattern, "ts_query_start_byte_for_pattern")
  LOOK(query_predicates_for_pattern, "ts_query_predicates_for_pattern")
  LOOK(query_string_value_for_id, "ts_query_string_value_for_id")
  LOOK(parser_new, "ts_parser_new")
  LOOK(parser_delete, "ts_parser_delete")
  LOOK(parser_set_language, "ts_parser_set_language")
  LOOK(parser_reset, "ts_parser_reset")
  LOOK(parser_parse_string, "ts_parser_parse_string")
  LOOK(parser_set_timeout_micros, "ts_parser_set_timeout_micros")
  LOOK(tree_delete, "ts_tree_delete")
  LOOK(tree_root_node, "ts_tree_root_node")
  LOOK(query_cursor_new, "ts_query_cursor_new")
  LOOK(query_cursor_delete, "ts_query_cursor_delete")
  LOOK(query_cursor_exec, "ts_query_cursor_exec")
  LOOK(query_cursor_next_capture, "ts_query_cursor_next_capture")
  LOOK(query_cursor_set_match_limit, "ts_query_cursor_set_match_limit")
  LOOK(query_cursor_did_exceed_match_limit, "ts_query_cursor_did_exceed_match_limit")
  LOOK(query_cursor_set_timeout_micros, "ts_query_cursor_set_timeout_micros")
  LOOK(node_start_byte, "ts_node_start_byte")
  LOOK(node_end_byte, "ts_node_end_byte")
#undef LOOK
  t.abi_min = abi_min();
  t.abi_max = abi_max();
  folio_ts = t;
  loaded = true;  // the handle stays open for the life of the process
  return NULL;
}
