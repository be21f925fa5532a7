// Package common holds what the formats programs share: the catalogue's plain types, the canon stream and its
// digest (the suite's README), and the driver: the untimed set-up, the timed passes, the result line, and the
// --emit / --decode modes of the interop check.
package common

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strconv"
	"time"
)

type Event struct {
	ID          int64   `json:"id" msgpack:"id"`
	Name        string  `json:"name" msgpack:"name"`
	Description *string `json:"description" msgpack:"description"`
	Logo        *string `json:"logo" msgpack:"logo"`
	SubTopicIDs []int64 `json:"subTopicIds" msgpack:"subTopicIds"`
	TopicIDs    []int64 `json:"topicIds" msgpack:"topicIds"`
}

type Price struct {
	Amount                int64 `json:"amount" msgpack:"amount"`
	AudienceSubCategoryID int64 `json:"audienceSubCategoryId" msgpack:"audienceSubCategoryId"`
	SeatCategoryID        int64 `json:"seatCategoryId" msgpack:"seatCategoryId"`
}

type Area struct {
	AreaID   int64   `json:"areaId" msgpack:"areaId"`
	BlockIDs []int64 `json:"blockIds" msgpack:"blockIds"`
}

type SeatCategory struct {
	SeatCategoryID int64  `json:"seatCategoryId" msgpack:"seatCategoryId"`
	Areas          []Area `json:"areas" msgpack:"areas"`
}

type Performance struct {
	ID             int64          `json:"id" msgpack:"id"`
	EventID        int64          `json:"eventId" msgpack:"eventId"`
	Name           *string        `json:"name" msgpack:"name"`
	Logo           *string        `json:"logo" msgpack:"logo"`
	Start          int64          `json:"start" msgpack:"start"`
	VenueCode      string         `json:"venueCode" msgpack:"venueCode"`
	Prices         []Price        `json:"prices" msgpack:"prices"`
	SeatCategories []SeatCategory `json:"seatCategories" msgpack:"seatCategories"`
}

type Catalog struct {
	AreaNames      map[string]string  `json:"areaNames" msgpack:"areaNames"`
	Events         map[string]Event   `json:"events" msgpack:"events"`
	Performances   []Performance      `json:"performances" msgpack:"performances"`
	TopicSubTopics map[string][]int64 `json:"topicSubTopics" msgpack:"topicSubTopics"`
	VenueNames     map[string]string  `json:"venueNames" msgpack:"venueNames"`
}

type canon struct{ out []byte }

func (c *canon) i64(v int64)  { c.out = binary.LittleEndian.AppendUint64(c.out, uint64(v)) }
func (c *canon) count(n int)  { c.out = binary.LittleEndian.AppendUint32(c.out, uint32(n)) }
func (c *canon) str(s string) { c.count(len(s)); c.out = append(c.out, s...) }
func (c *canon) opt(s *string) {
	if s == nil {
		c.out = append(c.out, 0)
	} else {
		c.out = append(c.out, 1)
		c.str(*s)
	}
}
func (c *canon) ints(v []int64) {
	c.count(len(v))
	for _, x := range v {
		c.i64(x)
	}
}

// sortedKeys: Go compares strings by their bytes, the canon's order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func (c *canon) strings(m map[string]string) {
	c.count(len(m))
	for _, k := range sortedKeys(m) {
		c.str(k)
		c.str(m[k])
	}
}

// Digest is the SHA-256 of the catalogue's canon stream, in hex.
func Digest(cat *Catalog) string {
	c := &canon{}
	c.strings(cat.AreaNames)
	c.count(len(cat.Events))
	for _, k := range sortedKeys(cat.Events) {
		e := cat.Events[k]
		c.str(k)
		c.i64(e.ID)
		c.str(e.Name)
		c.opt(e.Description)
		c.opt(e.Logo)
		c.ints(e.SubTopicIDs)
		c.ints(e.TopicIDs)
	}
	c.count(len(cat.Performances))
	for i := range cat.Performances {
		p := &cat.Performances[i]
		c.i64(p.ID)
		c.i64(p.EventID)
		c.opt(p.Name)
		c.opt(p.Logo)
		c.i64(p.Start)
		c.str(p.VenueCode)
		c.count(len(p.Prices))
		for _, pr := range p.Prices {
			c.i64(pr.Amount)
			c.i64(pr.AudienceSubCategoryID)
			c.i64(pr.SeatCategoryID)
		}
		c.count(len(p.SeatCategories))
		for _, sc := range p.SeatCategories {
			c.i64(sc.SeatCategoryID)
			c.count(len(sc.Areas))
			for _, a := range sc.Areas {
				c.i64(a.AreaID)
				c.ints(a.BlockIDs)
			}
		}
	}
	c.count(len(cat.TopicSubTopics))
	for _, k := range sortedKeys(cat.TopicSubTopics) {
		c.str(k)
		c.ints(cat.TopicSubTopics[k])
	}
	c.strings(cat.VenueNames)
	sum := sha256.Sum256(c.out)
	return hex.EncodeToString(sum[:])
}

