// Text scores over the decimal alphabet: parse_score accepts exactly strtod's whole-field decimal
// grammar (written out here by hand, independently of the parser) and gives std's correctly
// rounded value.
use rdbparse::parse_score;

/// `[+-]? (digits [. digits?] | . digits) ([eE] [+-]? digits)?`, the whole string.
fn strtod_decimal(s: &[u8]) -> bool {
    let mut i = 0;
    let digits = |s: &[u8], mut i: usize| {
        let from = i;
        while i < s.len() && s[i].is_ascii_digit() {
            i += 1;
        }
        (i, i - from)
    };
    if i < s.len() && (s[i] == b'+' || s[i] == b'-') {
        i += 1;
    }
    let (j, whole) = digits(s, i);
    i = j;
    let mut frac = 0;
    if i < s.len() && s[i] == b'.' {
        let (j, n) = digits(s, i + 1);
        i = j;
        frac = n;
    }
    if whole + frac == 0 {
        return false;
    }
    if i < s.len() && (s[i] == b'e' || s[i] == b'E') {
        i += 1;
        if i < s.len() && (s[i] == b'+' || s[i] == b'-') {
            i += 1;
        }
        let (j, n) = digits(s, i);
        if n == 0 {
            return false;
        }
        i = j;
    }
    i == s.len()
}

#[test]
fn decimal_texts_follow_strtods_grammar() {
    let alphabet = b"0123456789..eE+-";
    let mut x: u64 = 0x2545_F491_4F6C_DD1D;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let (mut accepted, mut refused) = (0, 0);
    for _ in 0..300_000 {
        let len = (next() % 9) as usize;
        let s: Vec<u8> = (0..len)
            .map(|_| alphabet[(next() % alphabet.len() as u64) as usize])
            .collect();
        let text = String::from_utf8(s.clone()).unwrap();
        let got = parse_score(&s);
        assert_eq!(got.is_some(), strtod_decimal(&s), "{text:?}");
        if let Some(v) = got {
            assert_eq!(
                v.to_bits(),
                text.parse::<f64>().unwrap().to_bits(),
                "{text:?}"
            );
            accepted += 1;
        } else {
            refused += 1;
        }
    }
    assert!(
        accepted > 10_000 && refused > 10_000,
        "{accepted} {refused}"
    );
}

#[test]
fn long_and_odd_decimals() {
    for (text, want) in [
        ("123.45678901234568", 123.45678901234568f64),
        ("1.", 1.0),
        (".5", 0.5),
        ("1.e5", 1e5),
        ("-0", -0.0),
        ("1e400", f64::INFINITY),
        ("1e-400", 0.0),
    ] {
        assert_eq!(
            parse_score(text.as_bytes()).map(f64::to_bits),
            Some(want.to_bits()),
            "{text}"
        );
    }
    let long = format!("{}1e400", "0".repeat(396));
    assert_eq!(parse_score(long.as_bytes()), Some(f64::INFINITY));
    for bad in [
        "", ".", "+", "-.", "1e", "1e+", "--1", "+-1", "1..2", "1 ", " 1", "1x", "\u{e9}1",
    ] {
        assert_eq!(parse_score(bad.as_bytes()), None, "{bad:?}");
    }
    // not ASCII after a digit: refused before the text is handed to std as a str
    for bad in [&b"1\xe9"[..], b"12345678901234567890\xff", b"1.5\x80"] {
        assert_eq!(parse_score(bad), None, "{bad:?}");
    }
}

#[test]
fn score_hex_is_the_bits_in_lowercase_hex() {
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    for _ in 0..100_000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let v = f64::from_bits(x);
        let want = if v.is_nan() {
            "7ff8000000000000".to_string()
        } else {
            format!("{x:016x}")
        };
        assert_eq!(std::str::from_utf8(&rdbparse::score_hex(v)).unwrap(), want);
    }
    assert_eq!(&rdbparse::score_hex(1.5), b"3ff8000000000000");
    assert_eq!(&rdbparse::score_hex(-0.0), b"8000000000000000");
}
