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
