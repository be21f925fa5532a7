// capnp crate 0.27 as `capnp`, but catrank builds every snippet in one String kept for the request instead of a fresh String per result (upstream's).
//
// usage: capnp-reuse-string CASE CONFIG ITERS_FILE   (see capnprace::parse_args; the cases are in capnp_bench.rs)
// Only catrank's request building differs from `capnp`: `snippet.clear()` and reuse where upstream's Rust
// writes `let mut snippet = " ".to_string();` per result (an allocation and a free per result, about 500
// per request). carsales and eval run the same code as `capnp` and show the noise between two identical
// programs.

fn main() {
    capnprace::capnp_bench::main_with_snippets(
        "capnp-reuse-string",
        &mut capnprace::capnp_bench::Copying,
        true,
        true,
    );
}
