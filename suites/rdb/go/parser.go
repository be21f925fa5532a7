// The RDB parser shared by the Go programs: reads through the Source interface each program implements.
package main

import (
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Source is how the parser gets bytes: fill buf completely or fail.
type Source interface {
	ReadFull(buf []byte) error
}

type rdbError struct {
	offset uint64
	msg    string
}

func fail(offset uint64, format string, a ...any) {
	panic(rdbError{offset, fmt.Sprintf(format, a...)})
}

// ---- CRC-64/Jones, reflected, slicing-by-8 ----

var crcTab [8][256]uint64

func init() {
	for i := 0; i < 256; i++ {
		c := uint64(i)
		for k := 0; k < 8; k++ {
			if c&1 != 0 {
				c = c>>1 ^ 0x95AC9329AC4BC9B5
			} else {
				c >>= 1
			}
		}
		crcTab[0][i] = c
	}
	for j := 1; j < 8; j++ {
		for i := 0; i < 256; i++ {
			p := crcTab[j-1][i]
			crcTab[j][i] = p>>8 ^ crcTab[0][p&0xFF]
		}
	}
}

func crc64(crc uint64, p []byte) uint64 {
	t := &crcTab
	for len(p) >= 8 {
		crc ^= binary.LittleEndian.Uint64(p)
		crc = t[7][crc&0xFF] ^ t[6][(crc>>8)&0xFF] ^ t[5][(crc>>16)&0xFF] ^ t[4][(crc>>24)&0xFF] ^
			t[3][(crc>>32)&0xFF] ^ t[2][(crc>>40)&0xFF] ^ t[1][(crc>>48)&0xFF] ^ t[0][crc>>56]
		p = p[8:]
	}
	for _, b := range p {
		crc = t[0][(crc^uint64(b))&0xFF] ^ crc>>8
	}
	return crc
}

// ---- the summary ----

var typeNames = [6]string{"string", "list", "set", "zset", "hash", "stream"}

const (
	tString = iota
	tList
	tSet
	tZset
	tHash
	tStream
)

type summary struct {
	keys, expires uint64
	dbs           map[uint64]uint64
	types         [6]uint64
	digest        uint64
	num           [24]byte
}

func (s *summary) field(b []byte) {
	var l [4]byte
	binary.LittleEndian.PutUint32(l[:], uint32(len(b)))
	s.digest = crc64(s.digest, l[:])
	s.digest = crc64(s.digest, b)
}

func (s *summary) intField(v int64)   { s.field(strconv.AppendInt(s.num[:0], v, 10)) }
func (s *summary) uintField(v uint64) { s.field(strconv.AppendUint(s.num[:0], v, 10)) }

func (s *summary) scoreField(x float64) {
	bits := math.Float64bits(x)
	if math.IsNaN(x) {
		bits = 0x7ff8000000000000
	}
	var h [16]byte
	for i := 0; i < 16; i++ {
		h[i] = "0123456789abcdef"[(bits>>(60-4*i))&0xF]
	}
	s.field(h[:])
}

func (s *summary) begin(db uint64, t int, key []byte, hasExp bool, exp int64) {
	s.uintField(db)
	s.field([]byte(typeNames[t]))
	s.field(key)
	if hasExp {
		s.intField(exp)
		s.expires++
	} else {
		s.field(nil)
	}
	s.keys++
	s.types[t]++
	s.dbs[db]++
}

func (s *summary) json() string {
	ids := make([]uint64, 0, len(s.dbs))
	for d := range s.dbs {
		ids = append(ids, d)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	var dbs, types []string
	for _, d := range ids {
		dbs = append(dbs, fmt.Sprintf("\"%d\": %d", d, s.dbs[d]))
	}
	for t, n := range s.types {
		types = append(types, fmt.Sprintf("\"%s\": %d", typeNames[t], n))
	}
	return fmt.Sprintf("{\"keys\": %d, \"expires\": %d, \"dbs\": {%s}, \"types\": {%s}, \"digest\": \"%016x\"}",
		s.keys, s.expires, strings.Join(dbs, ", "), strings.Join(types, ", "), s.digest)
}

// parseScore: a score written as text must be a decimal float (ParseFloat is correctly rounded).
func parseScore(b []byte) (float64, bool) {
	if len(b) == 0 || strings.ContainsAny(string(b), "_ \t\n\r\v\f") || strings.HasPrefix(strings.TrimLeft(string(b), "+-"), "0x") {
		return 0, false
	}
	x, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return x, true // overflow gives +-Inf, underflow 0, as strtod
		}
		return 0, false
	}
	return x, true
}

