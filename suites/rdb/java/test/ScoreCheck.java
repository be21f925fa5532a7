import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/** RdbParser's score texts against Double.parseDouble, bit for bit (suites/rdb/tests/test_rdb.py runs it):
 *  parseScore (its Clinger, Eisel-Lemire and parseDouble paths) and exactScore (the 128-bit quotient that
 *  Eisel-Lemire falls back to) on random 1-19 digit mantissas with random decimal points, %.17g renderings (as C
 *  writes them) of random finite doubles, of tiny and of huge ones, halfway cases between adjacent doubles and
 *  their neighbours, and fixed edges. usage: java ScoreCheck [N [SEED]]: N texts of each random kind
 *  (default 1,000,000). Prints "ScoreCheck: ok, K texts" and exits 0, else the first mismatches and exits 1. */
public class ScoreCheck {
    static long checked, failed;

    static void check(String text) {
        checked++;
        byte[] b = text.getBytes(StandardCharsets.ISO_8859_1);
        long want = Double.doubleToRawLongBits(Double.parseDouble(text));
        long got;
        try {
            got = Double.doubleToRawLongBits(RdbParser.parseScore(b, 0, b.length));
        } catch (RdbParser.BadScore e) {
            fail(text, "parseScore threw BadScore", want, 0);
            return;
        }
        if (got != want) fail(text, "parseScore", want, got);
        // the fallback, on the plain texts Eisel-Lemire takes (16-19 digits, no exponent)
        boolean minus = text.startsWith("-");
        String body = minus ? text.substring(1) : text;
        if (!body.matches("[0-9]+(\\.[0-9]+)?")) return;
        int dot = body.indexOf('.');
        String digits = dot < 0 ? body : body.substring(0, dot) + body.substring(dot + 1);
        if (digits.length() < 16 || digits.length() > 19) return;
        long mant = Long.parseUnsignedLong(digits);
        int frac = dot < 0 ? 0 : body.length() - dot - 1;
        try {
            long exact = Double.doubleToRawLongBits(RdbParser.exactScore(b, 0, b.length, mant, frac, minus));
            if (exact != want) fail(text, "exactScore", want, exact);
        } catch (RdbParser.BadScore e) {
            fail(text, "exactScore threw BadScore", want, 0);
        }
    }

    static void fail(String text, String what, long want, long got) {
        if (failed++ < 20)
            System.out.printf("MISMATCH %s: %s -> %s (%016x), parseDouble %s (%016x)%n", what, text,
                    Double.longBitsToDouble(got), got, Double.longBitsToDouble(want), want);
    }

    /** x as C's printf("%.17g") writes it (glibc: the exact binary value rounded half-even to 17 digits,
     *  trailing zeros dropped, an exponent of two digits at least when outside [-4, 17)). */
    static String g17(double x) {
        if (x == 0) return Double.doubleToRawLongBits(x) < 0 ? "-0" : "0";
        BigDecimal d = new BigDecimal(x).round(new MathContext(17, RoundingMode.HALF_EVEN));
        int exp = d.precision() - d.scale() - 1; // the decimal exponent of the rounded value
        if (exp >= -4 && exp < 17) {
            String s = d.setScale(Math.max(16 - exp, 0), RoundingMode.UNNECESSARY).stripTrailingZeros().toPlainString();
            return s;
        }
        BigDecimal m = d.stripTrailingZeros();
        String digits = m.unscaledValue().abs().toString();
        StringBuilder s = new StringBuilder();
        if (x < 0) s.append('-');
        s.append(digits.charAt(0));
        if (digits.length() > 1) s.append('.').append(digits, 1, digits.length());
        s.append('e').append(exp < 0 ? '-' : '+');
        if (Math.abs(exp) < 10) s.append('0');
        return s.append(Math.abs(exp)).toString();
    }

    static String randomPlain(SplittableRandom r) {
        int n = 1 + r.nextInt(19);
        StringBuilder s = new StringBuilder();
        if (r.nextBoolean()) s.append('-');
        int point = n == 1 || r.nextInt(4) == 0 ? -1 : 1 + r.nextInt(n - 1); // digits before the point
        for (int i = 0; i < n; i++) {
            if (i == point) s.append('.');
            s.append((char) ('0' + r.nextInt(10)));
        }
        return s.toString();
    }

    static double randomFinite(SplittableRandom r) {
        while (true) {
            double x = Double.longBitsToDouble(r.nextLong());
            if (!Double.isNaN(x) && !Double.isInfinite(x)) return x;
        }
    }

    /** The halfway point between x and its upper neighbour, plain, and its neighbours in the text's last digit. */
    static void halfway(double x) {
        BigDecimal h = new BigDecimal(x).add(new BigDecimal(Math.ulp(x)).divide(BigDecimal.valueOf(2)));
        BigDecimal unit = BigDecimal.ONE.movePointLeft(Math.max(h.scale(), 0));
        for (BigDecimal v : new BigDecimal[] {h, h.add(unit), h.subtract(unit)}) {
            String t = v.toPlainString();
            check(t);
            check("-" + t);
        }
    }

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        SplittableRandom r = new SplittableRandom(args.length > 1 ? Long.parseLong(args[1]) : 20261124L);
        String[] edges = {"0", "-0", "0.0", "-0.0000000000000000", "1", "9007199254740992", "9007199254740993",
            "9007199254740995", "4503599627370496.5", "4503599627370497.5", "2251799813685248.25",
            "1125899906842624.125", "9223372036854775807", "9223372036854775808", "9999999999999999999",
            "18446744073709551615", "99999999999999999999", "0.000000000000000001", "0.100000000000000000",
            "0.1000000000000000055511151231257827", "1.7976931348623157e308", "4.9406564584124654e-324",
            "2.2250738585072014e-308", "123.45678901234567", "999.99999999999989", "1e22", "1e23"};
        for (String e : edges) {
            check(e);
            if (!e.startsWith("-")) check("-" + e);
        }
        for (int i = 0; i < n; i++) check(randomPlain(r));
        for (int i = 0; i < n; i++) check(g17(randomFinite(r)));
        for (int i = 0; i < n / 4; i++) check(g17(r.nextDouble() * 1000)); // the seed dump's scores
        for (int i = 0; i < n / 20; i++) { // tiny (subnormal and the smallest normals) and huge
            check(g17(Double.longBitsToDouble(r.nextLong(0x0030000000000000L))));
            check(g17(Double.longBitsToDouble(0x7FEFFFFFFFFFFFFFL - r.nextLong(0x0030000000000000L))));
        }
        // halfway cases: plain up to 19 digits from 2^50 to 10^19 (Eisel-Lemire's ties), longer below
        for (int i = 0; i < n / 10; i++) {
            double x = Math.scalb(1 + r.nextDouble(), 40 + r.nextInt(23));
            halfway(x);
        }
        System.out.printf("ScoreCheck: %s, %d texts%n", failed == 0 ? "ok" : failed + " MISMATCHES", checked);
        System.exit(failed == 0 ? 0 : 1);
    }
}
