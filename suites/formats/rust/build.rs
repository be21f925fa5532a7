// Generates the protobuf program's Rust types from ../proto/catalogue.proto at build time with prost-build
// 0.14.4 (the generator and the prost runtime are one release, pinned together in Cargo.toml), which runs
// Debian's `protoc` only to parse the schema into descriptors: the code is prost's own. Maps are generated as
// BTreeMap (prost's default is HashMap), the plain types' maps, so a decoded map is moved, not rebuilt.
// The capnp program's types come from ../capnp/catalogue.capnp through capnpc 0.27 (the runtime's release),
// which runs Debian's `capnp compile` (0.9.2) to parse the schema (its /capnp/c++.capnp import from /usr/include); the Rust code is capnpc's own.
// Runs for every program of the crate; json and msgpack do not use the output.
fn main() {
    println!("cargo:rerun-if-changed=../capnp/catalogue.capnp");
    capnpc::CompilerCommand::new()
        .src_prefix("../capnp")
        .import_path("/usr/include") // /capnp/c++.capnp, imported for the C++ namespace
        .file("../capnp/catalogue.capnp")
        .run()
        .expect("compiling ../capnp/catalogue.capnp (apt-get install capnproto)");
    println!("cargo:rerun-if-changed=../proto/catalogue.proto");
    prost_build::Config::new()
        .btree_map(["."])
        .compile_protos(&["../proto/catalogue.proto"], &["../proto"])
        .expect("compiling ../proto/catalogue.proto (apt-get install protobuf-compiler)");
}
