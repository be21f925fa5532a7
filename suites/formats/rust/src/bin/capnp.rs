// Strategy: capnp crate 0.27.3 (generated code by capnpc 0.27.0 at build time, unpacked): encode = the typed
// structs built into a new message::Builder (library default segment sizes) and written out flat
// (write_message_to_words); decode = read_message_from_flat_slice over the bytes (in place, no copy), read into
// new typed structs (strings checked as UTF-8: a String must be); read = the same reader, every field visited in
// place (no plain objects; a string's visit is its byte length, unchecked, as C++'s), answering the visit
// checksum. All on the clock. ReaderOptions are the defaults (traversal limit 8 Mi words, nesting 64).
use capnp::message::{Builder, ReaderOptions};
use capnp::serialize;
use formats_variants::{Area, Catalog, Event, Performance, Price, SeatCategory};
use std::collections::BTreeMap;
use std::hint::black_box;
use std::time::Instant;

capnp::generated_code!(mod catalogue_capnp);
use catalogue_capnp::{catalog, event, performance, text_entry};

type Res<T> = Result<T, capnp::Error>;

fn put_strings(
    mut to: capnp::struct_list::Builder<text_entry::Owned>,
    from: &BTreeMap<String, String>,
) {
    for (i, (k, v)) in from.iter().enumerate() {
        let mut e = to.reborrow().get(i as u32); // BTreeMap: in key order, the schema's map order
        e.set_key(k.as_str());
        e.set_value(v.as_str());
    }
}

fn put_ints(mut to: capnp::primitive_list::Builder<i64>, from: &[i64]) {
    for (i, &x) in from.iter().enumerate() {
        to.set(i as u32, x);
    }
}

fn encode(c: &Catalog) -> Vec<u8> {
    let mut message = Builder::new_default();
    let mut m = message.init_root::<catalog::Builder>();
    put_strings(
        m.reborrow().init_area_names(c.area_names.len() as u32),
        &c.area_names,
    );
    let mut events = m.reborrow().init_events(c.events.len() as u32);
    for (i, (k, e)) in c.events.iter().enumerate() {
        let mut entry = events.reborrow().get(i as u32);
        entry.set_key(k.as_str());
        let mut x = entry.init_value();
        x.set_id(e.id);
        x.set_name(e.name.as_str());
        if let Some(d) = &e.description {
            x.reborrow().get_description().set_present(d.as_str()); // else the union's default: absent
        }
        if let Some(l) = &e.logo {
            x.reborrow().get_logo().set_present(l.as_str());
        }
        put_ints(
            x.reborrow()
                .init_sub_topic_ids(e.sub_topic_ids.len() as u32),
            &e.sub_topic_ids,
        );
        put_ints(x.init_topic_ids(e.topic_ids.len() as u32), &e.topic_ids);
    }
    let mut performances = m.reborrow().init_performances(c.performances.len() as u32);
    for (i, p) in c.performances.iter().enumerate() {
        let mut x = performances.reborrow().get(i as u32);
        x.set_id(p.id);
        x.set_event_id(p.event_id);
        if let Some(n) = &p.name {
            x.reborrow().get_name().set_present(n.as_str());
        }
        if let Some(l) = &p.logo {
            x.reborrow().get_logo().set_present(l.as_str());
        }
        x.set_start(p.start);
        x.set_venue_code(p.venue_code.as_str());
        let mut prices = x.reborrow().init_prices(p.prices.len() as u32);
        for (j, pr) in p.prices.iter().enumerate() {
            let mut y = prices.reborrow().get(j as u32);
            y.set_amount(pr.amount);
            y.set_audience_sub_category_id(pr.audience_sub_category_id);
            y.set_seat_category_id(pr.seat_category_id);
        }
        let mut cats = x.init_seat_categories(p.seat_categories.len() as u32);
        for (j, sc) in p.seat_categories.iter().enumerate() {
            let mut y = cats.reborrow().get(j as u32);
            y.set_seat_category_id(sc.seat_category_id);
            let mut areas = y.init_areas(sc.areas.len() as u32);
            for (a, area) in sc.areas.iter().enumerate() {
                let mut z = areas.reborrow().get(a as u32);
                z.set_area_id(area.area_id);
                put_ints(
                    z.init_block_ids(area.block_ids.len() as u32),
                    &area.block_ids,
                );
            }
        }
    }
    let mut topics = m
        .reborrow()
        .init_topic_sub_topics(c.topic_sub_topics.len() as u32);
    for (i, (k, ids)) in c.topic_sub_topics.iter().enumerate() {
        let mut entry = topics.reborrow().get(i as u32);
        entry.set_key(k.as_str());
        put_ints(entry.init_value(ids.len() as u32), ids);
    }
    put_strings(
        m.init_venue_names(c.venue_names.len() as u32),
        &c.venue_names,
    );
    serialize::write_message_to_words(&message)
}

