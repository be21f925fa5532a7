// Strategy: the Rust cells' libraries on any JSON file, no schema: serde_json::from_slice into a Value, then the sizes
// of rmp_serde::to_vec (rmp-serde, the MessagePack cell's) and ciborium::into_writer (the CBOR cell's) of it. Not a
// cell (no catalogue, clock or digest): docs/results/2026-11-28-schemaless-sizes/sizes_check.py runs it on the
// real corpus files. `schemaless_sizes FILE` prints `format<TAB>bytes` lines.
fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 2 {
        eprintln!("error: usage: schemaless_sizes FILE.json");
        std::process::exit(2);
    }
    let result = (|| -> Result<(usize, usize), String> {
        let raw = std::fs::read(&args[1]).map_err(|e| format!("{}: {e}", args[1]))?;
        let value: serde_json::Value = serde_json::from_slice(&raw).map_err(|e| e.to_string())?;
        let msgpack = rmp_serde::to_vec(&value).map_err(|e| e.to_string())?;
        let mut cbor = Vec::new();
        ciborium::into_writer(&value, &mut cbor).map_err(|e| e.to_string())?;
        Ok((msgpack.len(), cbor.len()))
    })();
    match result {
        Ok((msgpack, cbor)) => println!("msgpack\t{msgpack}\ncbor\t{cbor}"),
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    }
}
