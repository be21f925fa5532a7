// The parser's fast path for short decimal scores (up to 19 digits, no exponent: Clinger's division or
// an exact 128-bit quotient rounded by hand) gives exactly what std's correctly rounded parse gives.
use rdbparse::parse_score;

#[test]
fn short_decimals_match_the_correctly_rounded_parse() {
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let mut compared = 0;
    for _ in 0..200_000 {
        // 1..21 digits (the fast path takes up to 19), a dot somewhere or none, a sign or none,
        // leading zeros now and then (small values: the quotient's widest shifts)
        let digits = 1 + (next() % 21) as usize;
        let mut s: String = (0..digits)
            .map(|_| (b'0' + (next() % 10) as u8) as char)
            .collect();
        if next() % 3 != 0 {
            let at = 1 + (next() as usize) % s.len();
            if at < s.len() {
                s.insert(at, '.');
            }
        }
        if next() % 5 == 0 {
            let zeros = (next() % 19) as usize;
            s = format!("0.{}{}", "0".repeat(zeros), s.replace('.', ""));
        }
        if next() % 4 == 0 {
            s.insert(0, '-');
        }
        let want = s.parse::<f64>().unwrap();
        let got = parse_score(s.as_bytes()).unwrap_or_else(|| panic!("{s} rejected"));
        assert_eq!(got.to_bits(), want.to_bits(), "{s}");
        compared += 1;
    }
    assert_eq!(compared, 200_000);
}

#[test]
fn halfway_cases_round_to_even() {
    // Exact midpoints between two neighbouring doubles that fit in 19 digits: odd / 2^(j+1) for an
    // odd numerator just above 2^53... written in decimal, j+1 digits after the point. Half of
    // them round down (even below) and half up; one wrong tie rule fails them.
    let mut compared = 0;
    for j in 0..3u32 {
        for k in 0..2_000u64 {
            let odd = (1u64 << 53) + 2 * k + 1; // a midpoint at the scale 2^-(j+1)
            let scale = 10u64.pow(j + 1) / 2u64.pow(j + 1); // 5^(j+1): odd / 2^(j+1) = odd * 5^(j+1) / 10^(j+1)
            let digits = (odd as u128 * scale as u128).to_string();
            let (int, frac) = digits.split_at(digits.len() - (j as usize + 1));
            let text = format!("{int}.{frac}");
            let want = text.parse::<f64>().unwrap();
            let got = parse_score(text.as_bytes()).unwrap();
            assert_eq!(got.to_bits(), want.to_bits(), "{text}");
            compared += 1;
        }
    }
    assert_eq!(compared, 6_000);
}
