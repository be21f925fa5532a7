// Generates the protobuf program's Rust types from ../proto/catalogue.proto at build time with prost-build
// 0.14.4 (the generator and the prost runtime are one release, pinned together in Cargo.toml), which runs
// Debian's `protoc` only to parse the schema into descriptors: the code is prost's own. Maps are generated as
// BTreeMap (prost's default is HashMap), the plain types' maps, so a decoded map is moved, not rebuilt.
// Runs for every program of the crate; json and msgpack do not use the output.
fn main() {
    println!("cargo:rerun-if-changed=../proto/catalogue.proto");
    prost_build::Config::new()
        .btree_map(["."])
        .compile_protos(&["../proto/catalogue.proto"], &["../proto"])
        .expect("compiling ../proto/catalogue.proto (apt-get install protobuf-compiler)");
}
