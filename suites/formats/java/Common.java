// Shared by the formats Java programs: the catalogue's plain types (public fields, TreeMap maps, null
// optionals), the canon stream and its digest (the suite's README), and the driver: the untimed set-up, the
// timed passes, the result line, and the --emit / --decode modes of the interop check.
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

final class Common {
  public static final class Event {
    public long id;
    public String name;
    public String description;
    public String logo;
    public List<Long> subTopicIds = new ArrayList<>();
    public List<Long> topicIds = new ArrayList<>();
  }

  public static final class Price {
    public long amount;
    public long audienceSubCategoryId;
    public long seatCategoryId;
  }

  public static final class Area {
    public long areaId;
    public List<Long> blockIds = new ArrayList<>();
  }

  public static final class SeatCategory {
    public long seatCategoryId;
    public List<Area> areas = new ArrayList<>();
  }

  public static final class Performance {
    public long id;
    public long eventId;
    public String name;
    public String logo;
    public long start;
    public String venueCode;
    public List<Price> prices = new ArrayList<>();
    public List<SeatCategory> seatCategories = new ArrayList<>();
  }

  public static final class Catalog {
    public TreeMap<String, String> areaNames = new TreeMap<>();
    public TreeMap<String, Event> events = new TreeMap<>();
    public List<Performance> performances = new ArrayList<>();
    public TreeMap<String, List<Long>> topicSubTopics = new TreeMap<>();
    public TreeMap<String, String> venueNames = new TreeMap<>();
  }

  interface Encode {
    byte[] apply(Catalog c) throws Exception;
  }

  interface Decode {
    Catalog apply(byte[] b) throws Exception;
  }

  /** A zero-copy format's read: bytes -> the visit checksum (README), no plain objects built. */
  interface Read {
    long apply(byte[] b) throws Exception;
  }

  private static final class Canon {
    final ByteArrayOutputStream out = new ByteArrayOutputStream();

    void i64(long v) {
      for (int i = 0; i < 8; i++) out.write((int) (v >>> (8 * i)));
    }

    void count(int n) {
      for (int i = 0; i < 4; i++) out.write(n >>> (8 * i));
    }

    void str(String s) {
      byte[] b = s.getBytes(StandardCharsets.UTF_8);
      count(b.length);
      out.write(b, 0, b.length);
    }

    void opt(String s) {
      out.write(s == null ? 0 : 1);
      if (s != null) str(s);
    }

    void ints(List<Long> v) {
      count(v.size());
      for (long x : v) i64(x);
    }

    // The canon orders a map by its keys' UTF-8 bytes (a TreeMap orders by UTF-16 units).
    <V> List<Map.Entry<String, V>> entries(Map<String, V> m) {
      count(m.size());
      List<Map.Entry<String, V>> list = new ArrayList<>(m.entrySet());
      list.sort((a, b) -> Arrays.compareUnsigned(
          a.getKey().getBytes(StandardCharsets.UTF_8), b.getKey().getBytes(StandardCharsets.UTF_8)));
      return list;
    }

    void strings(Map<String, String> m) {
      for (Map.Entry<String, String> e : entries(m)) {
        str(e.getKey());
        str(e.getValue());
      }
    }
  }

  static String digest(Catalog c) throws Exception {
    Canon o = new Canon();
    o.strings(c.areaNames);
    for (Map.Entry<String, Event> kv : o.entries(c.events)) {
      Event e = kv.getValue();
      o.str(kv.getKey());
      o.i64(e.id);
      o.str(e.name);
      o.opt(e.description);
      o.opt(e.logo);
      o.ints(e.subTopicIds);
      o.ints(e.topicIds);
    }
    o.count(c.performances.size());
    for (Performance p : c.performances) {
      o.i64(p.id);
      o.i64(p.eventId);
      o.opt(p.name);
      o.opt(p.logo);
      o.i64(p.start);
      o.str(p.venueCode);
      o.count(p.prices.size());
      for (Price pr : p.prices) {
        o.i64(pr.amount);
        o.i64(pr.audienceSubCategoryId);
        o.i64(pr.seatCategoryId);
      }
      o.count(p.seatCategories.size());
      for (SeatCategory sc : p.seatCategories) {
        o.i64(sc.seatCategoryId);
        o.count(sc.areas.size());
        for (Area a : sc.areas) {
          o.i64(a.areaId);
          o.ints(a.blockIds);
        }
      }
    }
    for (Map.Entry<String, List<Long>> kv : o.entries(c.topicSubTopics)) {
      o.str(kv.getKey());
      o.ints(kv.getValue());
    }
    o.strings(c.venueNames);
    byte[] md = MessageDigest.getInstance("SHA-256").digest(o.out.toByteArray());
    StringBuilder hex = new StringBuilder();
    for (byte b : md) hex.append(String.format("%02x", b & 0xff));
    return hex.toString();
  }

