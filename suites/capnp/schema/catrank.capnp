# catrank: search results scored by "cat" / "dog" in their snippets, sorted by score (strings).
# Fields, types and order as in the upstream Cap'n Proto benchmark's catrank schema.
@0x9be9a98a6fc1df6b;
using Cxx = import "/capnp/c++.capnp";
$Cxx.namespace("bench");

struct SearchResultList {
  results @0 :List(SearchResult);
}

struct SearchResult {
  url @0 :Text;
  score @1 :Float64;
  snippet @2 :Text;
}