// Fail prints one line on stderr and exits with code.
func Fail(code int, format string, args ...any) {
	fmt.Fprintf(os.Stderr, "error: "+format+"\n", args...)
	os.Exit(code)
}

func load(path string) *Catalog {
	raw, err := os.ReadFile(path)
	if err != nil {
		Fail(1, "%v", err)
	}
	var c Catalog
	if err := json.Unmarshal(raw, &c); err != nil {
		Fail(1, "%s: %v", path, err)
	}
	return &c
}

// Main runs `PROG CANON encode|decode PASSES`, `PROG --emit CANON OUT` or `PROG --decode FILE`.
func Main(encode func(*Catalog) ([]byte, error), decode func([]byte) (*Catalog, error)) {
	MainWithRead(encode, decode, nil)
}

// MainWithRead is Main for a zero-copy format: read (bytes -> the visit checksum, README: no plain objects built)
// also answers `PROG CANON read PASSES` (timed, the checksum in decimal) and `PROG --read FILE`.
func MainWithRead(encode func(*Catalog) ([]byte, error), decode func([]byte) (*Catalog, error), read func([]byte) (uint64, error)) {
	args := os.Args[1:]
	if read != nil && len(args) == 2 && args[0] == "--read" {
		raw, err := os.ReadFile(args[1])
		if err != nil {
			Fail(1, "%v", err)
		}
		sum, err := read(raw)
		if err != nil {
			Fail(1, "%s: %v", args[1], err)
		}
		fmt.Println(sum)
		os.Exit(0)
	}
	if read != nil && len(args) == 3 && args[1] == "read" {
		passes, err := strconv.Atoi(args[2])
		if err != nil || passes < 1 {
			Fail(2, "PASSES must be a positive integer, not '%s'", args[2])
		}
		encoded, err := encode(load(args[0])) // untimed
		if err != nil {
			Fail(1, "%v", err)
		}
		var sum uint64
		start := time.Now()
		for p := 1; p <= passes; p++ {
			if sum, err = read(encoded); err != nil {
				Fail(1, "%v", err)
			}
		}
		inner := time.Since(start).Nanoseconds()
		fmt.Fprintf(os.Stderr, "iorace-result {\"answer\": \"%d\", \"inner_ns\": %d, \"extra\": {\"encoded_bytes\": %d}}\n", sum, inner, len(encoded))
		os.Exit(0)
	}
	if len(args) == 3 && args[0] == "--emit" {
		out, err := encode(load(args[1]))
		if err == nil {
			err = os.WriteFile(args[2], out, 0o644)
		}
		if err != nil {
			Fail(1, "%v", err)
		}
		os.Exit(0)
	}
	if len(args) == 2 && args[0] == "--decode" {
		raw, err := os.ReadFile(args[1])
		if err != nil {
			Fail(1, "%v", err)
		}
		c, err := decode(raw)
		if err != nil {
			Fail(1, "%s: %v", args[1], err)
		}
		fmt.Println(Digest(c))
		os.Exit(0)
	}
	if len(args) != 3 || (args[1] != "encode" && args[1] != "decode") {
		Fail(2, "usage: %s CANON encode|decode PASSES | --emit CANON OUT | --decode FILE", os.Args[0])
	}
	passes, err := strconv.Atoi(args[2])
	if err != nil || passes < 1 {
		Fail(2, "PASSES must be a positive integer, not '%s'", args[2])
	}
	data := load(args[0]) // untimed: the canonical file to plain objects
	encoded, err := encode(data)
	if err != nil {
		Fail(1, "%v", err)
	}
	size := len(encoded)
	var inner int64
	var answer string
	if args[1] == "encode" {
		start := time.Now()
		for p := 1; p <= passes; p++ {
			if encoded, err = encode(data); err != nil {
				Fail(1, "%v", err)
			}
			if len(encoded) != size {
				Fail(1, "pass %d wrote %d bytes, the first %d", p, len(encoded), size)
			}
		}
		inner = time.Since(start).Nanoseconds()
		c, err := decode(encoded)
		if err != nil {
			Fail(1, "%v", err)
		}
		answer = Digest(c)
	} else {
		var c *Catalog
		start := time.Now()
		for p := 1; p <= passes; p++ {
			if c, err = decode(encoded); err != nil {
				Fail(1, "%v", err)
			}
		}
		inner = time.Since(start).Nanoseconds()
		answer = Digest(c)
	}
	fmt.Fprintf(os.Stderr, "iorace-result {\"answer\": \"%s\", \"inner_ns\": %d, \"extra\": {\"encoded_bytes\": %d}}\n", answer, inner, size)
	os.Exit(0)
}
