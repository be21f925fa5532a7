// Strategy: Apache Avro Java 1.12.1, generic API (GenericRecord, no generated classes): the typed objects built
// into GenericData.Records of avro/catalogue.avsc (copied beside the classes at build time, parsed once, untimed)
// and written by one GenericDatumWriter through a BinaryEncoder into a new byte array (a binary datum, no container
// file); decode: one GenericDatumReader (writer schema == reader schema) over a BinaryDecoder, the records converted
// to new typed objects (both on the clock). Every block count and string length is checked against the bytes left
// before anything is allocated for it (Avro sizes an array or a string by what the bytes claim), and the datum must
// use every byte.
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.Decoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.util.Utf8;

public final class AvroJava {
  static final Schema CATALOG;
  static final Schema EVENT;
  static final Schema PERFORMANCE;
  static final Schema PRICE;
  static final Schema SEAT_CATEGORY;
  static final Schema AREA;

  static {
    try (InputStream in = AvroJava.class.getResourceAsStream("/catalogue.avsc")) {
      if (in == null) throw new IllegalStateException("catalogue.avsc is not beside the classes (the build copies it)");
      CATALOG = new Schema.Parser().parse(in);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    EVENT = CATALOG.getField("events").schema().getValueType();
    PERFORMANCE = CATALOG.getField("performances").schema().getElementType();
    PRICE = PERFORMANCE.getField("prices").schema().getElementType();
    SEAT_CATEGORY = PERFORMANCE.getField("seatCategories").schema().getElementType();
    AREA = SEAT_CATEGORY.getField("areas").schema().getElementType();
  }

  static final GenericDatumWriter<GenericRecord> WRITER = new GenericDatumWriter<>(CATALOG);
  static final GenericDatumReader<GenericRecord> READER = new GenericDatumReader<>(CATALOG, CATALOG);

  static byte[] encode(Common.Catalog c) throws IOException {
    GenericData.Record m = new GenericData.Record(CATALOG);
    m.put(0, c.areaNames);
    Map<String, GenericData.Record> events = new TreeMap<>();
    for (Map.Entry<String, Common.Event> kv : c.events.entrySet()) {
      Common.Event e = kv.getValue();
      GenericData.Record x = new GenericData.Record(EVENT);
      x.put(0, e.id);
      x.put(1, e.name);
      x.put(2, e.description);
      x.put(3, e.logo);
      x.put(4, e.subTopicIds);
      x.put(5, e.topicIds);
      events.put(kv.getKey(), x);
    }
    m.put(1, events);
    List<GenericData.Record> performances = new ArrayList<>(c.performances.size());
    for (Common.Performance p : c.performances) {
      GenericData.Record x = new GenericData.Record(PERFORMANCE);
      x.put(0, p.id);
      x.put(1, p.eventId);
      x.put(2, p.name);
      x.put(3, p.logo);
      x.put(4, p.start);
      x.put(5, p.venueCode);
      List<GenericData.Record> prices = new ArrayList<>(p.prices.size());
      for (Common.Price pr : p.prices) {
        GenericData.Record y = new GenericData.Record(PRICE);
        y.put(0, pr.amount);
        y.put(1, pr.audienceSubCategoryId);
        y.put(2, pr.seatCategoryId);
        prices.add(y);
      }
      x.put(6, prices);
      List<GenericData.Record> seats = new ArrayList<>(p.seatCategories.size());
      for (Common.SeatCategory sc : p.seatCategories) {
        GenericData.Record y = new GenericData.Record(SEAT_CATEGORY);
        y.put(0, sc.seatCategoryId);
        List<GenericData.Record> areas = new ArrayList<>(sc.areas.size());
        for (Common.Area a : sc.areas) {
          GenericData.Record z = new GenericData.Record(AREA);
          z.put(0, a.areaId);
          z.put(1, a.blockIds);
          areas.add(z);
        }
        y.put(1, areas);
        seats.add(y);
      }
      x.put(7, seats);
      performances.add(x);
    }
    m.put(2, performances);
    m.put(3, c.topicSubTopics);
    m.put(4, c.venueNames);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    BinaryEncoder enc = EncoderFactory.get().binaryEncoder(out, null);
    WRITER.write(m, enc);
    enc.flush();
    return out.toByteArray();
  }

  /**
   * The BinaryDecoder with every count and length checked against the bytes left before Avro allocates for it:
   * Avro's own limits (2^31-9 items or bytes) let an array of 2^30 claimed items, or a string of 2^30 bytes,
   * allocate gigabytes before the end of the bytes is reached. Every item of this schema takes a byte at least,
   * so a block claiming more items than bytes are left is refused. The rest is Avro's.
   */
  static final class Checked extends Decoder {
    final BinaryDecoder in;
    final InputStream left; // the decoder's view of its bytes: available() is what is left

    Checked(byte[] b) {
      in = DecoderFactory.get().binaryDecoder(b, null);
      left = in.inputStream();
    }

    long check(long n, String what) throws IOException {
      if (n < 0 || n > left.available()) {
        throw new IOException(what + " of " + n + " with " + left.available() + " bytes left");
      }
      return n;
    }

    @Override
    public void readNull() throws IOException {
      in.readNull();
    }

    @Override
    public boolean readBoolean() throws IOException {
      return in.readBoolean();
    }

    @Override
    public int readInt() throws IOException {
      return in.readInt();
    }

    @Override
    public long readLong() throws IOException {
      return in.readLong();
    }

    @Override
    public float readFloat() throws IOException {
      return in.readFloat();
    }

    @Override
    public double readDouble() throws IOException {
      return in.readDouble();
    }

    @Override
    public Utf8 readString(Utf8 old) throws IOException {
      int n = (int) check(in.readLong(), "a string");
      Utf8 out = old != null ? old : new Utf8();
      out.setByteLength(n);
      if (n > 0) in.readFixed(out.getBytes(), 0, n);
      return out;
    }

    @Override
    public String readString() throws IOException {
      return readString(null).toString();
    }

    @Override
    public void skipString() throws IOException {
      in.skipFixed((int) check(in.readLong(), "a string"));
    }

    @Override
    public java.nio.ByteBuffer readBytes(java.nio.ByteBuffer old) throws IOException {
      throw new IOException("no bytes field in this schema");
    }

    @Override
    public void skipBytes() throws IOException {
      throw new IOException("no bytes field in this schema");
    }

    @Override
    public void readFixed(byte[] bytes, int start, int length) throws IOException {
      in.readFixed(bytes, start, length);
    }

    @Override
    public void skipFixed(int length) throws IOException {
      in.skipFixed(length);
    }

    @Override
    public int readEnum() throws IOException {
      return in.readEnum();
    }

    @Override
    public long readArrayStart() throws IOException {
      return check(in.readArrayStart(), "an array block");
    }

    @Override
    public long arrayNext() throws IOException {
      return check(in.arrayNext(), "an array block");
    }

    @Override
    public long skipArray() throws IOException {
      return in.skipArray();
    }

    @Override
    public long readMapStart() throws IOException {
      return check(in.readMapStart(), "a map block");
    }

    @Override
    public long mapNext() throws IOException {
      return check(in.mapNext(), "a map block");
    }

    @Override
    public long skipMap() throws IOException {
      return in.skipMap();
    }

    @Override
    public int readIndex() throws IOException {
      return in.readIndex();
    }
  }

  static String str(Object v) {
    return v == null ? null : v.toString(); // Avro's Utf8 (or a String) to a String
  }

  @SuppressWarnings("unchecked")
  static List<Long> longs(Object v) {
    return new ArrayList<>((List<Long>) v);
  }

  @SuppressWarnings("unchecked")
  static TreeMap<String, String> strings(Object v) {
    TreeMap<String, String> out = new TreeMap<>();
    for (Map.Entry<Object, Object> kv : ((Map<Object, Object>) v).entrySet()) out.put(str(kv.getKey()), str(kv.getValue()));
    return out;
  }

  @SuppressWarnings("unchecked")
  static Common.Catalog decode(byte[] b) throws IOException {
    Checked dec = new Checked(b);
    GenericRecord m = READER.read(null, dec);
    if (!dec.in.isEnd()) throw new IOException("bytes after the datum");
    Common.Catalog c = new Common.Catalog();
    c.areaNames = strings(m.get(0));
    for (Map.Entry<Object, GenericRecord> kv : ((Map<Object, GenericRecord>) m.get(1)).entrySet()) {
      GenericRecord x = kv.getValue();
      Common.Event e = new Common.Event();
      e.id = (Long) x.get(0);
      e.name = str(x.get(1));
      e.description = str(x.get(2));
      e.logo = str(x.get(3));
      e.subTopicIds = longs(x.get(4));
      e.topicIds = longs(x.get(5));
      c.events.put(str(kv.getKey()), e);
    }
    for (GenericRecord x : (List<GenericRecord>) m.get(2)) {
      Common.Performance p = new Common.Performance();
      p.id = (Long) x.get(0);
      p.eventId = (Long) x.get(1);
      p.name = str(x.get(2));
      p.logo = str(x.get(3));
      p.start = (Long) x.get(4);
      p.venueCode = str(x.get(5));
      for (GenericRecord y : (List<GenericRecord>) x.get(6)) {
        Common.Price pr = new Common.Price();
        pr.amount = (Long) y.get(0);
        pr.audienceSubCategoryId = (Long) y.get(1);
        pr.seatCategoryId = (Long) y.get(2);
        p.prices.add(pr);
      }
      for (GenericRecord y : (List<GenericRecord>) x.get(7)) {
        Common.SeatCategory sc = new Common.SeatCategory();
        sc.seatCategoryId = (Long) y.get(0);
        for (GenericRecord z : (List<GenericRecord>) y.get(1)) {
          Common.Area a = new Common.Area();
          a.areaId = (Long) z.get(0);
          a.blockIds = longs(z.get(1));
          sc.areas.add(a);
        }
        p.seatCategories.add(sc);
      }
      c.performances.add(p);
    }
    for (Map.Entry<Object, Object> kv : ((Map<Object, Object>) m.get(3)).entrySet()) {
      c.topicSubTopics.put(str(kv.getKey()), longs(kv.getValue()));
    }
    c.venueNames = strings(m.get(4));
    return c;
  }

  public static void main(String[] args) {
    Common.main(args, AvroJava::encode, AvroJava::decode);
  }
}