  static Catalog load(String path) throws Exception {
    return new ObjectMapper().readValue(Files.readAllBytes(Path.of(path)), Catalog.class);
  }

  static void fail(int code, String message) {
    // one line, as the protocol asks: any line break (\R: \n, \r, \u2028, ...) in a message, say one that
    // quotes a field name read from bad bytes, becomes a space
    System.err.println("error: " + message.replaceAll("\\R", " "));
    System.exit(code);
  }

  /** `PROG CANON encode|decode PASSES`, `PROG --emit CANON OUT`, `PROG --decode FILE`. */
  static void main(String[] args, Encode encode, Decode decode) {
    main(args, encode, decode, null);
  }

  /** main for a zero-copy format: also `PROG CANON read PASSES` (timed; the checksum, unsigned decimal) and `PROG --read FILE`. */
  static void main(String[] args, Encode encode, Decode decode, Read read) {
    try {
      if (read != null && args.length == 2 && args[0].equals("--read")) {
        System.out.println(Long.toUnsignedString(read.apply(Files.readAllBytes(Path.of(args[1])))));
        System.exit(0);
      }
      if (read != null && args.length == 3 && args[1].equals("read")) {
        long passes = 0;
        try {
          passes = Long.parseLong(args[2]);
        } catch (NumberFormatException e) {
          passes = 0;
        }
        if (passes < 1) fail(2, "PASSES must be a positive integer, not '" + args[2] + "'");
        byte[] encoded = encode.apply(load(args[0])); // untimed
        long sum = 0;
        long start = System.nanoTime();
        for (long p = 1; p <= passes; p++) sum = read.apply(encoded);
        long inner = System.nanoTime() - start;
        System.err.println("iorace-result {\"answer\": \"" + Long.toUnsignedString(sum) + "\", \"inner_ns\": " + inner
            + ", \"extra\": {\"encoded_bytes\": " + encoded.length + "}}");
        System.exit(0);
      }
      if (args.length == 3 && args[0].equals("--emit")) {
        Files.write(Path.of(args[2]), encode.apply(load(args[1])));
        System.exit(0);
      }
      if (args.length == 2 && args[0].equals("--decode")) {
        System.out.println(digest(decode.apply(Files.readAllBytes(Path.of(args[1])))));
        System.exit(0);
      }
      long passes = 0;
      try {
        passes = args.length == 3 ? Long.parseLong(args[2]) : 0;
      } catch (NumberFormatException e) {
        passes = 0;
      }
      if (args.length != 3 || !(args[1].equals("encode") || args[1].equals("decode")) || passes < 1) {
        fail(2, "usage: PROG CANON encode|decode PASSES | --emit CANON OUT | --decode FILE");
      }
      Catalog data = load(args[0]); // untimed
      byte[] encoded = encode.apply(data);
      int size = encoded.length;
      long inner;
      String answer;
      if (args[1].equals("encode")) {
        long start = System.nanoTime();
        for (long p = 1; p <= passes; p++) {
          encoded = encode.apply(data);
          if (encoded.length != size) {
            fail(1, "pass " + p + " wrote " + encoded.length + " bytes, the first " + size);
          }
        }
        inner = System.nanoTime() - start;
        answer = digest(decode.apply(encoded));
      } else {
        Catalog decoded = null;
        long start = System.nanoTime();
        for (long p = 1; p <= passes; p++) decoded = decode.apply(encoded);
        inner = System.nanoTime() - start;
        answer = digest(decoded);
      }
      System.err.println("iorace-result {\"answer\": \"" + answer + "\", \"inner_ns\": " + inner
          + ", \"extra\": {\"encoded_bytes\": " + size + "}}");
      System.exit(0);
    } catch (Exception e) {
      fail(1, e.toString());
    } catch (IncompatibleClassChangeError e) {
      // A decoder that fills typed fields from class ids in the bytes (Kryo: a List<Long>'s items carry theirs)
      // can be made to put an Integer where a List belongs; the canon (untimed) finds it when it walks the
      // catalogue, as an interface call on the wrong class: the data is refused, not a crash (mutant 129 of
      // native@java, docs/results/2026-11-28-formats-mutants)
      fail(1, "the decoded data is of the wrong type: " + e.getMessage());
    }
  }
}
