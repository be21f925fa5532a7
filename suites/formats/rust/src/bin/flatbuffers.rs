// Strategy: the flatbuffers crate 25.12.19 (flatc 25.12.19's generated code, committed): the typed structs written
// into a new FlatBufferBuilder bottom-up (strings and vectors first, then each table; maps as vectors sorted by
// key) and copied out; decode runs `root_as_catalog` (which verifies the whole buffer: offsets, sizes, alignment,
// required fields, UTF-8, depth and table count) and copies every field into new typed structs; read verifies the
// same way and visits every field in place (no plain objects), answering the visit checksum. The verify is on the
// clock in both. src/catalogue_generated.rs: ../flatbuffers/regen.sh (cargo's build has no flatc at hand).
#[allow(clippy::all, unused_imports, dead_code, non_snake_case, mismatched_lifetime_syntaxes)]
#[path = "../catalogue_generated.rs"]
#[rustfmt::skip] // flatc's output as flatbuffers/regen.sh writes it
mod generated;

use flatbuffers::{FlatBufferBuilder, ForwardsUOffset, Vector, WIPOffset};
use formats_variants::{main_with_read, Area, Catalog, Event, Performance, Price, SeatCategory};
use generated::fbcatalogue as fb;
use std::collections::BTreeMap;

type Entries<'a, T> = WIPOffset<Vector<'a, ForwardsUOffset<T>>>;

fn string_map<'a>(
    b: &mut FlatBufferBuilder<'a>,
    m: &BTreeMap<String, String>,
) -> Entries<'a, fb::StringEntry<'a>> {
    // a BTreeMap<String, _> iterates in key-byte order: already the (key) order
    let entries: Vec<_> = m
        .iter()
        .map(|(k, v)| {
            let args = fb::StringEntryArgs {
                key: Some(b.create_string(k)),
                value: Some(b.create_string(v)),
            };
            fb::StringEntry::create(b, &args)
        })
        .collect();
    b.create_vector(&entries)
}

fn encode(c: &Catalog) -> Result<Vec<u8>, String> {
    let mut b = FlatBufferBuilder::with_capacity(1 << 16);
    let area_names = string_map(&mut b, &c.area_names);
    let mut events = Vec::with_capacity(c.events.len());
    for (k, e) in &c.events {
        let key = b.create_string(k);
        let args = fb::EventArgs {
            id: e.id,
            name: Some(b.create_string(&e.name)),
            description: e.description.as_deref().map(|s| b.create_string(s)),
            logo: e.logo.as_deref().map(|s| b.create_string(s)),
            sub_topic_ids: Some(b.create_vector(&e.sub_topic_ids)),
            topic_ids: Some(b.create_vector(&e.topic_ids)),
        };
        let value = fb::Event::create(&mut b, &args);
        events.push(fb::EventEntry::create(
            &mut b,
            &fb::EventEntryArgs {
                key: Some(key),
                value: Some(value),
            },
        ));
    }
    let events = b.create_vector(&events);
    let mut perfs = Vec::with_capacity(c.performances.len());
    for p in &c.performances {
        let prices: Vec<fb::Price> = p
            .prices
            .iter()
            .map(|x| fb::Price::new(x.amount, x.audience_sub_category_id, x.seat_category_id))
            .collect();
        let mut cats = Vec::with_capacity(p.seat_categories.len());
        for sc in &p.seat_categories {
            let mut areas = Vec::with_capacity(sc.areas.len());
            for a in &sc.areas {
                let block_ids = Some(b.create_vector(&a.block_ids));
                areas.push(fb::Area::create(
                    &mut b,
                    &fb::AreaArgs {
                        area_id: a.area_id,
                        block_ids,
                    },
                ));
            }
            let areas = Some(b.create_vector(&areas));
            cats.push(fb::SeatCategory::create(
                &mut b,
                &fb::SeatCategoryArgs {
                    seat_category_id: sc.seat_category_id,
                    areas,
                },
            ));
        }
        let args = fb::PerformanceArgs {
            id: p.id,
            event_id: p.event_id,
            name: p.name.as_deref().map(|s| b.create_string(s)),
            logo: p.logo.as_deref().map(|s| b.create_string(s)),
            start: p.start,
            venue_code: Some(b.create_string(&p.venue_code)),
            prices: Some(b.create_vector(&prices)),
            seat_categories: Some(b.create_vector(&cats)),
        };
        perfs.push(fb::Performance::create(&mut b, &args));
    }
    let performances = b.create_vector(&perfs);
    let mut topics = Vec::with_capacity(c.topic_sub_topics.len());
    for (k, ids) in &c.topic_sub_topics {
        let args = fb::Int64ListEntryArgs {
            key: Some(b.create_string(k)),
            values: Some(b.create_vector(ids)),
        };
        topics.push(fb::Int64ListEntry::create(&mut b, &args));
    }
    let topic_sub_topics = b.create_vector(&topics);
    let venue_names = string_map(&mut b, &c.venue_names);
    let args = fb::CatalogArgs {
        area_names: Some(area_names),
        events: Some(events),
        performances: Some(performances),
        topic_sub_topics: Some(topic_sub_topics),
        venue_names: Some(venue_names),
    };
    let root = fb::Catalog::create(&mut b, &args);
    fb::finish_catalog_buffer(&mut b, root);
    Ok(b.finished_data().to_vec())
}

