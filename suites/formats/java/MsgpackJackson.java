// Strategy: jackson-dataformat-msgpack 0.9.11 (msgpack-java, over jackson-databind 2.18.4): one ObjectMapper on
// a MessagePackFactory, writeValueAsBytes of the typed objects (maps keyed by field name), readValue back.
import com.fasterxml.jackson.databind.ObjectMapper;
import org.msgpack.jackson.dataformat.MessagePackFactory;

public final class MsgpackJackson {
  public static void main(String[] args) {
    ObjectMapper mapper = new ObjectMapper(new MessagePackFactory());
    Common.main(args, mapper::writeValueAsBytes, b -> mapper.readValue(b, Common.Catalog.class));
  }
}