/// A reader over the whole of b (read in place: the crate needs b 8-byte aligned, which a Vec<u8> of 8 bytes
/// or more from the system allocator is); bytes past the message's end are refused (a flat array is one message).
fn reader(b: &[u8]) -> Result<capnp::message::Reader<serialize::BufferSegments<&[u8]>>, String> {
    let mut rest = b;
    let message =
        serialize::read_message_from_flat_slice(&mut rest, ReaderOptions::new()).map_err(err)?;
    if !rest.is_empty() {
        return Err(format!(
            "capnp: {} bytes past the end of the message",
            rest.len()
        ));
    }
    Ok(message)
}

fn err(e: capnp::Error) -> String {
    format!("capnp: {e}").replace(['\n', '\r'], " ")
}

fn string(t: capnp::text::Reader) -> Res<String> {
    Ok(t.to_str()?.to_owned())
}

fn ints(l: capnp::primitive_list::Reader<i64>) -> Vec<i64> {
    l.iter().collect()
}

/// Map entries in strictly increasing key order (the encoders write them so), or the bytes are refused: a map
/// decoded is the map written, alike in every language.
fn put_after<V>(
    m: &mut BTreeMap<String, V>,
    last: &mut Option<String>,
    k: String,
    v: V,
) -> Res<()> {
    if last.as_ref().is_some_and(|l| *l >= k) {
        return Err(capnp::Error::failed(
            "map keys out of order or repeated".into(),
        ));
    }
    *last = Some(k.clone());
    m.insert(k, v);
    Ok(())
}

fn strings(l: capnp::struct_list::Reader<text_entry::Owned>) -> Res<BTreeMap<String, String>> {
    let (mut m, mut last) = (BTreeMap::new(), None);
    for e in l.iter() {
        put_after(
            &mut m,
            &mut last,
            string(e.get_key()?)?,
            string(e.get_value()?)?,
        )?;
    }
    Ok(m)
}

fn event_opt(u: event::description::Reader) -> Res<Option<String>> {
    Ok(match u.which()? {
        event::description::Absent(()) => None,
        event::description::Present(t) => Some(string(t?)?),
    })
}

fn event_logo(u: event::logo::Reader) -> Res<Option<String>> {
    Ok(match u.which()? {
        event::logo::Absent(()) => None,
        event::logo::Present(t) => Some(string(t?)?),
    })
}

fn perf_name(u: performance::name::Reader) -> Res<Option<String>> {
    Ok(match u.which()? {
        performance::name::Absent(()) => None,
        performance::name::Present(t) => Some(string(t?)?),
    })
}

fn perf_logo(u: performance::logo::Reader) -> Res<Option<String>> {
    Ok(match u.which()? {
        performance::logo::Absent(()) => None,
        performance::logo::Present(t) => Some(string(t?)?),
    })
}