fn verified(raw: &[u8]) -> Result<fb::Catalog<'_>, String> {
    fb::root_as_catalog(raw)
        .map_err(|e| format!("flatbuffers: {}", e.to_string().replace('\n', " ")))
}

fn ints(v: Option<Vector<'_, i64>>) -> Vec<i64> {
    v.map(|v| v.iter().collect()).unwrap_or_default()
}

fn decode(raw: &[u8]) -> Result<Catalog, String> {
    let m = verified(raw)?;
    let strings =
        |v: Option<Vector<'_, ForwardsUOffset<fb::StringEntry<'_>>>>| -> BTreeMap<String, String> {
            v.iter()
                .flatten()
                .map(|x| (x.key().to_owned(), x.value().to_owned()))
                .collect()
        };
    let events = m
        .events()
        .iter()
        .flatten()
        .map(|x| {
            let e = x.value();
            let event = Event {
                id: e.id(),
                name: e.name().to_owned(),
                description: e.description().map(str::to_owned),
                logo: e.logo().map(str::to_owned),
                sub_topic_ids: ints(e.sub_topic_ids()),
                topic_ids: ints(e.topic_ids()),
            };
            (x.key().to_owned(), event)
        })
        .collect();
    let performances = m
        .performances()
        .iter()
        .flatten()
        .map(|p| Performance {
            id: p.id(),
            event_id: p.event_id(),
            name: p.name().map(str::to_owned),
            logo: p.logo().map(str::to_owned),
            start: p.start(),
            venue_code: p.venue_code().to_owned(),
            prices: p
                .prices()
                .iter()
                .flatten()
                .map(|x| Price {
                    amount: x.amount(),
                    audience_sub_category_id: x.audience_sub_category_id(),
                    seat_category_id: x.seat_category_id(),
                })
                .collect(),
            seat_categories: p
                .seat_categories()
                .iter()
                .flatten()
                .map(|sc| SeatCategory {
                    seat_category_id: sc.seat_category_id(),
                    areas: sc
                        .areas()
                        .iter()
                        .flatten()
                        .map(|a| Area {
                            area_id: a.area_id(),
                            block_ids: ints(a.block_ids()),
                        })
                        .collect(),
                })
                .collect(),
        })
        .collect();
    Ok(Catalog {
        area_names: strings(m.area_names()),
        events,
        performances,
        topic_sub_topics: m
            .topic_sub_topics()
            .iter()
            .flatten()
            .map(|x| (x.key().to_owned(), ints(x.values())))
            .collect(),
        venue_names: strings(m.venue_names()),
    })
}

