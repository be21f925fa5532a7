// Generates the Rust code of the suite's schemas at build time: ../schema/*.capnp with the capnpc crate
// (which runs Debian's `capnp` compiler; /capnp/c++.capnp, imported by the schemas for their C++ namespace,
// is found on capnp's standard import path /usr/include) and ../schema/*.proto with prost-build (Debian's
// `protoc`).
fn main() {
    let schemas = ["carsales", "catrank", "eval"];
    let mut capnp = capnpc::CompilerCommand::new();
    capnp.src_prefix("../schema").import_path("/usr/include");
    for s in schemas {
        capnp.file(format!("../schema/{s}.capnp"));
        println!("cargo:rerun-if-changed=../schema/{s}.capnp");
        println!("cargo:rerun-if-changed=../schema/{s}.proto");
    }
    capnp
        .run()
        .expect("compiling the capnp schemas (apt-get install capnproto libcapnp-dev)");
    let protos: Vec<String> = schemas
        .iter()
        .map(|s| format!("../schema/{s}.proto"))
        .collect();
    prost_build::compile_protos(&protos, &["../schema"])
        .expect("compiling the proto schemas (apt-get install protobuf-compiler)");
}
