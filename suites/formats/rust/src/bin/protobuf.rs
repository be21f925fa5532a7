// Strategy: prost 0.14.4 (generated structs, Message::encode_to_vec / decode): the typed structs built into a new
// generated Catalog (every string and list cloned) and encoded; decoded into a new one and converted to new typed
// structs, moving its strings, lists and maps (both on the clock). The generated types come from
// ../proto/catalogue.proto at build time (build.rs, prost-build: generator and runtime are one pinned release).
use formats_variants::{Area, Catalog, Event, Performance, Price, SeatCategory};
use prost::Message;

mod pb {
    include!(concat!(env!("OUT_DIR"), "/iorace.formats.rs"));
}

fn to_message(c: &Catalog) -> pb::Catalog {
    pb::Catalog {
        area_names: c.area_names.clone(),
        events: c
            .events
            .iter()
            .map(|(k, e)| {
                let m = pb::Event {
                    id: e.id,
                    name: e.name.clone(),
                    description: e.description.clone(),
                    logo: e.logo.clone(),
                    sub_topic_ids: e.sub_topic_ids.clone(),
                    topic_ids: e.topic_ids.clone(),
                };
                (k.clone(), m)
            })
            .collect(),
        performances: c
            .performances
            .iter()
            .map(|p| pb::Performance {
                id: p.id,
                event_id: p.event_id,
                name: p.name.clone(),
                logo: p.logo.clone(),
                start: p.start,
                venue_code: p.venue_code.clone(),
                prices: p
                    .prices
                    .iter()
                    .map(|pr| pb::Price {
                        amount: pr.amount,
                        audience_sub_category_id: pr.audience_sub_category_id,
                        seat_category_id: pr.seat_category_id,
                    })
                    .collect(),
                seat_categories: p
                    .seat_categories
                    .iter()
                    .map(|sc| pb::SeatCategory {
                        seat_category_id: sc.seat_category_id,
                        areas: sc
                            .areas
                            .iter()
                            .map(|a| pb::Area {
                                area_id: a.area_id,
                                block_ids: a.block_ids.clone(),
                            })
                            .collect(),
                    })
                    .collect(),
            })
            .collect(),
        topic_sub_topics: c
            .topic_sub_topics
            .iter()
            .map(|(k, v)| (k.clone(), pb::Int64List { values: v.clone() }))
            .collect(),
        venue_names: c.venue_names.clone(),
    }
}

fn from_message(m: pb::Catalog) -> Catalog {
    Catalog {
        area_names: m.area_names,
        events: m
            .events
            .into_iter()
            .map(|(k, e)| {
                let e = Event {
                    id: e.id,
                    name: e.name,
                    description: e.description,
                    logo: e.logo,
                    sub_topic_ids: e.sub_topic_ids,
                    topic_ids: e.topic_ids,
                };
                (k, e)
            })
            .collect(),
        performances: m
            .performances
            .into_iter()
            .map(|p| Performance {
                id: p.id,
                event_id: p.event_id,
                name: p.name,
                logo: p.logo,
                start: p.start,
                venue_code: p.venue_code,
                prices: p
                    .prices
                    .into_iter()
                    .map(|pr| Price {
                        amount: pr.amount,
                        audience_sub_category_id: pr.audience_sub_category_id,
                        seat_category_id: pr.seat_category_id,
                    })
                    .collect(),
                seat_categories: p
                    .seat_categories
                    .into_iter()
                    .map(|sc| SeatCategory {
                        seat_category_id: sc.seat_category_id,
                        areas: sc
                            .areas
                            .into_iter()
                            .map(|a| Area {
                                area_id: a.area_id,
                                block_ids: a.block_ids,
                            })
                            .collect(),
                    })
                    .collect(),
            })
            .collect(),
        topic_sub_topics: m
            .topic_sub_topics
            .into_iter()
            .map(|(k, v)| (k, v.values))
            .collect(),
        venue_names: m.venue_names,
    }
}

fn main() {
    formats_variants::main(
        |c| Ok(to_message(c).encode_to_vec()),
        |b| {
            pb::Catalog::decode(b)
                .map(from_message)
                .map_err(|e| format!("protobuf: {e}"))
        },
    )
}