// ---- the parser ----

type parser struct {
	src            Source
	pos, size, crc uint64
	sum            summary
	b8             [24]byte
	s, key, lzf    []byte
}

func (p *parser) left() uint64 { return p.size - p.pos }

func (p *parser) read(buf []byte) {
	n := uint64(len(buf))
	if n > p.left() {
		fail(p.pos, "need %d bytes but only %d remain (truncated file or bad length)", n, p.left())
	}
	if err := p.src.ReadFull(buf); err != nil {
		fail(p.pos, "read failed: %v", err)
	}
	p.crc = crc64(p.crc, buf)
	p.pos += n
}

func (p *parser) u8() byte {
	p.read(p.b8[:1])
	return p.b8[0]
}

func (p *parser) le(w int) uint64 {
	p.read(p.b8[:w])
	var v uint64
	for k := 0; k < w; k++ {
		v |= uint64(p.b8[k]) << (8 * k)
	}
	return v
}

func (p *parser) be(w int) uint64 {
	p.read(p.b8[:w])
	var v uint64
	for k := 0; k < w; k++ {
		v = v<<8 | uint64(p.b8[k])
	}
	return v
}

func sext(v uint64, bits uint) int64 { return int64(v<<(64-bits)) >> (64 - bits) }

func (p *parser) lengthEnc() (uint64, bool) {
	at := p.pos
	b := p.u8()
	switch b >> 6 {
	case 0:
		return uint64(b & 0x3F), false
	case 1:
		return uint64(b&0x3F)<<8 | uint64(p.u8()), false
	case 3:
		return uint64(b & 0x3F), true
	}
	switch b {
	case 0x80:
		return p.be(4), false
	case 0x81:
		return p.be(8), false
	}
	fail(at, "bad length byte 0x%02x", b)
	return 0, false
}

func (p *parser) length() uint64 {
	at := p.pos
	v, enc := p.lengthEnc()
	if enc {
		fail(at, "encoded string where a length was expected")
	}
	return v
}

func (p *parser) count(what string) uint64 {
	at := p.pos
	n := p.length()
	if n > p.left() {
		fail(at, "%s count %d exceeds the %d bytes left", what, n, p.left())
	}
	return n
}

func (p *parser) readInto(n uint64, out []byte) []byte {
	if n > p.left() {
		fail(p.pos, "need %d bytes but only %d remain (truncated file or bad length)", n, p.left())
	}
	if uint64(cap(out)) < n {
		out = make([]byte, n)
	}
	out = out[:n]
	p.read(out)
	return out
}

// stringInto reads an RDB string (raw, int-encoded as decimal text, or LZF) reusing out's storage.
func (p *parser) stringInto(out []byte) []byte {
	at := p.pos
	v, enc := p.lengthEnc()
	if !enc {
		return p.readInto(v, out)
	}
	var num int64
	switch v {
	case 0:
		num = sext(p.le(1), 8)
	case 1:
		num = sext(p.le(2), 16)
	case 2:
		num = sext(p.le(4), 32)
	case 3:
		clen := p.length()
		ulen := p.length()
		if clen > (math.MaxUint64-16)/100 || ulen > clen*100+16 {
			fail(at, "LZF uncompressed length %d implausible for %d compressed bytes", ulen, clen)
		}
		p.lzf = p.readInto(clen, p.lzf)
		return lzfDecompress(p.lzf, int(ulen), out[:0], at)
	default:
		fail(at, "unknown string encoding %d", v)
	}
	return strconv.AppendInt(out[:0], num, 10)
}