// The visit checksum (README): a record's entries are its JSON field names, so each record adds a constant (its
// field count plus their names' UTF-8 lengths); strings add their byte length, ints their value mod 2^64, and
// the u64 sum wraps as the definition does.
const fn names(fields: &[&str]) -> u64 {
    let mut n = 0;
    let mut i = 0;
    while i < fields.len() {
        n += 1 + fields[i].len() as u64;
        i += 1;
    }
    n
}
const CATALOG: u64 = names(&[
    "areaNames",
    "events",
    "performances",
    "topicSubTopics",
    "venueNames",
]);
const EVENT: u64 = names(&[
    "id",
    "name",
    "description",
    "logo",
    "subTopicIds",
    "topicIds",
]);
const PERFORMANCE: u64 = names(&[
    "id",
    "eventId",
    "name",
    "logo",
    "start",
    "venueCode",
    "prices",
    "seatCategories",
]);
const PRICE: u64 = names(&["amount", "audienceSubCategoryId", "seatCategoryId"]);
const SEAT_CATEGORY: u64 = names(&["seatCategoryId", "areas"]);
const AREA: u64 = names(&["areaId", "blockIds"]);

fn sum_ints(v: Option<Vector<'_, i64>>) -> u64 {
    v.map_or(0, |v| {
        v.iter()
            .fold(v.len() as u64, |s, x| s.wrapping_add(x as u64))
    })
}

fn len(s: Option<&str>) -> u64 {
    s.map_or(0, |s| s.len() as u64)
}

fn visit(raw: &[u8]) -> Result<u64, String> {
    let m = verified(raw)?;
    let strings = |v: Option<Vector<'_, ForwardsUOffset<fb::StringEntry<'_>>>>| {
        v.map_or(0u64, |v| {
            v.iter().fold(v.len() as u64, |s, x| {
                s.wrapping_add((x.key().len() + x.value().len()) as u64)
            })
        })
    };
    let mut s = CATALOG.wrapping_add(strings(m.area_names()));
    if let Some(v) = m.events() {
        s = s.wrapping_add(v.len() as u64);
        for x in v {
            let e = x.value();
            s = s
                .wrapping_add(x.key().len() as u64 + EVENT)
                .wrapping_add(e.id() as u64)
                .wrapping_add(e.name().len() as u64 + len(e.description()) + len(e.logo()))
                .wrapping_add(sum_ints(e.sub_topic_ids()))
                .wrapping_add(sum_ints(e.topic_ids()));
        }
    }
    if let Some(v) = m.performances() {
        s = s.wrapping_add(v.len() as u64);
        for p in v {
            s = s
                .wrapping_add(PERFORMANCE)
                .wrapping_add(p.id() as u64)
                .wrapping_add(p.event_id() as u64)
                .wrapping_add(len(p.name()) + len(p.logo()) + p.venue_code().len() as u64)
                .wrapping_add(p.start() as u64);
            if let Some(w) = p.prices() {
                s = s.wrapping_add(w.len() as u64);
                for x in w {
                    s = s
                        .wrapping_add(PRICE)
                        .wrapping_add(x.amount() as u64)
                        .wrapping_add(x.audience_sub_category_id() as u64)
                        .wrapping_add(x.seat_category_id() as u64);
                }
            }
            if let Some(w) = p.seat_categories() {
                s = s.wrapping_add(w.len() as u64);
                for sc in w {
                    s = s
                        .wrapping_add(SEAT_CATEGORY)
                        .wrapping_add(sc.seat_category_id() as u64);
                    if let Some(areas) = sc.areas() {
                        s = s.wrapping_add(areas.len() as u64);
                        for a in areas {
                            s = s
                                .wrapping_add(AREA)
                                .wrapping_add(a.area_id() as u64)
                                .wrapping_add(sum_ints(a.block_ids()));
                        }
                    }
                }
            }
        }
    }
    if let Some(v) = m.topic_sub_topics() {
        s = s.wrapping_add(v.len() as u64);
        for x in v {
            s = s
                .wrapping_add(x.key().len() as u64)
                .wrapping_add(sum_ints(x.values()));
        }
    }
    Ok(s.wrapping_add(strings(m.venue_names())))
}

fn main() {
    main_with_read(encode, decode, Some(visit))
}
