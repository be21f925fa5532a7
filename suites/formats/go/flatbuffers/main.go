// Strategy: github.com/google/flatbuffers v25.12.19 (Go runtime; flatc 25.12.19's generated code, committed): the
// typed structs written into a new Builder bottom-up (strings and vectors first, then each table; maps as vectors
// sorted by key, Go's maps sorted first) and copied out; decode walks the buffer through the generated accessors
// into new typed structs; read visits every field through them (no plain objects) and answers the visit checksum.
// Go's runtime has no verifier: each vector's count is checked against the buffer's size before a loop over it
// (a mutant's 2^32 items would else be a hang), a required string's absence is refused, the buffer's capacity is cut
// to its length (a string past the end would else be read from beyond it), and an offset out of the
// buffer (the runtime's index-out-of-range panic) is recovered into a one-line refusal: all of it as it reads,
// on the clock, no verify pass of its own. ../fbcatalogue/ is committed (Go's convention): ../../flatbuffers/regen.sh.
package main

import (
	"fmt"
	"runtime"
	"sort"
	"strings"

	"formats/common"
	fb "formats/fbcatalogue"

	flatbuffers "github.com/google/flatbuffers/go"
)

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys) // Go compares strings by bytes: the (key) order
	return keys
}

func ints(b *flatbuffers.Builder, start func(*flatbuffers.Builder, int) flatbuffers.UOffsetT, v []int64) flatbuffers.UOffsetT {
	start(b, len(v))
	for i := len(v) - 1; i >= 0; i-- { // a vector is written back to front
		b.PrependInt64(v[i])
	}
	return b.EndVector(len(v))
}

func offsets(b *flatbuffers.Builder, start func(*flatbuffers.Builder, int) flatbuffers.UOffsetT, v []flatbuffers.UOffsetT) flatbuffers.UOffsetT {
	start(b, len(v))
	for i := len(v) - 1; i >= 0; i-- {
		b.PrependUOffsetT(v[i])
	}
	return b.EndVector(len(v))
}

func stringMap(b *flatbuffers.Builder, m map[string]string) []flatbuffers.UOffsetT {
	out := make([]flatbuffers.UOffsetT, 0, len(m))
	for _, k := range sortedKeys(m) {
		key, value := b.CreateString(k), b.CreateString(m[k])
		fb.StringEntryStart(b)
		fb.StringEntryAddKey(b, key)
		fb.StringEntryAddValue(b, value)
		out = append(out, fb.StringEntryEnd(b))
	}
	return out
}

