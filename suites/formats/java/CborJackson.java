// Strategy: jackson-dataformat-cbor 2.18.4 (over jackson-databind 2.18.4): one ObjectMapper on a CBORFactory,
// writeValueAsBytes of the typed objects (maps keyed by field name, definite lengths), readValue back.
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.cbor.CBORFactory;

public final class CborJackson {
  public static void main(String[] args) {
    ObjectMapper mapper = new ObjectMapper(new CBORFactory());
    Common.main(args, mapper::writeValueAsBytes, b -> mapper.readValue(b, Common.Catalog.class));
  }
}
