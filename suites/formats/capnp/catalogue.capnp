# The formats suite's catalogue (README.md, "The master schema") as Cap'n Proto, field for field in its order.
# Cap'n Proto has no map type, so a map is a List of key/value entry structs, written sorted by key (UTF-8 bytes,
# the canon's order); a reader refuses keys out of order or repeated, so a decoded map is what was written.
# An optional string is a union of `absent :Void` and `present :Text` (the discriminant says which): explicit
# in the schema, and "" is a present empty string; a Text pointer's own null would work too, but only the C++
# and Rust readers expose it (has*) and it is not the schema's word. i64 is Int64 (fixed 8 bytes in the data
# section, no varint). Generated code: C++ (`capnp compile -oc++`, suite.toml's g++ build) and Rust (capnpc
# in rust/build.rs) at build time; Python loads this file at run time (pycapnp).
@0xbcc74f8dd69d4a10;

using Cxx = import "/capnp/c++.capnp";
$Cxx.namespace("iorace::formats::cp");  # C++: apart from common.hpp's plain types of the same names

struct Event {
  id @0 :Int64;
  name @1 :Text;
  description :union {
    absent @2 :Void;
    present @3 :Text;
  }
  logo :union {
    absent @4 :Void;
    present @5 :Text;
  }
  subTopicIds @6 :List(Int64);
  topicIds @7 :List(Int64);
}

struct Price {
  amount @0 :Int64;
  audienceSubCategoryId @1 :Int64;
  seatCategoryId @2 :Int64;
}

struct Area {
  areaId @0 :Int64;
  blockIds @1 :List(Int64);
}

struct SeatCategory {
  seatCategoryId @0 :Int64;
  areas @1 :List(Area);
}

struct Performance {
  id @0 :Int64;
  eventId @1 :Int64;
  name :union {
    absent @2 :Void;
    present @3 :Text;
  }
  logo :union {
    absent @4 :Void;
    present @5 :Text;
  }
  start @6 :Int64;
  venueCode @7 :Text;
  prices @8 :List(Price);
  seatCategories @9 :List(SeatCategory);
}

# map<string, V> entries, sorted by key.
struct TextEntry {
  key @0 :Text;
  value @1 :Text;
}

struct EventEntry {
  key @0 :Text;
  value @1 :Event;
}

struct Int64ListEntry {
  key @0 :Text;
  value @1 :List(Int64);
}

struct Catalog {
  areaNames @0 :List(TextEntry);
  events @1 :List(EventEntry);
  performances @2 :List(Performance);
  topicSubTopics @3 :List(Int64ListEntry);
  venueNames @4 :List(TextEntry);
}
