// Strategy: postcard (serde, its own compact wire: varint lengths and zigzag varint ints, structs as their fields
// in order with no names) of the typed structs into a new Vec (to_stdvec), from_bytes back to them. Rust's own
// format, read only by this program: not in the interop matrix (README, "Native formats").
fn main() {
    formats_variants::main(
        |c| postcard::to_stdvec(c).map_err(|e| e.to_string()),
        |b| postcard::from_bytes(b).map_err(|e| e.to_string()),
    )
}
