// Strategy: Kryo 5.6.2 (FieldSerializer, registration required: the catalogue's six classes, ArrayList and TreeMap,
// no references): writeObject of the typed objects into a new growable Output; readObject back. Kryo trusts counts
// (ArrayList(n), new char[n]) and nests as the bytes say, so the decode is bounded here: a list's or a string's count
// past the bytes left is refused before it is allocated, and nesting past 16 levels (setMaxDepth). Java's own
// format, read only by this program: not in the interop matrix (README, "Native formats").
import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import com.esotericsoftware.kryo.serializers.CollectionSerializer;
import java.util.ArrayList;
import java.util.TreeMap;

public final class NativeKryo {
  /** A byte-array Input whose strings may not count more chars than the bytes left (each takes one at least). */
  static final class BoundedInput extends Input {
    BoundedInput(byte[] b) {
      super(b);
    }

    @Override
    public String readString() {
      int at = position();
      if (at < limit() && (getBuffer()[at] & 0x80) != 0) { // the UTF-8 form: a char count first (ASCII has none)
        int count = readVarIntFlag(true) - 1;
        if (count > limit() - position()) {
          throw new KryoException("string of " + count + " chars past the " + (limit() - position()) + " bytes left");
        }
        setPosition(at);
      }
      return super.readString();
    }
  }

  /** ArrayList's serializer, refusing a count past the bytes left (an item takes one at least) before ArrayList(n). */
  @SuppressWarnings({"rawtypes", "unchecked"})
  static final class BoundedList extends CollectionSerializer<ArrayList> {
    @Override
    protected ArrayList create(Kryo kryo, Input input, Class<? extends ArrayList> type, int size) {
      if (size > input.limit() - input.position()) {
        throw new KryoException("list of " + size + " items past the " + (input.limit() - input.position()) + " bytes left");
      }
      return new ArrayList(size);
    }
  }

  public static void main(String[] args) {
    Kryo kryo = new Kryo(); // Kryo 5: registration required, references off
    kryo.setMaxDepth(16); // the catalogue nests 6 deep
    kryo.register(ArrayList.class, new BoundedList());
    kryo.register(TreeMap.class);
    kryo.register(Common.Catalog.class);
    kryo.register(Common.Event.class);
    kryo.register(Common.Performance.class);
    kryo.register(Common.Price.class);
    kryo.register(Common.SeatCategory.class);
    kryo.register(Common.Area.class);
    Common.main(
        args,
        c -> {
          Output out = new Output(1 << 16, -1);
          kryo.writeObject(out, c);
          return out.toBytes();
        },
        b -> {
          Input in = new BoundedInput(b);
          Common.Catalog c = kryo.readObject(in, Common.Catalog.class);
          if (in.position() != b.length) throw new KryoException((b.length - in.position()) + " bytes left after the catalogue");
          return c;
        });
  }
}
