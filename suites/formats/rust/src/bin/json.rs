// Strategy: serde_json with serde derive: to_vec of the typed structs (BTreeMap for maps), from_slice back to them.
fn main() {
    formats_variants::main(
        |c| serde_json::to_vec(c).map_err(|e| e.to_string()),
        |b| serde_json::from_slice(b).map_err(|e| e.to_string()),
    )
}
