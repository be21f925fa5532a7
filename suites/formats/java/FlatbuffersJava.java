// Strategy: flatbuffers-java 25.2.10 (the newest on Maven Central; code of flatc 25.12.19, see below): the typed
// objects written into a new FlatBufferBuilder bottom-up (strings and vectors first, then each table; maps as
// vectors sorted by key bytes) and copied out; decode walks the buffer through the generated accessors into new
// typed objects; read visits every field through them (strings as ByteBuffer views, their lengths: no plain
// objects) and answers the visit checksum. Java's runtime has no verifier: each vector's count is checked against
// the buffer's size before a loop over it (a mutant's 2^31 items would else be a hang), a required string's
// absence is refused, and an offset out of the buffer (IndexOutOfBoundsException) or bad UTF-8 is caught by
// Common.main's one-line refusal: all of it as it reads, on the clock, no verify pass of its own.
// The generated classes (package fbcatalogue) are written at build time by flatc 25.12.19 (suite.toml's javac
// build), whose code names its own version in ValidateVersion (Constants.FLATBUFFERS_25_12_19(), a compile-time
// check); Maven Central's newest runtime is 25.2.10, so the build renames that call to the runtime's: the one
// place where code and runtime are of two releases (the code compiles against it, and the interop test reads it).
import com.google.flatbuffers.FlatBufferBuilder;
import fbcatalogue.Area;
import fbcatalogue.Catalog;
import fbcatalogue.Event;
import fbcatalogue.EventEntry;
import fbcatalogue.Int64ListEntry;
import fbcatalogue.Performance;
import fbcatalogue.Price;
import fbcatalogue.SeatCategory;
import fbcatalogue.StringEntry;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

public final class FlatbuffersJava {
  /** A TreeMap<String, _> iterates in UTF-16 order; a (key) vector is sorted by the keys' UTF-8 bytes. */
  static <V> List<Map.Entry<String, V>> byKeyBytes(Map<String, V> m) {
    List<Map.Entry<String, V>> entries = new ArrayList<>(m.entrySet());
    entries.sort((a, b) -> Arrays.compareUnsigned(a.getKey().getBytes(StandardCharsets.UTF_8), b.getKey().getBytes(StandardCharsets.UTF_8)));
    return entries;
  }

  static int longs(FlatBufferBuilder b, List<Long> v) {
    b.startVector(8, v.size(), 8);
    for (int i = v.size() - 1; i >= 0; i--) b.addLong(v.get(i)); // a vector is written back to front
    return b.endVector();
  }

  static int offsets(FlatBufferBuilder b, int[] v) {
    b.startVector(4, v.length, 4);
    for (int i = v.length - 1; i >= 0; i--) b.addOffset(v[i]);
    return b.endVector();
  }

  static int stringMap(FlatBufferBuilder b, Map<String, String> m) {
    List<Map.Entry<String, String>> entries = byKeyBytes(m);
    int[] out = new int[entries.size()];
    for (int i = 0; i < out.length; i++) {
      Map.Entry<String, String> kv = entries.get(i);
      out[i] = StringEntry.createStringEntry(b, b.createString(kv.getKey()), b.createString(kv.getValue()));
    }
    return offsets(b, out);
  }

