/* Not a variant: the in-place half of the libFuzzer target (fuzz_parse.c), rdbparse.h as c/inplace.c builds it. */
#define SRC_IN_PLACE 1
#define FZ_PARSE fz_parse_in_place
#define FZ_MAIN rdb_main_in_place
#include "fuzz_one.h"
