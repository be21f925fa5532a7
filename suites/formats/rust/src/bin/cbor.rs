// Strategy: ciborium with serde derive: into_writer (structs as maps keyed by field name, ints in their
// shortest head) of the typed structs into a new Vec, from_reader back to them (its default recursion limit).
fn main() {
    formats_variants::main(
        |c| {
            let mut out = Vec::new();
            ciborium::into_writer(c, &mut out).map_err(|e| e.to_string())?;
            Ok(out)
        },
        |b| ciborium::from_reader(b).map_err(|e| e.to_string()),
    )
}