  static byte[] encode(Common.Catalog c) {
    FlatBufferBuilder b = new FlatBufferBuilder(1 << 16);
    int areaNames = stringMap(b, c.areaNames);
    List<Map.Entry<String, Common.Event>> evs = byKeyBytes(c.events);
    int[] events = new int[evs.size()];
    for (int i = 0; i < events.length; i++) {
      Common.Event e = evs.get(i).getValue();
      int key = b.createString(evs.get(i).getKey());
      int name = b.createString(e.name);
      int desc = e.description != null ? b.createString(e.description) : 0;
      int logo = e.logo != null ? b.createString(e.logo) : 0;
      int ev = Event.createEvent(b, e.id, name, desc, logo, longs(b, e.subTopicIds), longs(b, e.topicIds));
      events[i] = EventEntry.createEventEntry(b, key, ev);
    }
    int eventsVec = offsets(b, events);
    int[] perfs = new int[c.performances.size()];
    for (int i = 0; i < perfs.length; i++) {
      Common.Performance p = c.performances.get(i);
      int name = p.name != null ? b.createString(p.name) : 0;
      int logo = p.logo != null ? b.createString(p.logo) : 0;
      int venue = b.createString(p.venueCode);
      Performance.startPricesVector(b, p.prices.size());
      for (int j = p.prices.size() - 1; j >= 0; j--) {
        Common.Price pr = p.prices.get(j);
        Price.createPrice(b, pr.amount, pr.audienceSubCategoryId, pr.seatCategoryId);
      }
      int prices = b.endVector();
      int[] cats = new int[p.seatCategories.size()];
      for (int j = 0; j < cats.length; j++) {
        Common.SeatCategory sc = p.seatCategories.get(j);
        int[] areas = new int[sc.areas.size()];
        for (int k = 0; k < areas.length; k++) {
          Common.Area a = sc.areas.get(k);
          areas[k] = Area.createArea(b, a.areaId, longs(b, a.blockIds));
        }
        cats[j] = SeatCategory.createSeatCategory(b, sc.seatCategoryId, offsets(b, areas));
      }
      int catsVec = offsets(b, cats);
      perfs[i] = Performance.createPerformance(b, p.id, p.eventId, name, logo, p.start, venue, prices, catsVec);
    }
    int perfsVec = offsets(b, perfs);
    List<Map.Entry<String, List<Long>>> ts = byKeyBytes(c.topicSubTopics);
    int[] topics = new int[ts.size()];
    for (int i = 0; i < topics.length; i++) {
      int key = b.createString(ts.get(i).getKey());
      topics[i] = Int64ListEntry.createInt64ListEntry(b, key, longs(b, ts.get(i).getValue()));
    }
    int topicsVec = offsets(b, topics);
    int venueNames = stringMap(b, c.venueNames);
    Catalog.finishCatalogBuffer(b, Catalog.createCatalog(b, areaNames, eventsVec, perfsVec, topicsVec, venueNames));
    return b.sizedByteArray();
  }

  /** The reading checks the runtime does not make. */
  static final class Reader {
    final int size;

    Reader(byte[] raw) {
      if (raw.length < 8) throw new IllegalArgumentException("flatbuffers: shorter than a root offset and a vtable");
      size = raw.length;
    }

    /** A vector's count, refused when its items could not fit in the buffer. */
    int n(int count, int item) {
      if (count < 0 || (long) count * item > size) {
        throw new IllegalArgumentException("flatbuffers: a vector of " + count + " items of " + item + " B in a " + size + " B buffer");
      }
      return count;
    }

    static <T> T req(T v, String what) {
      if (v == null) throw new IllegalArgumentException("flatbuffers: required " + what + " absent");
      return v;
    }
  }

  static List<Long> longs(int n, java.util.function.IntToLongFunction at) {
    List<Long> out = new ArrayList<>(n);
    for (int j = 0; j < n; j++) out.add(at.applyAsLong(j));
    return out;
  }