func encode(c *common.Catalog) ([]byte, error) {
	b := flatbuffers.NewBuilder(1 << 16)
	areaNames := offsets(b, fb.CatalogStartAreaNamesVector, stringMap(b, c.AreaNames))
	events := make([]flatbuffers.UOffsetT, 0, len(c.Events))
	for _, k := range sortedKeys(c.Events) {
		e := c.Events[k]
		key, name := b.CreateString(k), b.CreateString(e.Name)
		var desc, logo flatbuffers.UOffsetT
		if e.Description != nil {
			desc = b.CreateString(*e.Description)
		}
		if e.Logo != nil {
			logo = b.CreateString(*e.Logo)
		}
		subs := ints(b, fb.EventStartSubTopicIdsVector, e.SubTopicIDs)
		topics := ints(b, fb.EventStartTopicIdsVector, e.TopicIDs)
		fb.EventStart(b)
		fb.EventAddId(b, e.ID)
		fb.EventAddName(b, name)
		if e.Description != nil {
			fb.EventAddDescription(b, desc)
		}
		if e.Logo != nil {
			fb.EventAddLogo(b, logo)
		}
		fb.EventAddSubTopicIds(b, subs)
		fb.EventAddTopicIds(b, topics)
		ev := fb.EventEnd(b)
		fb.EventEntryStart(b)
		fb.EventEntryAddKey(b, key)
		fb.EventEntryAddValue(b, ev)
		events = append(events, fb.EventEntryEnd(b))
	}
	eventsVec := offsets(b, fb.CatalogStartEventsVector, events)
	perfs := make([]flatbuffers.UOffsetT, 0, len(c.Performances))
	for i := range c.Performances {
		p := &c.Performances[i]
		var name, logo flatbuffers.UOffsetT
		if p.Name != nil {
			name = b.CreateString(*p.Name)
		}
		if p.Logo != nil {
			logo = b.CreateString(*p.Logo)
		}
		venue := b.CreateString(p.VenueCode)
		fb.PerformanceStartPricesVector(b, len(p.Prices))
		for j := len(p.Prices) - 1; j >= 0; j-- {
			pr := &p.Prices[j]
			fb.CreatePrice(b, pr.Amount, pr.AudienceSubCategoryID, pr.SeatCategoryID)
		}
		prices := b.EndVector(len(p.Prices))
		cats := make([]flatbuffers.UOffsetT, 0, len(p.SeatCategories))
		for _, sc := range p.SeatCategories {
			areas := make([]flatbuffers.UOffsetT, 0, len(sc.Areas))
			for _, a := range sc.Areas {
				blocks := ints(b, fb.AreaStartBlockIdsVector, a.BlockIDs)
				fb.AreaStart(b)
				fb.AreaAddAreaId(b, a.AreaID)
				fb.AreaAddBlockIds(b, blocks)
				areas = append(areas, fb.AreaEnd(b))
			}
			areasVec := offsets(b, fb.SeatCategoryStartAreasVector, areas)
			fb.SeatCategoryStart(b)
			fb.SeatCategoryAddSeatCategoryId(b, sc.SeatCategoryID)
			fb.SeatCategoryAddAreas(b, areasVec)
			cats = append(cats, fb.SeatCategoryEnd(b))
		}
		catsVec := offsets(b, fb.PerformanceStartSeatCategoriesVector, cats)
		fb.PerformanceStart(b)
		fb.PerformanceAddId(b, p.ID)
		fb.PerformanceAddEventId(b, p.EventID)
		if p.Name != nil {
			fb.PerformanceAddName(b, name)
		}
		if p.Logo != nil {
			fb.PerformanceAddLogo(b, logo)
		}
		fb.PerformanceAddStart(b, p.Start)
		fb.PerformanceAddVenueCode(b, venue)
		fb.PerformanceAddPrices(b, prices)
		fb.PerformanceAddSeatCategories(b, catsVec)
		perfs = append(perfs, fb.PerformanceEnd(b))
	}
	perfsVec := offsets(b, fb.CatalogStartPerformancesVector, perfs)
	topics := make([]flatbuffers.UOffsetT, 0, len(c.TopicSubTopics))
	for _, k := range sortedKeys(c.TopicSubTopics) {
		key := b.CreateString(k)
		values := ints(b, fb.Int64ListEntryStartValuesVector, c.TopicSubTopics[k])
		fb.Int64ListEntryStart(b)
		fb.Int64ListEntryAddKey(b, key)
		fb.Int64ListEntryAddValues(b, values)
		topics = append(topics, fb.Int64ListEntryEnd(b))
	}
	topicsVec := offsets(b, fb.CatalogStartTopicSubTopicsVector, topics)
	venueNames := offsets(b, fb.CatalogStartVenueNamesVector, stringMap(b, c.VenueNames))
	fb.CatalogStart(b)
	fb.CatalogAddAreaNames(b, areaNames)
	fb.CatalogAddEvents(b, eventsVec)
	fb.CatalogAddPerformances(b, perfsVec)
	fb.CatalogAddTopicSubTopics(b, topicsVec)
	fb.CatalogAddVenueNames(b, venueNames)
	b.Finish(fb.CatalogEnd(b))
	return b.FinishedBytes(), nil
}

// refusal is what a reading panic is turned into.
type refusal struct{ msg string }

// checked runs f, turning the runtime's panic on an offset out of the buffer, and a refusal, into an error.
func checked[T any](f func() T) (out T, err error) {
	defer func() {
		if r := recover(); r != nil {
			switch e := r.(type) {
			case refusal:
				err = fmt.Errorf("flatbuffers: %s", e.msg)
			case runtime.Error: // an index or slice out of the buffer, said without Go's "runtime error" prefix
				err = fmt.Errorf("flatbuffers: an offset out of the buffer (%s)", strings.TrimPrefix(e.Error(), "runtime error: "))
			default:
				panic(r)
			}
		}
	}()
	return f(), nil
}

type reader struct{ size int }

// n is a vector's count, refused when its items could not fit in the buffer.
func (r reader) n(count, item int) int {
	if count < 0 || count*item > r.size {
		panic(refusal{fmt.Sprintf("a vector of %d items of %d B in a %d B buffer", count, item, r.size)})
	}
	return count
}

func req(b []byte, what string) []byte {
	if b == nil {
		panic(refusal{"required " + what + " absent"})
	}
	return b
}

