// Strategy: bitcode (serde, its own packed wire: the values of each field gathered column-wise and bit-packed) of
// the typed structs into a new Vec (bitcode::serialize), bitcode::deserialize back to them. Rust's own format,
// read only by this program: not in the interop matrix (README, "Native formats").
fn main() {
    formats_variants::main(
        |c| bitcode::serialize(c).map_err(|e| e.to_string()),
        |b| bitcode::deserialize(b).map_err(|e| e.to_string()),
    )
}
