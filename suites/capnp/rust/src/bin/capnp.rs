// capnp crate 0.27 as upstream's capnproto-rust benchmark/ uses it: copying reader (OwnedSegments), reuse = builders in scratch space.
//
// usage: capnp CASE CONFIG ITERS_FILE   (see capnprace::parse_args; the cases are in capnp_bench.rs)
// Every message read back (bytes and pipe configs) is copied into segments allocated for it by
// serialize::read_message / serialize_packed::read_message; catrank's snippets are validated as UTF-8
// (Text::to_str) before they are searched, as the Rust original does.

fn main() {
    capnprace::capnp_bench::main_with("capnp", &mut capnprace::capnp_bench::Copying, true);
}