func lzfDecompress(src []byte, ulen int, out []byte, at uint64) []byte {
	if cap(out) < ulen {
		out = make([]byte, 0, ulen)
	}
	i, n := 0, len(src)
	for i < n {
		ctrl := int(src[i])
		i++
		if ctrl < 32 {
			ln := ctrl + 1
			if i+ln > n || len(out)+ln > ulen {
				fail(at, "corrupt LZF data (literal run past the end)")
			}
			out = append(out, src[i:i+ln]...)
			i += ln
		} else {
			ln := ctrl >> 5
			if ln == 7 {
				if i >= n {
					fail(at, "corrupt LZF data (truncated)")
				}
				ln += int(src[i])
				i++
			}
			if i >= n {
				fail(at, "corrupt LZF data (truncated)")
			}
			back := (ctrl&0x1F)<<8 + int(src[i]) + 1
			i++
			ln += 2
			if back > len(out) || len(out)+ln > ulen {
				fail(at, "corrupt LZF data (back reference out of range)")
			}
			start := len(out) - back
			for k := 0; k < ln; k++ { // may overlap
				out = append(out, out[start+k])
			}
		}
	}
	if len(out) != ulen {
		fail(at, "LZF data decompressed to %d bytes, header says %d", len(out), ulen)
	}
	return out
}

// ---- compact encodings: walk a blob's entries ----

type walker struct {
	sum  *summary
	zset bool // odd entries are scores
	idx  uint64
	at   uint64
	what string
	blob []byte
}

func (w *walker) str(b []byte) {
	if w.zset && w.idx&1 == 1 {
		x, ok := parseScore(b)
		if !ok {
			if len(b) > 32 {
				b = b[:32]
			}
			fail(w.at, "bad zset score %q", b)
		}
		w.sum.scoreField(x)
	} else {
		w.sum.field(b)
	}
	w.idx++
}

func (w *walker) num(v int64) {
	if w.zset && w.idx&1 == 1 {
		w.sum.scoreField(float64(v))
	} else {
		w.sum.intField(v)
	}
	w.idx++
}

func (w *walker) need(i, n int) {
	if n < 0 || i+n > len(w.blob) {
		fail(w.at, "corrupt %s (entry past its end)", w.what)
	}
}

func leInt(b []byte, w int) int64 {
	var v uint64
	for k := 0; k < w; k++ {
		v |= uint64(b[k]) << (8 * k)
	}
	return sext(v, uint(8*w))
}

func (w *walker) ziplist(b []byte) {
	w.blob, w.what = b, "ziplist"
	if len(b) < 11 || int(binary.LittleEndian.Uint32(b)) != len(b) {
		fail(w.at, "corrupt ziplist header")
	}
	i := 10
	for {
		w.need(i, 1)
		if b[i] == 0xFF {
			break
		}
		if b[i] == 0xFE {
			i += 5
		} else {
			i++
		}
		w.need(i, 1)
		enc := b[i]
		if enc>>6 < 3 {
			var ln int
			switch {
			case enc>>6 == 0:
				ln = int(enc & 0x3F)
				i++
			case enc>>6 == 1:
				w.need(i, 2)
				ln = int(enc&0x3F)<<8 | int(b[i+1])
				i += 2
			case enc == 0x80:
				w.need(i, 5)
				ln = int(binary.BigEndian.Uint32(b[i+1:]))
				i += 5
			default:
				fail(w.at, "corrupt ziplist (encoding 0x%02x)", enc)
			}
			w.need(i, ln)
			w.str(b[i : i+ln])
			i += ln
			continue
		}
		i++
		var wd int
		switch {
		case enc == 0xC0:
			wd = 2
		case enc == 0xD0:
			wd = 4
		case enc == 0xE0:
			wd = 8
		case enc == 0xF0:
			wd = 3
		case enc == 0xFE:
			wd = 1
		case enc >= 0xF1 && enc <= 0xFD:
			w.num(int64(enc&0x0F) - 1)
			continue
		default:
			fail(w.at, "corrupt ziplist (encoding 0x%02x)", enc)
		}
		w.need(i, wd)
		w.num(leInt(b[i:], wd))
		i += wd
	}
	if i != len(b)-1 {
		fail(w.at, "corrupt ziplist (bytes after its end marker)")
	}
}

