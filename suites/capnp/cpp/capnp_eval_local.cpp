// Cap'n Proto C++ as cpp/capnp, but eval's recursive evaluator has internal linkage, so GCC passes the reader's fields in registers (upstream's copies the reader onto the stack at every call).
//
// usage: capnp-eval-local CASE CONFIG ITERS_FILE   (as cpp/capnp)
// The one difference from capnp.cpp: `static int32_t evaluate(Expression::Reader)`. With external linkage
// (upstream's evaluateExpression, and cpp/capnp) the x86-64 ABI passes the reader (a struct of pointers and sizes) in memory; a
// function local to the file may be rewritten by GCC's IPA-SRA (`evaluate [clone .isra.0]`) to take the
// fields it uses as scalar arguments. carsales and catrank run the same code as cpp/capnp.
#define CAPNP_EVAL_LOCAL 1
#include "capnp.cpp"