func root(raw []byte) (reader, *fb.Catalog) {
	if len(raw) < 8 {
		panic(refusal{"shorter than a root offset and a vtable"})
	}
	// cap = len: the runtime slices a string as Bytes[start:start+length], which Go allows up to the slice's
	// capacity, not its length (os.ReadFile's buffer has room past the file's end): a string cut short by the
	// end of the bytes would read what lies past them (the truncation test found it)
	raw = raw[:len(raw):len(raw)]
	return reader{len(raw)}, fb.GetRootAsCatalog(raw, 0)
}

func opt(b []byte) *string {
	if b == nil {
		return nil
	}
	s := string(b)
	return &s
}

func decodeAll(raw []byte) *common.Catalog {
	r, m := root(raw)
	c := &common.Catalog{}
	var se fb.StringEntry
	c.AreaNames = make(map[string]string, r.n(m.AreaNamesLength(), 4)) // a count checked before it sizes a map
	for i := range r.n(m.AreaNamesLength(), 4) {
		m.AreaNames(&se, i)
		c.AreaNames[string(req(se.Key(), "key"))] = string(req(se.Value(), "value"))
	}
	var ee fb.EventEntry
	var e fb.Event
	c.Events = make(map[string]common.Event, r.n(m.EventsLength(), 4))
	for i := range r.n(m.EventsLength(), 4) {
		m.Events(&ee, i)
		if ee.Value(&e) == nil {
			panic(refusal{"required event absent"})
		}
		ev := common.Event{ID: e.Id(), Name: string(req(e.Name(), "name")), Description: opt(e.Description()), Logo: opt(e.Logo())}
		ev.SubTopicIDs = make([]int64, r.n(e.SubTopicIdsLength(), 8))
		for j := range ev.SubTopicIDs {
			ev.SubTopicIDs[j] = e.SubTopicIds(j)
		}
		ev.TopicIDs = make([]int64, r.n(e.TopicIdsLength(), 8))
		for j := range ev.TopicIDs {
			ev.TopicIDs[j] = e.TopicIds(j)
		}
		c.Events[string(req(ee.Key(), "key"))] = ev
	}
	var p fb.Performance
	var pr fb.Price
	var sc fb.SeatCategory
	var a fb.Area
	c.Performances = make([]common.Performance, r.n(m.PerformancesLength(), 4))
	for i := range c.Performances {
		m.Performances(&p, i)
		out := &c.Performances[i]
		out.ID, out.EventID, out.Start = p.Id(), p.EventId(), p.Start()
		out.Name, out.Logo = opt(p.Name()), opt(p.Logo())
		out.VenueCode = string(req(p.VenueCode(), "venueCode"))
		out.Prices = make([]common.Price, r.n(p.PricesLength(), 24))
		for j := range out.Prices {
			p.Prices(&pr, j)
			out.Prices[j] = common.Price{Amount: pr.Amount(), AudienceSubCategoryID: pr.AudienceSubCategoryId(), SeatCategoryID: pr.SeatCategoryId()}
		}
		out.SeatCategories = make([]common.SeatCategory, r.n(p.SeatCategoriesLength(), 4))
		for j := range out.SeatCategories {
			p.SeatCategories(&sc, j)
			cat := &out.SeatCategories[j]
			cat.SeatCategoryID = sc.SeatCategoryId()
			cat.Areas = make([]common.Area, r.n(sc.AreasLength(), 4))
			for k := range cat.Areas {
				sc.Areas(&a, k)
				blocks := make([]int64, r.n(a.BlockIdsLength(), 8))
				for q := range blocks {
					blocks[q] = a.BlockIds(q)
				}
				cat.Areas[k] = common.Area{AreaID: a.AreaId(), BlockIDs: blocks}
			}
		}
	}
	var te fb.Int64ListEntry
	c.TopicSubTopics = make(map[string][]int64, r.n(m.TopicSubTopicsLength(), 4))
	for i := range r.n(m.TopicSubTopicsLength(), 4) {
		m.TopicSubTopics(&te, i)
		values := make([]int64, r.n(te.ValuesLength(), 8))
		for j := range values {
			values[j] = te.Values(j)
		}
		c.TopicSubTopics[string(req(te.Key(), "key"))] = values
	}
	c.VenueNames = make(map[string]string, r.n(m.VenueNamesLength(), 4))
	for i := range r.n(m.VenueNamesLength(), 4) {
		m.VenueNames(&se, i)
		c.VenueNames[string(req(se.Key(), "key"))] = string(req(se.Value(), "value"))
	}
	return c
}

