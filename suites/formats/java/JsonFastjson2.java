// Strategy: fastjson2 (Alibaba; ASM-generated readers and writers per class): JSON.toJSONBytes of the typed objects
// (with WriteNulls, so an absent optional is written as null, as the canon and every other JSON cell write it;
// fastjson2 leaves null fields out by default), JSON.parseObject(bytes, Catalog.class) into new ones.
import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONException;
import com.alibaba.fastjson2.JSONWriter;

public final class JsonFastjson2 {
  public static void main(String[] args) {
    Common.main(
        args,
        c -> JSON.toJSONBytes(c, JSONWriter.Feature.WriteNulls),
        b -> {
          try {
            return JSON.parseObject(b, Common.Catalog.class);
          } catch (StackOverflowError e) {
            // fastjson2 2.0.64 skips a value it has no field for (skipValue, skipArray, skipObject) by recursing
            // without a depth limit: 100,000 nested brackets under an unknown key overflow the thread's stack. The
            // error unwinds the parser's own frames only (no lock or shared state is left half-done), so the
            // input is refused here, at no cost to a decode that does not overflow.
            throw new IllegalArgumentException("nested too deep for fastjson2's reader (StackOverflowError)", e);
          } catch (JSONException e) {
            // fastjson2 ends its message with its version and the input it read (all of it: megabytes): the
            // refusal keeps what went wrong and where.
            String m = String.valueOf(e.getMessage());
            int at = m.indexOf(", fastjson-version");
            throw new IllegalArgumentException(at < 0 ? m : m.substring(0, at), e);
          }
        });
  }
}
