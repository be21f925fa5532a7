// Strategy: sonic-rs (SIMD JSON, ByteDance) with serde derive: to_vec of the typed structs, from_slice back to them,
// after a flat walk that refuses nesting deeper than sonic-rs's own serde limit (see nesting_within).

/// sonic-rs 0.5.10 limits its serde path to 255 levels, but the walk it makes to skip a value (an unknown field, or
/// an array or object where the schema wants another type, which it parses whole to name it in the error) recurses
/// without a limit: 100,000 `[` overflow the stack and abort the process (upstream cloudwego/sonic-rs#232, fix
/// proposed in #238, not released). So every decode first walks the bytes once, in a flat loop (timed too, as Go's
/// MessagePack walk is; its cost beside sonic-rs's SIMD parse is not measured), and refuses anything nested deeper
/// than that limit, which no catalogue is (it nests 6 deep).
const MAX_DEPTH: usize = 255;

fn nesting_within(b: &[u8], limit: usize) -> bool {
    let (mut depth, mut i) = (0usize, 0usize);
    while i < b.len() {
        match b[i] {
            b'"' => {
                // a string's brackets do not count: on to its closing quote, past escapes
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'[' | b'{' => {
                depth += 1;
                if depth > limit {
                    return false;
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    true
}

// Its errors quote the input around the fault over several lines: the refusal is one line (line breaks as spaces).
fn one_line(e: sonic_rs::Error) -> String {
    e.to_string()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

fn main() {
    formats_variants::main(
        |c| sonic_rs::to_vec(c).map_err(one_line),
        |b| {
            if !nesting_within(b, MAX_DEPTH) {
                return Err(format!("nested deeper than {MAX_DEPTH} levels"));
            }
            sonic_rs::from_slice(b).map_err(one_line)
        },
    )
}