func backlenSize(n int) int {
	switch {
	case n <= 127:
		return 1
	case n < 16383:
		return 2
	case n < 2097151:
		return 3
	case n < 268435455:
		return 4
	}
	return 5
}

func (w *walker) listpack(b []byte) {
	w.blob, w.what = b, "listpack"
	if len(b) < 7 || int(binary.LittleEndian.Uint32(b)) != len(b) {
		fail(w.at, "corrupt listpack header")
	}
	i := 6
	for {
		w.need(i, 1)
		c := b[i]
		if c == 0xFF {
			break
		}
		var elen int
		switch {
		case c < 0x80:
			w.num(int64(c))
			elen = 1
		case c < 0xC0:
			ln := int(c & 0x3F)
			w.need(i, 1+ln)
			w.str(b[i+1 : i+1+ln])
			elen = 1 + ln
		case c < 0xE0:
			w.need(i, 2)
			w.num(sext(uint64(c&0x1F)<<8|uint64(b[i+1]), 13))
			elen = 2
		case c < 0xF0:
			w.need(i, 2)
			ln := int(c&0x0F)<<8 | int(b[i+1])
			w.need(i, 2+ln)
			w.str(b[i+2 : i+2+ln])
			elen = 2 + ln
		case c == 0xF0:
			w.need(i, 5)
			ln := int(binary.LittleEndian.Uint32(b[i+1:]))
			w.need(i, 5+ln)
			w.str(b[i+5 : i+5+ln])
			elen = 5 + ln
		default:
			var wd int
			switch c {
			case 0xF1:
				wd = 2
			case 0xF2:
				wd = 3
			case 0xF3:
				wd = 4
			case 0xF4:
				wd = 8
			default:
				fail(w.at, "corrupt listpack (encoding 0x%02x)", c)
			}
			w.need(i, 1+wd)
			w.num(leInt(b[i+1:], wd))
			elen = 1 + wd
		}
		i += elen + backlenSize(elen)
	}
	if i != len(b)-1 {
		fail(w.at, "corrupt listpack (bytes after its end marker)")
	}
}

func (w *walker) zipmap(b []byte) {
	w.blob, w.what = b, "zipmap"
	i := 1
	for {
		w.need(i, 1)
		if b[i] == 0xFF {
			break
		}
		for part := 0; part < 2; part++ {
			w.need(i, 1)
			var ln int
			switch {
			case b[i] < 254:
				ln = int(b[i])
				i++
			case b[i] == 254:
				w.need(i, 5)
				ln = int(binary.LittleEndian.Uint32(b[i+1:]))
				i += 5
			default:
				fail(w.at, "corrupt zipmap (unexpected end marker)")
			}
			free := 0
			if part == 1 {
				w.need(i, 1)
				free = int(b[i])
				i++
			}
			w.need(i, ln+free)
			w.str(b[i : i+ln])
			i += ln + free
		}
	}
	if i != len(b)-1 {
		fail(w.at, "corrupt zipmap (bytes after its end marker)")
	}
}

func (w *walker) intset(b []byte) {
	if len(b) < 8 {
		fail(w.at, "corrupt intset header")
	}
	enc := binary.LittleEndian.Uint32(b)
	n := binary.LittleEndian.Uint32(b[4:])
	if !(enc == 2 || enc == 4 || enc == 8) || uint64(len(b)) != 8+uint64(n)*uint64(enc) {
		fail(w.at, "corrupt intset (encoding %d, %d entries, %d bytes)", enc, n, len(b))
	}
	for k := 0; k < int(n); k++ {
		w.num(leInt(b[8+k*int(enc):], int(enc)))
	}
}

