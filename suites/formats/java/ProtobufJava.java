// Strategy: protobuf-java 3.25.9 (generated classes and builders): the typed objects built into a new Catalog
// message (a builder per record) and toByteArray; Catalog.parseFrom into a new message, converted to new typed
// objects (both on the clock). The generated class (iorace.formats.pb.CatalogueProto) is written at build time by
// Debian's protoc 3.21.12 from ../proto/catalogue.proto (suite.toml's javac build): protobuf refuses generated code
// newer than its runtime and takes older code within one major version, so 3.25.9, the last 3.x, is the newest
// runtime this protoc's code may run on (4.x would need protoc 4.x, from Maven as an x86-64 binary).
import com.google.protobuf.InvalidProtocolBufferException;
import iorace.formats.pb.CatalogueProto;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

public final class ProtobufJava {
  static byte[] encode(Common.Catalog c) {
    CatalogueProto.Catalog.Builder m = CatalogueProto.Catalog.newBuilder();
    m.putAllAreaNames(c.areaNames);
    for (Map.Entry<String, Common.Event> kv : c.events.entrySet()) {
      Common.Event e = kv.getValue();
      CatalogueProto.Event.Builder x = CatalogueProto.Event.newBuilder().setId(e.id).setName(e.name);
      if (e.description != null) x.setDescription(e.description);
      if (e.logo != null) x.setLogo(e.logo);
      x.addAllSubTopicIds(e.subTopicIds).addAllTopicIds(e.topicIds);
      m.putEvents(kv.getKey(), x.build());
    }
    for (Common.Performance p : c.performances) {
      CatalogueProto.Performance.Builder x = CatalogueProto.Performance.newBuilder()
          .setId(p.id).setEventId(p.eventId).setStart(p.start).setVenueCode(p.venueCode);
      if (p.name != null) x.setName(p.name);
      if (p.logo != null) x.setLogo(p.logo);
      for (Common.Price pr : p.prices) {
        x.addPrices(CatalogueProto.Price.newBuilder().setAmount(pr.amount)
            .setAudienceSubCategoryId(pr.audienceSubCategoryId).setSeatCategoryId(pr.seatCategoryId));
      }
      for (Common.SeatCategory sc : p.seatCategories) {
        CatalogueProto.SeatCategory.Builder y = CatalogueProto.SeatCategory.newBuilder().setSeatCategoryId(sc.seatCategoryId);
        for (Common.Area a : sc.areas) {
          y.addAreas(CatalogueProto.Area.newBuilder().setAreaId(a.areaId).addAllBlockIds(a.blockIds));
        }
        x.addSeatCategories(y);
      }
      m.addPerformances(x);
    }
    for (Map.Entry<String, List<Long>> kv : c.topicSubTopics.entrySet()) {
      m.putTopicSubTopics(kv.getKey(), CatalogueProto.Int64List.newBuilder().addAllValues(kv.getValue()).build());
    }
    m.putAllVenueNames(c.venueNames);
    return m.build().toByteArray();
  }

  static Common.Catalog decode(byte[] b) throws InvalidProtocolBufferException {
    CatalogueProto.Catalog m = CatalogueProto.Catalog.parseFrom(b);
    Common.Catalog c = new Common.Catalog();
    c.areaNames = new TreeMap<>(m.getAreaNamesMap());
    for (Map.Entry<String, CatalogueProto.Event> kv : m.getEventsMap().entrySet()) {
      CatalogueProto.Event x = kv.getValue();
      Common.Event e = new Common.Event();
      e.id = x.getId();
      e.name = x.getName();
      e.description = x.hasDescription() ? x.getDescription() : null;
      e.logo = x.hasLogo() ? x.getLogo() : null;
      e.subTopicIds = new ArrayList<>(x.getSubTopicIdsList());
      e.topicIds = new ArrayList<>(x.getTopicIdsList());
      c.events.put(kv.getKey(), e);
    }
    c.performances = new ArrayList<>(m.getPerformancesCount());
    for (CatalogueProto.Performance x : m.getPerformancesList()) {
      Common.Performance p = new Common.Performance();
      p.id = x.getId();
      p.eventId = x.getEventId();
      p.name = x.hasName() ? x.getName() : null;
      p.logo = x.hasLogo() ? x.getLogo() : null;
      p.start = x.getStart();
      p.venueCode = x.getVenueCode();
      p.prices = new ArrayList<>(x.getPricesCount());
      for (CatalogueProto.Price y : x.getPricesList()) {
        Common.Price pr = new Common.Price();
        pr.amount = y.getAmount();
        pr.audienceSubCategoryId = y.getAudienceSubCategoryId();
        pr.seatCategoryId = y.getSeatCategoryId();
        p.prices.add(pr);
      }
      p.seatCategories = new ArrayList<>(x.getSeatCategoriesCount());
      for (CatalogueProto.SeatCategory y : x.getSeatCategoriesList()) {
        Common.SeatCategory sc = new Common.SeatCategory();
        sc.seatCategoryId = y.getSeatCategoryId();
        sc.areas = new ArrayList<>(y.getAreasCount());
        for (CatalogueProto.Area z : y.getAreasList()) {
          Common.Area a = new Common.Area();
          a.areaId = z.getAreaId();
          a.blockIds = new ArrayList<>(z.getBlockIdsList());
          sc.areas.add(a);
        }
        p.seatCategories.add(sc);
      }
      c.performances.add(p);
    }
    for (Map.Entry<String, CatalogueProto.Int64List> kv : m.getTopicSubTopicsMap().entrySet()) {
      c.topicSubTopics.put(kv.getKey(), new ArrayList<>(kv.getValue().getValuesList()));
    }
    c.venueNames = new TreeMap<>(m.getVenueNamesMap());
    return c;
  }

  public static void main(String[] args) {
    Common.main(args, ProtobufJava::encode, ProtobufJava::decode);
  }
}