func decode(raw []byte) (*common.Catalog, error) {
	return checked(func() *common.Catalog { return decodeAll(raw) })
}

// The visit checksum (README): a record's entries are its JSON field names, so each record adds a constant (its
// field count plus their names' UTF-8 lengths); strings add their byte length, ints their value mod 2^64, and
// the uint64 sum wraps as the definition does.
func names(fields ...string) uint64 {
	n := uint64(len(fields))
	for _, f := range fields {
		n += uint64(len(f))
	}
	return n
}

var (
	catalogN      = names("areaNames", "events", "performances", "topicSubTopics", "venueNames")
	eventN        = names("id", "name", "description", "logo", "subTopicIds", "topicIds")
	performanceN  = names("id", "eventId", "name", "logo", "start", "venueCode", "prices", "seatCategories")
	priceN        = names("amount", "audienceSubCategoryId", "seatCategoryId")
	seatCategoryN = names("seatCategoryId", "areas")
	areaN         = names("areaId", "blockIds")
)

func visitAll(raw []byte) uint64 {
	r, m := root(raw)
	s := catalogN
	var se fb.StringEntry
	strings := func(n int, at func(*fb.StringEntry, int) bool) {
		s += uint64(n)
		for i := range n {
			at(&se, i)
			s += uint64(len(req(se.Key(), "key")) + len(req(se.Value(), "value")))
		}
	}
	strings(r.n(m.AreaNamesLength(), 4), m.AreaNames)
	var ee fb.EventEntry
	var e fb.Event
	n := r.n(m.EventsLength(), 4)
	s += uint64(n)
	for i := range n {
		m.Events(&ee, i)
		if ee.Value(&e) == nil {
			panic(refusal{"required event absent"})
		}
		s += uint64(len(req(ee.Key(), "key"))) + eventN + uint64(e.Id()) + uint64(len(req(e.Name(), "name"))+len(e.Description())+len(e.Logo()))
		k := r.n(e.SubTopicIdsLength(), 8)
		s += uint64(k)
		for j := range k {
			s += uint64(e.SubTopicIds(j))
		}
		k = r.n(e.TopicIdsLength(), 8)
		s += uint64(k)
		for j := range k {
			s += uint64(e.TopicIds(j))
		}
	}
	var p fb.Performance
	var pr fb.Price
	var sc fb.SeatCategory
	var a fb.Area
	n = r.n(m.PerformancesLength(), 4)
	s += uint64(n)
	for i := range n {
		m.Performances(&p, i)
		s += performanceN + uint64(p.Id()) + uint64(p.EventId()) + uint64(p.Start())
		s += uint64(len(p.Name()) + len(p.Logo()) + len(req(p.VenueCode(), "venueCode")))
		k := r.n(p.PricesLength(), 24)
		s += uint64(k)
		for j := range k {
			p.Prices(&pr, j)
			s += priceN + uint64(pr.Amount()) + uint64(pr.AudienceSubCategoryId()) + uint64(pr.SeatCategoryId())
		}
		k = r.n(p.SeatCategoriesLength(), 4)
		s += uint64(k)
		for j := range k {
			p.SeatCategories(&sc, j)
			s += seatCategoryN + uint64(sc.SeatCategoryId())
			q := r.n(sc.AreasLength(), 4)
			s += uint64(q)
			for t := range q {
				sc.Areas(&a, t)
				blocks := r.n(a.BlockIdsLength(), 8)
				s += areaN + uint64(a.AreaId()) + uint64(blocks)
				for u := range blocks {
					s += uint64(a.BlockIds(u))
				}
			}
		}
	}
	var te fb.Int64ListEntry
	n = r.n(m.TopicSubTopicsLength(), 4)
	s += uint64(n)
	for i := range n {
		m.TopicSubTopics(&te, i)
		k := r.n(te.ValuesLength(), 8)
		s += uint64(len(req(te.Key(), "key"))) + uint64(k)
		for j := range k {
			s += uint64(te.Values(j))
		}
	}
	strings(r.n(m.VenueNamesLength(), 4), m.VenueNames)
	return s
}

func read(raw []byte) (uint64, error) {
	return checked(func() uint64 { return visitAll(raw) })
}

func main() {
	common.MainWithRead(encode, decode, read)
}