  static Common.Catalog decode(byte[] raw) {
    Reader r = new Reader(raw);
    Catalog m = Catalog.getRootAsCatalog(ByteBuffer.wrap(raw));
    Common.Catalog c = new Common.Catalog();
    StringEntry se = new StringEntry();
    for (int i = 0, n = r.n(m.areaNamesLength(), 4); i < n; i++) {
      m.areaNames(se, i);
      c.areaNames.put(Reader.req(se.key(), "key"), Reader.req(se.value(), "value"));
    }
    EventEntry ee = new EventEntry();
    Event e = new Event();
    for (int i = 0, n = r.n(m.eventsLength(), 4); i < n; i++) {
      m.events(ee, i);
      Reader.req(ee.value(e), "event");
      Common.Event ev = new Common.Event();
      ev.id = e.id();
      ev.name = Reader.req(e.name(), "name");
      ev.description = e.description();
      ev.logo = e.logo();
      ev.subTopicIds = longs(r.n(e.subTopicIdsLength(), 8), e::subTopicIds);
      ev.topicIds = longs(r.n(e.topicIdsLength(), 8), e::topicIds);
      c.events.put(Reader.req(ee.key(), "key"), ev);
    }
    Performance p = new Performance();
    Price pr = new Price();
    SeatCategory sc = new SeatCategory();
    Area a = new Area();
    int np = r.n(m.performancesLength(), 4);
    c.performances = new ArrayList<>(np);
    for (int i = 0; i < np; i++) {
      m.performances(p, i);
      Common.Performance out = new Common.Performance();
      out.id = p.id();
      out.eventId = p.eventId();
      out.name = p.name();
      out.logo = p.logo();
      out.start = p.start();
      out.venueCode = Reader.req(p.venueCode(), "venueCode");
      int k = r.n(p.pricesLength(), 24);
      out.prices = new ArrayList<>(k);
      for (int j = 0; j < k; j++) {
        p.prices(pr, j);
        Common.Price x = new Common.Price();
        x.amount = pr.amount();
        x.audienceSubCategoryId = pr.audienceSubCategoryId();
        x.seatCategoryId = pr.seatCategoryId();
        out.prices.add(x);
      }
      k = r.n(p.seatCategoriesLength(), 4);
      out.seatCategories = new ArrayList<>(k);
      for (int j = 0; j < k; j++) {
        p.seatCategories(sc, j);
        Common.SeatCategory cat = new Common.SeatCategory();
        cat.seatCategoryId = sc.seatCategoryId();
        int q = r.n(sc.areasLength(), 4);
        cat.areas = new ArrayList<>(q);
        for (int t = 0; t < q; t++) {
          sc.areas(a, t);
          Common.Area area = new Common.Area();
          area.areaId = a.areaId();
          area.blockIds = longs(r.n(a.blockIdsLength(), 8), a::blockIds);
          cat.areas.add(area);
        }
        out.seatCategories.add(cat);
      }
      c.performances.add(out);
    }
    Int64ListEntry te = new Int64ListEntry();
    for (int i = 0, n = r.n(m.topicSubTopicsLength(), 4); i < n; i++) {
      m.topicSubTopics(te, i);
      c.topicSubTopics.put(Reader.req(te.key(), "key"), longs(r.n(te.valuesLength(), 8), te::values));
    }
    for (int i = 0, n = r.n(m.venueNamesLength(), 4); i < n; i++) {
      m.venueNames(se, i);
      c.venueNames.put(Reader.req(se.key(), "key"), Reader.req(se.value(), "value"));
    }
    return c;
  }

  // The visit checksum (README): a record's entries are its JSON field names, so each record adds a constant (its
  // field count plus their names' UTF-8 lengths); strings add their byte length, ints their value (a long's bits
  // are its value mod 2^64), and the long sum wraps as the unsigned definition does.
  static long names(String... fields) {
    long n = fields.length;
    for (String f : fields) n += f.getBytes(StandardCharsets.UTF_8).length;
    return n;
  }

  static final long CATALOG = names("areaNames", "events", "performances", "topicSubTopics", "venueNames");
  static final long EVENT = names("id", "name", "description", "logo", "subTopicIds", "topicIds");
  static final long PERFORMANCE = names("id", "eventId", "name", "logo", "start", "venueCode", "prices", "seatCategories");
  static final long PRICE = names("amount", "audienceSubCategoryId", "seatCategoryId");
  static final long SEAT_CATEGORY = names("seatCategoryId", "areas");
  static final long AREA = names("areaId", "blockIds");