fn decode_from(m: catalog::Reader) -> Res<Catalog> {
    let area_names = strings(m.get_area_names()?)?;
    let (mut events, mut last) = (BTreeMap::new(), None);
    for entry in m.get_events()?.iter() {
        let x = entry.get_value()?;
        let e = Event {
            id: x.get_id(),
            name: string(x.get_name()?)?,
            description: event_opt(x.get_description())?,
            logo: event_logo(x.get_logo())?,
            sub_topic_ids: ints(x.get_sub_topic_ids()?),
            topic_ids: ints(x.get_topic_ids()?),
        };
        put_after(&mut events, &mut last, string(entry.get_key()?)?, e)?;
    }
    let list = m.get_performances()?;
    let mut performances = Vec::with_capacity(list.len() as usize);
    for x in list.iter() {
        let mut seat_categories = Vec::new();
        for y in x.get_seat_categories()?.iter() {
            let mut areas = Vec::new();
            for z in y.get_areas()?.iter() {
                areas.push(Area {
                    area_id: z.get_area_id(),
                    block_ids: ints(z.get_block_ids()?),
                });
            }
            seat_categories.push(SeatCategory {
                seat_category_id: y.get_seat_category_id(),
                areas,
            });
        }
        performances.push(Performance {
            id: x.get_id(),
            event_id: x.get_event_id(),
            name: perf_name(x.get_name())?,
            logo: perf_logo(x.get_logo())?,
            start: x.get_start(),
            venue_code: string(x.get_venue_code()?)?,
            prices: x
                .get_prices()?
                .iter()
                .map(|y| Price {
                    amount: y.get_amount(),
                    audience_sub_category_id: y.get_audience_sub_category_id(),
                    seat_category_id: y.get_seat_category_id(),
                })
                .collect(),
            seat_categories,
        });
    }
    let (mut topic_sub_topics, mut last) = (BTreeMap::new(), None);
    for entry in m.get_topic_sub_topics()?.iter() {
        put_after(
            &mut topic_sub_topics,
            &mut last,
            string(entry.get_key()?)?,
            ints(entry.get_value()?),
        )?;
    }
    Ok(Catalog {
        area_names,
        events,
        performances,
        topic_sub_topics,
        venue_names: strings(m.get_venue_names()?)?,
    })
}

fn decode(b: &[u8]) -> Result<Catalog, String> {
    let message = reader(b)?;
    let root = message.get_root::<catalog::Reader>().map_err(err)?;
    decode_from(root).map_err(err)
}

// --- read: the visit checksum (README.md, "The read op"), through the reader, no plain objects ---------------
// The canonical JSON's value tree: a record is an object, so each adds its number of keys and their byte lengths
// (constants here, spelled as the keys); an int is its value mod 2^64; a string its UTF-8 length; null 0.
const fn keys(names: &[&str]) -> u64 {
    let (mut n, mut i) = (names.len() as u64, 0);
    while i < names.len() {
        n += names[i].len() as u64;
        i += 1;
    }
    n
}
const CATALOG: u64 = keys(&[
    "areaNames",
    "events",
    "performances",
    "topicSubTopics",
    "venueNames",
]);
const EVENT: u64 = keys(&[
    "id",
    "name",
    "description",
    "logo",
    "subTopicIds",
    "topicIds",
]);
const PERFORMANCE: u64 = keys(&[
    "id",
    "eventId",
    "name",
    "logo",
    "start",
    "venueCode",
    "prices",
    "seatCategories",
]);
const PRICE: u64 = keys(&["amount", "audienceSubCategoryId", "seatCategoryId"]);
const SEAT_CATEGORY: u64 = keys(&["seatCategoryId", "areas"]);
const AREA: u64 = keys(&["areaId", "blockIds"]);

fn visit_ints(l: capnp::primitive_list::Reader<i64>) -> u64 {
    l.iter()
        .fold(l.len() as u64, |s, x| s.wrapping_add(x as u64))
}

fn tlen(t: capnp::text::Reader) -> u64 {
    t.len() as u64
}

fn visit_strings(l: capnp::struct_list::Reader<text_entry::Owned>) -> Res<u64> {
    let mut s = l.len() as u64;
    for e in l.iter() {
        s = s.wrapping_add(tlen(e.get_key()?) + tlen(e.get_value()?));
    }
    Ok(s)
}

