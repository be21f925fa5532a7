// nlohmann/json mappings of the catalogue (to_json / from_json by hand: 3.11 has no std::optional mapping);
// an absent or null optional is std::nullopt, and one is written as null.
#pragma once
#include <nlohmann/json.hpp>

#include "common.hpp"

using nlohmann::json;

inline void put_opt(json &j, const char *key, const std::optional<std::string> &v) {
  if (v)
    j[key] = *v;
  else
    j[key] = nullptr;
}
inline std::optional<std::string> get_opt(const json &j, const char *key) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return std::nullopt;
  return it->get<std::string>();
}

inline void to_json(json &j, const Event &e) {
  j = json{{"id", e.id}, {"name", e.name}};
  put_opt(j, "description", e.description);
  put_opt(j, "logo", e.logo);
  j["subTopicIds"] = e.subTopicIds;
  j["topicIds"] = e.topicIds;
}
inline void from_json(const json &j, Event &e) {
  j.at("id").get_to(e.id);
  j.at("name").get_to(e.name);
  e.description = get_opt(j, "description");
  e.logo = get_opt(j, "logo");
  j.at("subTopicIds").get_to(e.subTopicIds);
  j.at("topicIds").get_to(e.topicIds);
}
inline void to_json(json &j, const Price &p) {
  j = json{{"amount", p.amount}, {"audienceSubCategoryId", p.audienceSubCategoryId}, {"seatCategoryId", p.seatCategoryId}};
}
inline void from_json(const json &j, Price &p) {
  j.at("amount").get_to(p.amount);
  j.at("audienceSubCategoryId").get_to(p.audienceSubCategoryId);
  j.at("seatCategoryId").get_to(p.seatCategoryId);
}
inline void to_json(json &j, const Area &a) { j = json{{"areaId", a.areaId}, {"blockIds", a.blockIds}}; }
inline void from_json(const json &j, Area &a) {
  j.at("areaId").get_to(a.areaId);
  j.at("blockIds").get_to(a.blockIds);
}
inline void to_json(json &j, const SeatCategory &s) { j = json{{"seatCategoryId", s.seatCategoryId}, {"areas", s.areas}}; }
inline void from_json(const json &j, SeatCategory &s) {
  j.at("seatCategoryId").get_to(s.seatCategoryId);
  j.at("areas").get_to(s.areas);
}
inline void to_json(json &j, const Performance &p) {
  j = json{{"id", p.id}, {"eventId", p.eventId}};
  put_opt(j, "name", p.name);
  put_opt(j, "logo", p.logo);
  j["start"] = p.start;
  j["venueCode"] = p.venueCode;
  j["prices"] = p.prices;
  j["seatCategories"] = p.seatCategories;
}
inline void from_json(const json &j, Performance &p) {
  j.at("id").get_to(p.id);
  j.at("eventId").get_to(p.eventId);
  p.name = get_opt(j, "name");
  p.logo = get_opt(j, "logo");
  j.at("start").get_to(p.start);
  j.at("venueCode").get_to(p.venueCode);
  j.at("prices").get_to(p.prices);
  j.at("seatCategories").get_to(p.seatCategories);
}
inline void to_json(json &j, const Catalog &c) {
  j = json{{"areaNames", c.areaNames}, {"events", c.events}, {"performances", c.performances},
           {"topicSubTopics", c.topicSubTopics}, {"venueNames", c.venueNames}};
}
inline void from_json(const json &j, Catalog &c) {
  j.at("areaNames").get_to(c.areaNames);
  j.at("events").get_to(c.events);
  j.at("performances").get_to(c.performances);
  j.at("topicSubTopics").get_to(c.topicSubTopics);
  j.at("venueNames").get_to(c.venueNames);
}

inline Catalog load_canonical(const std::string &text) { return json::parse(text).get<Catalog>(); }
