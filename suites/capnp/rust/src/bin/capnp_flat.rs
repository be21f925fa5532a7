// capnp crate 0.27 with readers that never allocate: unpacked bytes read in place (flat slice, zero copy), packed and piped messages into one kept buffer.
//
// usage: capnp-flat CASE CONFIG ITERS_FILE   (see capnprace::parse_args; the cases are in capnp_bench.rs)
// bytes: serialize::read_message_from_flat_slice_no_alloc reads the request and response where they were
// written; bytes-packed and pipe: serialize(_packed)::read_message_no_alloc fills one 1 MiB word buffer kept
// for the whole run (what C++ does with reader scratch space). Builders as in `capnp` (reuse = scratch).

fn main() {
    let mut reading = capnprace::capnp_bench::Flat::default();
    capnprace::capnp_bench::main_with("capnp-flat", &mut reading, true);
}
