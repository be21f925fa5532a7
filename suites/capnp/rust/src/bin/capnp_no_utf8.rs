// capnp crate 0.27 as `capnp`, but catrank reads its snippets without UTF-8 validation, as C++ does (the seed's "10% of catrank").
//
// usage: capnp-no-utf8 CASE CONFIG ITERS_FILE   (see capnprace::parse_args; the cases are in capnp_bench.rs)
// Only catrank's handling differs from `capnp`: the snippet bytes are viewed as str with
// from_utf8_unchecked instead of Text::to_str (which validates). carsales and eval run the same code as
// `capnp` and show the noise between two identical programs.

fn main() {
    capnprace::capnp_bench::main_with("capnp-no-utf8", &mut capnprace::capnp_bench::Copying, false);
}