// ---- values ----

func (p *parser) value(t byte, at, db uint64, hasExp bool, exp int64) {
	var logical int
	switch t {
	case 0:
		logical = tString
	case 1, 10, 14, 18:
		logical = tList
	case 2, 11, 20:
		logical = tSet
	case 3, 5, 12, 17:
		logical = tZset
	case 4, 9, 13, 16:
		logical = tHash
	case 15, 19, 21:
		logical = tStream
	default:
		fail(at, "unknown value type %d", t)
	}
	p.sum.begin(db, logical, p.key, hasExp, exp)
	w := walker{sum: &p.sum, at: at}
	var n uint64
	switch t {
	case 0:
		p.s = p.stringInto(p.s)
		p.sum.field(p.s)
		n = 1
	case 1, 2:
		what := "list"
		if t == 2 {
			what = "set"
		}
		n = p.count(what)
		for k := uint64(0); k < n; k++ {
			p.s = p.stringInto(p.s)
			p.sum.field(p.s)
		}
	case 3, 5:
		n = p.count("zset")
		for k := uint64(0); k < n; k++ {
			p.s = p.stringInto(p.s)
			p.sum.field(p.s)
			sat := p.pos
			var x float64
			if t == 5 {
				x = math.Float64frombits(p.le(8))
			} else {
				switch ln := p.u8(); ln {
				case 253:
					x = math.NaN()
				case 254:
					x = math.Inf(1)
				case 255:
					x = math.Inf(-1)
				default:
					p.s = p.readInto(uint64(ln), p.s)
					var ok bool
					if x, ok = parseScore(p.s); !ok {
						fail(sat, "bad zset score %q", p.s)
					}
				}
			}
			p.sum.scoreField(x)
		}
	case 4:
		n = p.count("hash")
		for k := uint64(0); k < 2*n; k++ {
			p.s = p.stringInto(p.s)
			p.sum.field(p.s)
		}
	case 9, 10, 11, 12, 13, 16, 17, 20:
		p.s = p.stringInto(p.s)
		w.zset = t == 12 || t == 17
		switch t {
		case 9:
			w.zipmap(p.s)
		case 10, 12, 13:
			w.ziplist(p.s)
		case 11:
			w.intset(p.s)
		default:
			w.listpack(p.s)
		}
		n = w.idx
		if t == 9 || t == 12 || t == 13 || t == 16 || t == 17 {
			if n%2 != 0 {
				fail(at, "%s with an odd number of entries", typeNames[logical])
			}
			n /= 2
		}
	case 14:
		for k, nodes := uint64(0), p.count("quicklist node"); k < nodes; k++ {
			p.s = p.stringInto(p.s)
			w.ziplist(p.s)
		}
		n = w.idx
	case 18:
		for k, nodes := uint64(0), p.count("quicklist node"); k < nodes; k++ {
			cat := p.pos
			container := p.length()
			p.s = p.stringInto(p.s)
			switch container {
			case 1:
				p.sum.field(p.s)
				w.idx++
			case 2:
				w.listpack(p.s)
			default:
				fail(cat, "bad quicklist container %d", container)
			}
		}
		n = w.idx
	default:
		n = p.stream(t)
	}
	p.sum.uintField(n)
}

