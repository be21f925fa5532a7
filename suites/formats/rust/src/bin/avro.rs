// Strategy: apache-avro 0.21.0 through serde: write_avro_datum_ref (its schema-aware serializer, no Value) of the
// typed structs against avro/catalogue.avsc (compiled in, parsed once, untimed) into a new Vec; decode: a flat
// walk of the bytes against the schema first (every block count and string length checked against the bytes left,
// the datum ending at the last byte: apache-avro reserves a block's claimed count of Values before reading one),
// then from_avro_datum to a Value (writer schema == reader schema) and from_value to the typed structs.
use apache_avro::schema::Schema;
use formats_variants::Catalog;

const SCHEMA: &str = include_str!("../../../avro/catalogue.avsc");

fn one_line(e: impl std::fmt::Display) -> String {
    e.to_string().replace(['\n', '\r'], " ")
}

/// Avro's zigzag varint (at most 10 bytes), at *at.
fn long(b: &[u8], at: &mut usize) -> Result<i64, String> {
    let mut v: u64 = 0;
    for shift in (0..70).step_by(7) {
        let byte = *b.get(*at).ok_or("a long past the end")?;
        *at += 1;
        if shift == 63 && byte > 1 {
            return Err("a long of more than 64 bits".into());
        }
        v |= u64::from(byte & 0x7f) << shift;
        if byte < 0x80 {
            return Ok((v >> 1) as i64 ^ -((v & 1) as i64));
        }
    }
    Err("a long of more than 10 bytes".into())
}

/// A length or count: not negative, no more than the bytes left (every item of this schema takes a byte at least).
fn size(b: &[u8], at: &mut usize, what: &str) -> Result<usize, String> {
    let n = long(b, at)?;
    let left = b.len() - *at;
    if n < 0 || n as u64 > left as u64 {
        return Err(format!("{what} of {n} at byte {at} with {left} bytes left"));
    }
    Ok(n as usize)
}

fn string(b: &[u8], at: &mut usize) -> Result<(), String> {
    let n = size(b, at, "a string")?;
    std::str::from_utf8(&b[*at..*at + n]).map_err(|e| format!("a string at byte {at}: {e}"))?;
    *at += n;
    Ok(())
}

/// Blocks of an array or a map: a count (a negative count is followed by the block's size in bytes), then its
/// items, until a count of 0.
fn blocks(s: &Schema, b: &[u8], at: &mut usize, map: bool) -> Result<(), String> {
    loop {
        let mut n = long(b, at)?;
        if n == 0 {
            return Ok(());
        }
        if n < 0 {
            n = n.checked_neg().ok_or("a block count of -2^63")?;
            size(b, at, "a block's size")?;
        }
        let left = b.len() - *at;
        if n as u64 > left as u64 {
            return Err(format!(
                "a block of {n} items at byte {at} with {left} bytes left"
            ));
        }
        for _ in 0..n {
            if map {
                string(b, at)?;
            }
            walk(s, b, at)?;
        }
    }
}

/// The datum's bytes walked against the schema (the kinds this schema uses), nothing built.
fn walk(s: &Schema, b: &[u8], at: &mut usize) -> Result<(), String> {
    match s {
        Schema::Null => Ok(()),
        Schema::Long => long(b, at).map(|_| ()),
        Schema::String => string(b, at),
        Schema::Array(a) => blocks(&a.items, b, at, false),
        Schema::Map(m) => blocks(&m.types, b, at, true),
        Schema::Union(u) => {
            let i = long(b, at)?;
            let branch = usize::try_from(i).ok().and_then(|i| u.variants().get(i));
            walk(
                branch.ok_or_else(|| format!("union branch {i} at byte {at}"))?,
                b,
                at,
            )
        }
        Schema::Record(r) => r.fields.iter().try_for_each(|f| walk(&f.schema, b, at)),
        other => Err(format!(
            "a schema kind the catalogue does not use: {other:?}"
        )),
    }
}

fn main() {
    let schema = Schema::parse_str(SCHEMA).unwrap_or_else(|e| {
        eprintln!("error: avro/catalogue.avsc: {}", one_line(e));
        std::process::exit(1)
    });
    formats_variants::main(
        |c| {
            let mut out = Vec::new();
            apache_avro::write_avro_datum_ref(&schema, c, &mut out).map_err(one_line)?;
            Ok(out)
        },
        |b| {
            let mut at = 0;
            walk(&schema, b, &mut at)?;
            if at != b.len() {
                return Err(format!("{} bytes after the datum", b.len() - at));
            }
            let mut r = b;
            let v = apache_avro::from_avro_datum(&schema, &mut r, None).map_err(one_line)?;
            apache_avro::from_value::<Catalog>(&v).map_err(one_line)
        },
    )
}