fn visit(m: catalog::Reader) -> Res<u64> {
    let mut s = CATALOG.wrapping_add(visit_strings(m.get_area_names()?)?);
    let events = m.get_events()?;
    s = s.wrapping_add(events.len() as u64);
    for entry in events.iter() {
        let x = entry.get_value()?;
        s = s
            .wrapping_add(tlen(entry.get_key()?) + EVENT)
            .wrapping_add(x.get_id() as u64)
            .wrapping_add(tlen(x.get_name()?));
        if let event::description::Present(t) = x.get_description().which()? {
            s = s.wrapping_add(tlen(t?));
        }
        if let event::logo::Present(t) = x.get_logo().which()? {
            s = s.wrapping_add(tlen(t?));
        }
        s = s
            .wrapping_add(visit_ints(x.get_sub_topic_ids()?))
            .wrapping_add(visit_ints(x.get_topic_ids()?));
    }
    let performances = m.get_performances()?;
    s = s.wrapping_add(performances.len() as u64);
    for x in performances.iter() {
        s = s
            .wrapping_add(PERFORMANCE)
            .wrapping_add(x.get_id() as u64)
            .wrapping_add(x.get_event_id() as u64);
        if let performance::name::Present(t) = x.get_name().which()? {
            s = s.wrapping_add(tlen(t?));
        }
        if let performance::logo::Present(t) = x.get_logo().which()? {
            s = s.wrapping_add(tlen(t?));
        }
        s = s
            .wrapping_add(x.get_start() as u64)
            .wrapping_add(tlen(x.get_venue_code()?));
        let prices = x.get_prices()?;
        s = s.wrapping_add(prices.len() as u64);
        for y in prices.iter() {
            s = s
                .wrapping_add(PRICE)
                .wrapping_add(y.get_amount() as u64)
                .wrapping_add(y.get_audience_sub_category_id() as u64)
                .wrapping_add(y.get_seat_category_id() as u64);
        }
        let cats = x.get_seat_categories()?;
        s = s.wrapping_add(cats.len() as u64);
        for y in cats.iter() {
            let areas = y.get_areas()?;
            s = s
                .wrapping_add(SEAT_CATEGORY)
                .wrapping_add(y.get_seat_category_id() as u64)
                .wrapping_add(areas.len() as u64);
            for z in areas.iter() {
                s = s
                    .wrapping_add(AREA)
                    .wrapping_add(z.get_area_id() as u64)
                    .wrapping_add(visit_ints(z.get_block_ids()?));
            }
        }
    }
    let topics = m.get_topic_sub_topics()?;
    s = s.wrapping_add(topics.len() as u64);
    for entry in topics.iter() {
        s = s
            .wrapping_add(tlen(entry.get_key()?))
            .wrapping_add(visit_ints(entry.get_value()?));
    }
    Ok(s.wrapping_add(visit_strings(m.get_venue_names()?)?))
}

fn read_visit(b: &[u8]) -> Result<u64, String> {
    let message = reader(b)?;
    visit(message.get_root::<catalog::Reader>().map_err(err)?).map_err(err)
}

fn fail(message: impl std::fmt::Display) -> ! {
    eprintln!("error: {message}");
    std::process::exit(1)
}

/// `PROG CANON read PASSES`: the bytes its own encoder wrote (untimed), then PASSES of a new reader and a visit.
fn run_read(canon: &str, passes: &str) -> ! {
    let passes: u64 = match passes.parse() {
        Ok(n) if n >= 1 => n,
        _ => fail(format!("PASSES must be a positive integer, not '{passes}'")),
    };
    let encoded = encode(&formats_variants::load(canon)); // untimed
    let start = Instant::now();
    let mut sum = 0;
    for p in 1..=passes {
        let s = read_visit(black_box(&encoded)).unwrap_or_else(|e| fail(e));
        if p > 1 && s != sum {
            fail(format!("pass {p} visited another sum"));
        }
        sum = s;
    }
    let inner = start.elapsed().as_nanos();
    eprintln!(
        "iorace-result {{\"answer\": \"{sum}\", \"inner_ns\": {inner}, \"extra\": {{\"encoded_bytes\": {}}}}}",
        encoded.len()
    );
    std::process::exit(0)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [canon, op, passes] = &args[..] {
        if op == "read" && canon != "--emit" {
            run_read(canon, passes);
        }
    }
    formats_variants::main(|c| Ok(encode(c)), decode)
}
