// Strategy: Jackson databind (jackson-databind 2.18.4): one ObjectMapper, writeValueAsBytes of the typed
// objects, readValue(bytes, Catalog.class) into new ones.
import com.fasterxml.jackson.databind.ObjectMapper;

public final class JsonJackson {
  public static void main(String[] args) {
    ObjectMapper mapper = new ObjectMapper();
    Common.main(args, mapper::writeValueAsBytes, b -> mapper.readValue(b, Common.Catalog.class));
  }
}