  /** A string's UTF-8 byte length, read in place (a ByteBuffer view of it); 0 when absent. */
  static long len(ByteBuffer view) {
    return view == null ? 0 : view.remaining();
  }

  static long req(ByteBuffer view, String what) {
    return Reader.req(view, what).remaining();
  }

  static long visit(byte[] raw) {
    Reader r = new Reader(raw);
    Catalog m = Catalog.getRootAsCatalog(ByteBuffer.wrap(raw));
    long s = CATALOG;
    StringEntry se = new StringEntry();
    int n = r.n(m.areaNamesLength(), 4);
    s += n;
    for (int i = 0; i < n; i++) {
      m.areaNames(se, i);
      s += req(se.keyAsByteBuffer(), "key") + req(se.valueAsByteBuffer(), "value");
    }
    EventEntry ee = new EventEntry();
    Event e = new Event();
    n = r.n(m.eventsLength(), 4);
    s += n;
    for (int i = 0; i < n; i++) {
      m.events(ee, i);
      Reader.req(ee.value(e), "event");
      s += req(ee.keyAsByteBuffer(), "key") + EVENT + e.id() + req(e.nameAsByteBuffer(), "name");
      s += len(e.descriptionAsByteBuffer()) + len(e.logoAsByteBuffer());
      int k = r.n(e.subTopicIdsLength(), 8);
      s += k;
      for (int j = 0; j < k; j++) s += e.subTopicIds(j);
      k = r.n(e.topicIdsLength(), 8);
      s += k;
      for (int j = 0; j < k; j++) s += e.topicIds(j);
    }
    Performance p = new Performance();
    Price pr = new Price();
    SeatCategory sc = new SeatCategory();
    Area a = new Area();
    n = r.n(m.performancesLength(), 4);
    s += n;
    for (int i = 0; i < n; i++) {
      m.performances(p, i);
      s += PERFORMANCE + p.id() + p.eventId() + p.start();
      s += len(p.nameAsByteBuffer()) + len(p.logoAsByteBuffer()) + req(p.venueCodeAsByteBuffer(), "venueCode");
      int k = r.n(p.pricesLength(), 24);
      s += k;
      for (int j = 0; j < k; j++) {
        p.prices(pr, j);
        s += PRICE + pr.amount() + pr.audienceSubCategoryId() + pr.seatCategoryId();
      }
      k = r.n(p.seatCategoriesLength(), 4);
      s += k;
      for (int j = 0; j < k; j++) {
        p.seatCategories(sc, j);
        s += SEAT_CATEGORY + sc.seatCategoryId();
        int q = r.n(sc.areasLength(), 4);
        s += q;
        for (int t = 0; t < q; t++) {
          sc.areas(a, t);
          int blocks = r.n(a.blockIdsLength(), 8);
          s += AREA + a.areaId() + blocks;
          for (int u = 0; u < blocks; u++) s += a.blockIds(u);
        }
      }
    }
    Int64ListEntry te = new Int64ListEntry();
    n = r.n(m.topicSubTopicsLength(), 4);
    s += n;
    for (int i = 0; i < n; i++) {
      m.topicSubTopics(te, i);
      int k = r.n(te.valuesLength(), 8);
      s += req(te.keyAsByteBuffer(), "key") + k;
      for (int j = 0; j < k; j++) s += te.values(j);
    }
    n = r.n(m.venueNamesLength(), 4);
    s += n;
    for (int i = 0; i < n; i++) {
      m.venueNames(se, i);
      s += req(se.keyAsByteBuffer(), "key") + req(se.valueAsByteBuffer(), "value");
    }
    return s;
  }

  public static void main(String[] args) {
    Common.main(args, FlatbuffersJava::encode, FlatbuffersJava::decode, FlatbuffersJava::visit);
  }
}
