// folio's own schema.core.c for tree-sitter-yaml's scanner (which includes it, while no
// package on PyPI carries it). It classifies a plain scalar under the YAML 1.2 core schema,
// one character at a time, as the scanner reads it:
//   null   ~ null Null NULL
//   bool   true True TRUE false False FALSE
//   int    [-+]?[0-9]+  0o[0-7]+  0x[0-9a-fA-F]+
//   float  [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?  [-+]?\.(inf|Inf|INF)  \.(nan|NaN|NAN)
// anything else is a string. Interface (what scanner.c uses): ResultSchema with RS_STR,
// RS_NULL, RS_BOOL, RS_INT, RS_FLOAT; SCH_STT_FRZ, the state that stays a string; and
// adv_sch_stt(state, next character, &result) -> next state, starting from state 0.
// Whitespace is handed over too (between the words of a multi-word scalar): the result so far
// stands until something other than whitespace follows, which makes it a string.
// MIT, as the rest of folio.

#include <stdint.h>

typedef enum { RS_STR, RS_NULL, RS_BOOL, RS_INT, RS_FLOAT } ResultSchema;

#define SCH_STT_FRZ -1

// Keyword states: 1 + 6 * keyword + characters matched (1...5).
static const char *const sch_kws[] = {
    "~", "null", "Null", "NULL", "true", "True", "TRUE", "false", "False", "FALSE",
    ".inf", ".Inf", ".INF", ".nan", ".NaN", ".NAN",
};
static const ResultSchema sch_kw_rs[] = {
    RS_NULL, RS_NULL, RS_NULL, RS_NULL, RS_BOOL, RS_BOOL, RS_BOOL, RS_BOOL, RS_BOOL, RS_BOOL,
    RS_FLOAT, RS_FLOAT, RS_FLOAT, RS_FLOAT, RS_FLOAT, RS_FLOAT,
};
#define SCH_KW_COUNT 16
#define SCH_KW_INF 10  // the first .inf keyword; a sign allows only these three
// Number states.
enum {
    SCH_SIGN = 100,  // + or -
    SCH_ZERO,        // 0
    SCH_INT,         // digits
    SCH_OCT0, SCH_OCT, SCH_HEX0, SCH_HEX,
    SCH_DOT,         // . at the start: .5 or .inf/.nan
    SCH_SIGN_DOT,    // +. or -.: .5 or .inf
    SCH_FRAC,        // digits then . and digits
    SCH_EXP, SCH_EXP_SIGN, SCH_EXP_DIG,
    SCH_SPACE,       // whitespace after a scalar: the result stands until a non-space
};

static int sch_is_digit(int32_t c) { return c >= '0' && c <= '9'; }
static int sch_is_space(int32_t c) { return c == ' ' || c == '\t'; }
static int sch_len(const char *s) { int n = 0; while (s[n]) n++; return n; }

// The keyword state after `c`, for a prefix of `matched` characters shared by the keywords
// `first` ..< `last`; SCH_STT_FRZ when none continues with `c`.
static int8_t sch_kw_step(int first, int last, int matched, const char *prefix, int32_t c, ResultSchema *rs) {
    for (int k = first; k < last; k++) {
        const char *kw = sch_kws[k];
        int same = 1;
        for (int i = 0; i < matched; i++) if (kw[i] != prefix[i]) { same = 0; break; }
        if (!same || sch_len(kw) <= matched || kw[matched] != c) continue;
        *rs = sch_len(kw) == matched + 1 ? sch_kw_rs[k] : RS_STR;
        return (int8_t)(1 + 6 * k + matched + 1);
    }
    *rs = RS_STR;
    return SCH_STT_FRZ;
}

static int8_t adv_sch_stt(int8_t sch_stt, int32_t c, ResultSchema *rs) {
    if (sch_stt == SCH_STT_FRZ) { *rs = RS_STR; return SCH_STT_FRZ; }
    if (sch_is_space(c)) {
        // The result so far stands (the scanner leaves trailing space out of the scalar).
        return sch_stt == 0 ? SCH_STT_FRZ : SCH_SPACE;
    }
    if (sch_stt == SCH_SPACE) { *rs = RS_STR; return SCH_STT_FRZ; }
    if (sch_stt >= 1 && sch_stt < 1 + 6 * SCH_KW_COUNT) {
        int k = (sch_stt - 1) / 6, matched = (sch_stt - 1) % 6;
        return sch_kw_step(k, SCH_KW_COUNT, matched, sch_kws[k], c, rs);
    }
    switch (sch_stt) {
    case 0:
        if (c == '+' || c == '-') { *rs = RS_STR; return SCH_SIGN; }
        if (c == '0') { *rs = RS_INT; return SCH_ZERO; }
        if (sch_is_digit(c)) { *rs = RS_INT; return SCH_INT; }
        if (c == '.') { *rs = RS_STR; return SCH_DOT; }
        return sch_kw_step(0, SCH_KW_COUNT, 0, "", c, rs);
    case SCH_SIGN:
        if (sch_is_digit(c)) { *rs = RS_INT; return SCH_INT; }
        if (c == '.') { *rs = RS_STR; return SCH_SIGN_DOT; }
        break;
    case SCH_ZERO:
        if (c == 'o') { *rs = RS_STR; return SCH_OCT0; }
        if (c == 'x') { *rs = RS_STR; return SCH_HEX0; }
        // fall through: 0 is an integer like any other
    case SCH_INT:
        if (sch_is_digit(c)) { *rs = RS_INT; return SCH_INT; }
        if (c == '.') { *rs = RS_FLOAT; return SCH_FRAC; }
        if (c == 'e' || c == 'E') { *rs = RS_STR; return SCH_EXP; }
        break;
    case SCH_OCT0:
    case SCH_OCT:
        if (c >= '0' && c <= '7') { *rs = RS_INT; return SCH_OCT; }
        break;
    case SCH_HEX0:
    case SCH_HEX:
        if (sch_is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')) { *rs = RS_INT; return SCH_HEX; }
        break;
    case SCH_DOT:
        if (sch_is_digit(c)) { *rs = RS_FLOAT; return SCH_FRAC; }
        return sch_kw_step(SCH_KW_INF, SCH_KW_COUNT, 1, ".", c, rs);
    case SCH_SIGN_DOT:
        if (sch_is_digit(c)) { *rs = RS_FLOAT; return SCH_FRAC; }
        return sch_kw_step(SCH_KW_INF, SCH_KW_INF + 3, 1, ".", c, rs);
    case SCH_FRAC:
        if (sch_is_digit(c)) { *rs = RS_FLOAT; return SCH_FRAC; }
        if (c == 'e' || c == 'E') { *rs = RS_STR; return SCH_EXP; }
        break;
    case SCH_EXP:
        if (c == '+' || c == '-') { *rs = RS_STR; return SCH_EXP_SIGN; }
        // fall through
    case SCH_EXP_SIGN:
    case SCH_EXP_DIG:
        if (sch_is_digit(c)) { *rs = RS_FLOAT; return SCH_EXP_DIG; }
        break;
    }
    *rs = RS_STR;
    return SCH_STT_FRZ;
}
