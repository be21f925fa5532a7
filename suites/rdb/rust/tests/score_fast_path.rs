// The parser's fast path for short decimal scores gives exactly what the full decimal parser gives.
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
        // 1..17 digits (the fast path takes up to 15), a dot somewhere or none, a sign or none
        let digits = 1 + (next() % 17) as usize;
        let mut s: String = (0..digits)
            .map(|_| (b'0' + (next() % 10) as u8) as char)
            .collect();
        if next() % 3 != 0 {
            let at = 1 + (next() as usize) % s.len();
            if at < s.len() {
                s.insert(at, '.');
            }
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