// stream consumes a stream's structure (not its entries) and returns its recorded length.
func (p *parser) stream(t byte) uint64 {
	for k, n := uint64(0), p.count("stream listpack"); k < n; k++ {
		kat := p.pos
		p.s = p.stringInto(p.s)
		if len(p.s) != 16 {
			fail(kat, "stream node key is not 16 bytes")
		}
		p.s = p.stringInto(p.s)
	}
	length := p.length()
	p.length()
	p.length()
	if t >= 19 {
		for k := 0; k < 5; k++ {
			p.length()
		}
	}
	var raw [24]byte
	for g, ng := uint64(0), p.count("stream consumer group"); g < ng; g++ {
		p.s = p.stringInto(p.s)
		p.length()
		p.length()
		if t >= 19 {
			p.length()
		}
		for k, n := uint64(0), p.count("stream PEL"); k < n; k++ {
			p.read(raw[:24])
			p.length()
		}
		for c, nc := uint64(0), p.count("stream consumer"); c < nc; c++ {
			p.s = p.stringInto(p.s)
			p.read(raw[:8])
			if t >= 21 {
				p.read(raw[:8])
			}
			for k, n := uint64(0), p.count("consumer PEL"); k < n; k++ {
				p.read(raw[:16])
			}
		}
	}
	return length
}

func (p *parser) parse() {
	magic := make([]byte, 9)
	p.read(magic)
	if string(magic[:5]) != "REDIS" {
		fail(0, "bad magic %q (not an RDB file)", magic[:5])
	}
	version, err := strconv.Atoi(string(magic[5:]))
	if err != nil || strings.ContainsAny(string(magic[5:]), "+-") || version < 1 || version > 12 {
		fail(5, "unsupported RDB version %q", magic[5:])
	}
	var db uint64
	hasExp := false
	var exp int64
	for {
		at := p.pos
		op := p.u8()
		if op == 0xFF {
			break
		}
		switch {
		case op == 0xFE:
			db = p.length()
		case op == 0xFD:
			hasExp, exp = true, int64(p.le(4))*1000
		case op == 0xFC:
			hasExp, exp = true, int64(p.le(8))
		case op == 0xFB:
			p.length()
			p.length()
		case op == 0xFA:
			p.key = p.stringInto(p.key)
			p.key = p.stringInto(p.key)
		case op == 0xF9:
			p.u8()
		case op == 0xF8:
			p.length()
		case op == 0xF5: // FUNCTION2: the library source
			p.key = p.stringInto(p.key)
		case op == 0xF7:
			fail(at, "MODULE_AUX data is unsupported (needs the module)")
		case op == 0xF6:
			fail(at, "pre-release FUNCTION opcode is unsupported")
		case op == 6 || op == 7:
			fail(at, "module value type %d is unsupported (needs the module)", op)
		case op <= 21 && op != 8:
			p.key = p.stringInto(p.key)
			p.value(op, at, db, hasExp, exp)
			hasExp = false
		default:
			fail(at, "unknown opcode or value type %d", op)
		}
	}
	if version >= 5 {
		bodyEnd, crc := p.pos, p.crc
		stored := p.le(8)
		if stored != 0 && stored != crc {
			fail(bodyEnd, "checksum mismatch: file says %016x, computed %016x", stored, crc)
		}
	}
}

// run is the whole program: `prog FILE`; open builds the strategy's Source and says the file size.
func run(open func(path string) (Source, uint64, error)) {
	if len(os.Args) != 2 {
		fmt.Fprintf(os.Stderr, "usage: %s FILE\n", os.Args[0])
		os.Exit(2)
	}
	path := os.Args[1]
	t0 := time.Now()
	src, size, err := open(path)
	if err != nil {
		fmt.Fprintf(os.Stderr, "rdb: %s: %v\n", path, err)
		os.Exit(1)
	}
	p := &parser{src: src, size: size, sum: summary{dbs: map[uint64]uint64{}}}
	func() {
		defer func() {
			if r := recover(); r != nil {
				if e, ok := r.(rdbError); ok {
					fmt.Fprintf(os.Stderr, "rdb: %s: offset %d: %s\n", path, e.offset, e.msg)
					os.Exit(1)
				}
				panic(r)
			}
		}()
		p.parse()
	}()
	ns := time.Since(t0).Nanoseconds()
	fmt.Fprintf(os.Stderr, "iorace-result {\"answer\": %s, \"inner_ns\": %d}\n", p.sum.json(), ns)
}
