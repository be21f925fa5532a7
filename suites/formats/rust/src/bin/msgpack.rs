// Strategy: rmp-serde with serde derive: to_vec_named (structs as maps keyed by field name, as every other
// language writes them) of the typed structs, from_slice back to them.
fn main() {
    formats_variants::main(
        |c| rmp_serde::to_vec_named(c).map_err(|e| e.to_string()),
        |b| rmp_serde::from_slice(b).map_err(|e| e.to_string()),
    )
}
