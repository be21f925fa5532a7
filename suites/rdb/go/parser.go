// The RDB parser shared by the Go programs: reads through the Source interface each program implements.
package main

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"os"
	"rdbrace/crc64clmul"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Source is how the parser gets bytes: fill buf completely or fail.
type Source interface {
	ReadFull(buf []byte) error
}

// WholeFile is a Source that holds the whole file (inplace.go): the parser then reads it in place, without
// calling ReadFull: strings and compact blobs are sub-slices of it, never copied, and the file's CRC-64 is
// computed from it a large piece at a time (caught up after a key once 64 KiB behind), not per read.
type WholeFile interface {
	Source
	Bytes() []byte
}

type rdbError struct {
	offset uint64
	msg    string
}

func fail(offset uint64, format string, a ...any) {
	panic(rdbError{offset, fmt.Sprintf(format, a...)})
}

// ---- CRC-64/Jones, reflected: PCLMULQDQ folding (package crc64clmul), slicing-by-8 tables ----

var crcTab [8][256]uint64

var crcTabP = &crcTab

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

// crcLane: the lane of crc64's three-way interleaving; shift1 and shift2 advance a CRC over crcLane and
// 2*crcLane zero bytes (a linear map, applied a byte of the CRC at a time like the slicing tables).
const crcLane = 1024

var shift1, shift2 [8][256]uint64

func init() {
	zeros := make([]byte, 2*crcLane)
	for _, sh := range []struct {
		t *[8][256]uint64
		n int
	}{{&shift1, crcLane}, {&shift2, 2 * crcLane}} {
		for j := 0; j < 8; j++ {
			var bit [8]uint64 // the map of each single bit: 8 CRCs over the zeros, not one per entry (255)
			for b := range bit {
				bit[b] = crc64Serial(uint64(1)<<(8*j+b), zeros[:sh.n])
			}
			for v := 1; v < 256; v++ {
				low := v & -v // the lowest bit: the map of the rest is known already
				sh.t[j][v] = sh.t[j][v^low] ^ bit[bits.TrailingZeros8(uint8(low))]
			}
		}
	}
}

func shiftBy(t *[8][256]uint64, c uint64) uint64 {
	return t[0][c&0xFF] ^ t[1][(c>>8)&0xFF] ^ t[2][(c>>16)&0xFF] ^ t[3][(c>>24)&0xFF] ^
		t[4][(c>>32)&0xFF] ^ t[5][(c>>40)&0xFF] ^ t[6][(c>>48)&0xFF] ^ t[7][c>>56]
}

// crcBlock: the piece crc64 hashes whole. Callers hashing a stream in pieces (catchUp, flushBlocks) cut
// them at whole blocks and leave the rest to the next piece, so that crc64's serial tail seldom runs:
// 16 bytes with carry-less multiplication (crc64clmul), else three lanes.
var crcBlock = 3 * crcLane

// clmulMin: crc64 folds with carry-less multiplication from 64 bytes (crc64clmul.Fold's minimum: one block
// for each of its four chains), where one call, a few multiplies and two slicing-by-8 steps to finish
// already beat eight slicing-by-8 steps.
const clmulMin = 64

func init() {
	if crc64clmul.Available {
		crcBlock = 16
	}
}

// crc64 of p after crc: by PCLMULQDQ folding (crc64clmul) where the CPU has it and p is long enough, else by
// tables (crc64Lanes).
func crc64(crc uint64, p []byte) uint64 {
	if crc64clmul.Available && len(p) >= clmulMin {
		n := len(p) &^ 15
		return crc64Serial(crcOf16(crc64clmul.Fold(crc, p[:n])), p[n:])
	}
	return crc64Lanes(crc, p)
}

// crcOf16: the CRC-64 from 0 of the 16 bytes lo, hi (little-endian) that crc64clmul.Fold leaves: two
// slicing-by-8 steps (with no xorout, the CRC of the folded value is the CRC so far).
func crcOf16(lo, hi uint64) uint64 {
	t := crcTabP
	c := t[7][lo&0xFF] ^ t[6][(lo>>8)&0xFF] ^ t[5][(lo>>16)&0xFF] ^ t[4][(lo>>24)&0xFF] ^
		t[3][(lo>>32)&0xFF] ^ t[2][(lo>>40)&0xFF] ^ t[1][(lo>>48)&0xFF] ^ t[0][lo>>56]
	c ^= hi
	return t[7][c&0xFF] ^ t[6][(c>>8)&0xFF] ^ t[5][(c>>16)&0xFF] ^ t[4][(c>>24)&0xFF] ^
		t[3][(c>>32)&0xFF] ^ t[2][(c>>40)&0xFF] ^ t[1][(c>>48)&0xFF] ^ t[0][c>>56]
}

// crc64Lanes: crc64 by tables, for CPUs without PCLMULQDQ and inputs under clmulMin. Blocks of three lanes
// are hashed as three independent slicing-by-8 chains in one loop (one chain waits on its table loads; three
// keep the loads busy), then joined: the CRC has no init or xorout, so crc(A B) is crc(A) advanced over
// len(B) zero bytes, xor crc(B) from 0.
func crc64Lanes(crc uint64, p []byte) uint64 {
	t := crcTabP // through a variable: a register base the loads index, not a new LEAQ of the symbol each
	for len(p) >= 3*crcLane {
		a, b, c := (*[crcLane]byte)(p), (*[crcLane]byte)(p[crcLane:]), (*[crcLane]byte)(p[2*crcLane:])
		ca, cb, cc := crc, uint64(0), uint64(0)
		for i := 0; i <= crcLane-8; i += 8 { // fixed-size lanes: no bounds checks in the loop
			ca ^= binary.LittleEndian.Uint64(a[i : i+8])
			cb ^= binary.LittleEndian.Uint64(b[i : i+8])
			cc ^= binary.LittleEndian.Uint64(c[i : i+8])
			ca = t[7][ca&0xFF] ^ t[6][(ca>>8)&0xFF] ^ t[5][(ca>>16)&0xFF] ^ t[4][(ca>>24)&0xFF] ^
				t[3][(ca>>32)&0xFF] ^ t[2][(ca>>40)&0xFF] ^ t[1][(ca>>48)&0xFF] ^ t[0][ca>>56]
			cb = t[7][cb&0xFF] ^ t[6][(cb>>8)&0xFF] ^ t[5][(cb>>16)&0xFF] ^ t[4][(cb>>24)&0xFF] ^
				t[3][(cb>>32)&0xFF] ^ t[2][(cb>>40)&0xFF] ^ t[1][(cb>>48)&0xFF] ^ t[0][cb>>56]
			cc = t[7][cc&0xFF] ^ t[6][(cc>>8)&0xFF] ^ t[5][(cc>>16)&0xFF] ^ t[4][(cc>>24)&0xFF] ^
				t[3][(cc>>32)&0xFF] ^ t[2][(cc>>40)&0xFF] ^ t[1][(cc>>48)&0xFF] ^ t[0][cc>>56]
		}
		crc = shiftBy(&shift2, ca) ^ shiftBy(&shift1, cb) ^ cc
		p = p[3*crcLane:]
	}
	return crc64Serial(crc, p)
}

// crc64Serial: slicing-by-8, one chain.
func crc64Serial(crc uint64, p []byte) uint64 {
	t := crcTabP // through a variable: a register base the loads index, not a new LEAQ of the symbol each
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

// ---- RDB type codes and opcodes: Redis's own names (src/rdb.h) ----

const (
	RDB_TYPE_STRING                  = 0
	RDB_TYPE_LIST                    = 1
	RDB_TYPE_SET                     = 2
	RDB_TYPE_ZSET                    = 3
	RDB_TYPE_HASH                    = 4
	RDB_TYPE_ZSET_2                  = 5 // binary double scores
	RDB_TYPE_MODULE_PRE_GA           = 6 // 4.0 release candidates: not skippable
	RDB_TYPE_MODULE_2                = 7 // annotated module value: skippable
	RDB_TYPE_HASH_ZIPMAP             = 9
	RDB_TYPE_LIST_ZIPLIST            = 10
	RDB_TYPE_SET_INTSET              = 11
	RDB_TYPE_ZSET_ZIPLIST            = 12
	RDB_TYPE_HASH_ZIPLIST            = 13
	RDB_TYPE_LIST_QUICKLIST          = 14
	RDB_TYPE_STREAM_LISTPACKS        = 15
	RDB_TYPE_HASH_LISTPACK           = 16
	RDB_TYPE_ZSET_LISTPACK           = 17
	RDB_TYPE_LIST_QUICKLIST_2        = 18
	RDB_TYPE_STREAM_LISTPACKS_2      = 19
	RDB_TYPE_SET_LISTPACK            = 20
	RDB_TYPE_STREAM_LISTPACKS_3      = 21
	RDB_TYPE_HASH_METADATA_PRE_GA    = 22 // field TTLs, absolute (7.4 release candidates)
	RDB_TYPE_HASH_LISTPACK_EX_PRE_GA = 23 // listpack with field TTLs (7.4 release candidates)
	RDB_TYPE_HASH_METADATA           = 24 // field TTLs relative to a min expire
	RDB_TYPE_HASH_LISTPACK_EX        = 25 // listpack with field TTLs, after a min expire

	RDB_OPCODE_SLOT_INFO       = 244
	RDB_OPCODE_FUNCTION2       = 245
	RDB_OPCODE_FUNCTION_PRE_GA = 246
	RDB_OPCODE_MODULE_AUX      = 247
	RDB_OPCODE_IDLE            = 248
	RDB_OPCODE_FREQ            = 249
	RDB_OPCODE_AUX             = 250
	RDB_OPCODE_RESIZEDB        = 251
	RDB_OPCODE_EXPIRETIME_MS   = 252
	RDB_OPCODE_EXPIRETIME      = 253
	RDB_OPCODE_SELECTDB        = 254
	RDB_OPCODE_EOF             = 255

	RDB_MODULE_OPCODE_EOF    = 0
	RDB_MODULE_OPCODE_SINT   = 1
	RDB_MODULE_OPCODE_UINT   = 2
	RDB_MODULE_OPCODE_FLOAT  = 3
	RDB_MODULE_OPCODE_DOUBLE = 4
	RDB_MODULE_OPCODE_STRING = 5

	RDB_ENC_INT8  = 0
	RDB_ENC_INT16 = 1
	RDB_ENC_INT32 = 2
	RDB_ENC_LZF   = 3

	QUICKLIST_NODE_CONTAINER_PLAIN  = 1
	QUICKLIST_NODE_CONTAINER_PACKED = 2

	EB_EXPIRE_TIME_MAX = 1<<48 - 1 // the largest field expiry Redis accepts (ms)
	maxVersion         = 12
)

// newerVersions: versions whose format is newer than the Redis source this parser follows (7.4 / 8.0's rdb.h).
var newerVersions = map[int]string{13: "Redis 8.6", 14: "Redis 8.8"}

// ---- the summary ----

var typeNames = [7]string{"string", "list", "set", "zset", "hash", "stream", "module"}

// typeBytes: typeNames in 32-byte arrays, for field's one-step copy.
var typeBytes = func() (t [7][32]byte) {
	for i, name := range typeNames {
		copy(t[i][:], name)
	}
	return
}()

const (
	tString = iota
	tList
	tSet
	tZset
	tHash
	tStream
	tModule
)

// logicalType: the logical type of a value type code, -1 for opcodes and unknown codes.
func logicalType(t byte) int {
	switch t {
	case RDB_TYPE_STRING:
		return tString
	case RDB_TYPE_LIST, RDB_TYPE_LIST_ZIPLIST, RDB_TYPE_LIST_QUICKLIST, RDB_TYPE_LIST_QUICKLIST_2:
		return tList
	case RDB_TYPE_SET, RDB_TYPE_SET_INTSET, RDB_TYPE_SET_LISTPACK:
		return tSet
	case RDB_TYPE_ZSET, RDB_TYPE_ZSET_2, RDB_TYPE_ZSET_ZIPLIST, RDB_TYPE_ZSET_LISTPACK:
		return tZset
	case RDB_TYPE_HASH, RDB_TYPE_HASH_ZIPMAP, RDB_TYPE_HASH_ZIPLIST, RDB_TYPE_HASH_LISTPACK,
		RDB_TYPE_HASH_METADATA_PRE_GA, RDB_TYPE_HASH_LISTPACK_EX_PRE_GA, RDB_TYPE_HASH_METADATA, RDB_TYPE_HASH_LISTPACK_EX:
		return tHash
	case RDB_TYPE_STREAM_LISTPACKS, RDB_TYPE_STREAM_LISTPACKS_2, RDB_TYPE_STREAM_LISTPACKS_3:
		return tStream
	case RDB_TYPE_MODULE_2:
		return tModule
	}
	return -1
}

type summary struct {
	keys, expires uint64
	dbs           map[uint64]uint64
	types         [7]uint64
	fieldExpires  uint64
	moduleAux     uint64
	digest        uint64
	num           [32]byte             // decimal texts: 32 bytes, so that field copies them in one step
	stage         [stageSize + 32]byte // the digest's fields, hashed in one call when full (flush); 32 bytes spare
	staged        int
}

const stageSize = 16 << 10

// field adds one length-prefixed field to the digest: staged, so the CRC runs over 16 KiB at a time instead
// of twice per field over a few bytes.
func (s *summary) field(b []byte) {
	if i := s.staged; len(b) <= 32 && cap(b) >= 32 && i <= stageSize-36 { // inlined: one fixed 32-byte copy
		st := (*[36]byte)(s.stage[i:])
		*(*[4]byte)(st[:4]) = [4]byte{byte(len(b))} // the length, little-endian: below 256
		// whatever the length (branches on it would mispredict); two 16-byte moves (one SSE load and store
		// each: a 32-byte array copy calls memmove, and four binary.LittleEndian words leave 11 inline-mark
		// NOPs besides their 8 moves)
		src, dst := (*[32]byte)(b[:32]), (*[32]byte)(st[4:])
		*(*[16]byte)(dst[:16]) = *(*[16]byte)(src[:16])
		*(*[16]byte)(dst[16:]) = *(*[16]byte)(src[16:])
		s.staged = i + 4 + len(b)
		return
	}
	s.fieldSlow(b)
}

// fieldSlow: field's other cases (a long field, a short one near the end of its buffer, a full stage).
func (s *summary) fieldSlow(b []byte) {
	if s.staged+4+len(b) > stageSize {
		if 4+len(b) > stageSize-3*crcLane { // a big field: all that is staged, then the field where it is
			s.flush()
			var l [4]byte
			binary.LittleEndian.PutUint32(l[:], uint32(len(b)))
			s.digest = crc64(crc64(s.digest, l[:]), b)
			return
		}
		s.flushBlocks()
	}
	st := s.stage[s.staged:]
	n := len(b)
	binary.LittleEndian.PutUint32(st, uint32(n))
	switch { // the short fields by fixed-size loads and stores, not a call to memmove
	case n >= 8 && n <= 16:
		binary.LittleEndian.PutUint64(st[4:], binary.LittleEndian.Uint64(b))
		binary.LittleEndian.PutUint64(st[n-4:], binary.LittleEndian.Uint64(b[n-8:]))
	case n >= 4 && n < 8:
		binary.LittleEndian.PutUint32(st[4:], binary.LittleEndian.Uint32(b))
		binary.LittleEndian.PutUint32(st[n:], binary.LittleEndian.Uint32(b[n-4:]))
	default:
		copy(st[4:], b)
	}
	s.staged += 4 + n
}

// flushBlocks hashes the whole blocks (crcBlock) staged and keeps the rest (less than a block, copied to the
// front): hashed later in a block, not by crc64's serial tail.
func (s *summary) flushBlocks() {
	n := s.staged - s.staged%crcBlock
	s.digest = crc64(s.digest, s.stage[:n])
	s.staged = copy(s.stage[:], s.stage[n:s.staged])
}

// flush hashes all that is staged.
func (s *summary) flush() {
	s.digest = crc64(s.digest, s.stage[:s.staged])
	s.staged = 0
}

func (s *summary) intField(v int64)   { s.field(s.num[:putInt(s.num[:], v)]) }
func (s *summary) uintField(v uint64) { s.field(s.num[:putUint(s.num[:], v)]) }

// putUint writes v in decimal at the start of b (20 bytes or more) and returns its length: the digit count
// first (from the bit length), then two digits at a time from the end out of a table. The digest's many
// small integers cost strconv.AppendUint ~95 instructions each (its own buffer, then appended), this ~20.
func putUint(b []byte, v uint64) int {
	_ = b[19]
	if v < 10 {
		b[0] = '0' + byte(v)
		return 1
	}
	n := bits.Len64(v) * 1233 >> 12 // floor(log10(2^len)): v has n or n+1 digits
	if v >= pow10u[n] {
		n++
	}
	i := n
	for v >= 100 {
		q := v / 100
		r := v - q*100
		i -= 2
		b[i], b[i+1] = digitPairs[2*r], digitPairs[2*r+1]
		v = q
	}
	if v >= 10 {
		b[0], b[1] = digitPairs[2*v], digitPairs[2*v+1]
	} else {
		b[0] = '0' + byte(v)
	}
	return n
}

// putInt: putUint with a sign (b: 21 bytes or more).
func putInt(b []byte, v int64) int {
	if v < 0 {
		b[0] = '-'
		return 1 + putUint(b[1:], -uint64(v)) // -uint64: MinInt64's magnitude too
	}
	return putUint(b, uint64(v))
}

// digitPairs: "00" to "99".
var digitPairs = func() (t [200]byte) {
	for i := 0; i < 100; i++ {
		t[2*i], t[2*i+1] = '0'+byte(i/10), '0'+byte(i%10)
	}
	return
}()

func (s *summary) scoreField(x float64) {
	bits := math.Float64bits(x)
	if math.IsNaN(x) {
		bits = 0x7ff8000000000000
	}
	var h [32]byte // 16 used: 32, so that field copies them in one step
	binary.LittleEndian.PutUint64(h[:8], hex8(uint32(bits>>32)))
	binary.LittleEndian.PutUint64(h[8:16], hex8(uint32(bits)))
	s.field(h[:16])
}

// hex8: the 8 lowercase hex digits of v, most significant first, as a little-endian word; in a few
// register operations (SWAR) instead of 8 table lookups and 16 byte stores: each nibble is spread to a byte
// of its own, the bytes reversed (text order), then '0' added to each, and 'a'-'0'-10 more where the
// nibble is 10 or more (nibble+6 carries into bit 4 of its byte exactly then; no byte overflows).
func hex8(v uint32) uint64 {
	x := uint64(v)
	x = (x | x<<16) & 0x0000FFFF0000FFFF
	x = (x | x<<8) & 0x00FF00FF00FF00FF
	x = (x | x<<4) & 0x0F0F0F0F0F0F0F0F // nibble k (from the least significant) in byte k
	x = bits.ReverseBytes64(x)
	return x + 0x3030303030303030 + (x+0x0606060606060606)>>4&0x0101010101010101*('a'-'0'-10)
}

// fieldTTL: a hash field's absolute expiry in ms (0 = none, an empty field), counted.
func (s *summary) fieldTTL(expireAt uint64) {
	if expireAt == 0 {
		s.field(nil)
		return
	}
	s.fieldExpires++
	s.uintField(expireAt)
}

func (s *summary) begin(db uint64, t int, key []byte, hasExp bool, exp int64) {
	s.uintField(db)
	s.field(typeBytes[t][:len(typeNames[t])])
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
	s.flush()
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
	return fmt.Sprintf("{\"keys\": %d, \"expires\": %d, \"dbs\": {%s}, \"types\": {%s}, \"field_expires\": %d, \"module_aux\": %d, \"digest\": \"%016x\"}",
		s.keys, s.expires, strings.Join(dbs, ", "), strings.Join(types, ", "), s.fieldExpires, s.moduleAux, s.digest)
}

// parseScore: a score written as text must be, as a whole, what C's strtod reads (Redis loads these with
// strtod/sscanf): optional sign, then a decimal float, a hex float (0x, optional p exponent), inf,
// infinity, nan or nan(chars), any case; no space, nothing after it. ParseFloat rounds correctly and
// gives +-Inf on overflow, as strtod does.
func parseScore(b []byte) (float64, bool) {
	if x, ok := decimalScore(b); ok {
		return x, true
	}
	neg, body := false, b
	if len(body) > 0 && (body[0] == '+' || body[0] == '-') {
		neg, body = body[0] == '-', body[1:]
	}
	low := strings.ToLower(string(body))
	var x float64
	switch {
	case strings.HasPrefix(low, "inf"):
		if low != "inf" && low != "infinity" {
			return 0, false
		}
		x = math.Inf(1)
	case strings.HasPrefix(low, "nan"):
		rest := low[3:]
		if rest != "" && !(len(rest) >= 2 && rest[0] == '(' && rest[len(rest)-1] == ')' &&
			strings.Trim(rest[1:len(rest)-1], "abcdefghijklmnopqrstuvwxyz0123456789_") == "") {
			return 0, false
		}
		return math.NaN(), true
	case strings.HasPrefix(low, "0x"):
		mant, exp, ok := scanFloat(low[2:], "0123456789abcdef", 'p')
		if !ok {
			return 0, false
		}
		x = parseFloat("0x" + mant + "p" + strconv.FormatInt(exp, 10))
	default:
		if _, _, ok := scanFloat(low, "0123456789", 'e'); !ok {
			return 0, false
		}
		x = parseFloat(low)
	}
	if neg {
		x = -x
	}
	return x, true
}

// pow10s: the powers of ten a float64 holds exactly.
var pow10s = [23]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
	1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// decimalScore is the fast path of parseScore for the texts Redis writes (%.17g, integers): an optional
// '-', digits with at most one '.', 1 to 19 digits, no exponent. One exact division when the digits and
// the power of ten are exact doubles (correctly rounded, as IEEE division is), else strconv.ParseFloat on the
// bytes in place (no copy). Anything else (false) takes the full grammar.
func decimalScore(b []byte) (float64, bool) {
	neg := len(b) > 0 && b[0] == '-'
	if neg {
		b = b[1:]
	}
	var m uint64
	intEnd := scanDigits(b, 0, &m)
	end := intEnd
	if intEnd < len(b) && b[intEnd] == '.' {
		end = scanDigits(b, intEnd+1, &m)
	}
	k := 0
	if end > intEnd {
		k = end - intEnd - 1
	}
	if end != len(b) || intEnd+k == 0 || intEnd+k > 19 {
		return 0, false
	}
	var x float64
	switch {
	case k == 0:
		x = float64(m) // rounds to nearest, ties to even
	case m <= 1<<53:
		x = float64(m) / pow10s[k] // k <= 19: both exact, one correctly rounded division
	default:
		x = nearestQuotient(m, pow10u[k])
	}
	if neg {
		x = -x
	}
	return x, true
}

// scanDigits: the run of digits at b[i:] added to *m (wrapping: more than 19 are refused by the caller),
// eight at a time while there are eight (the %.17g scores' long fractions); returns where the run ends.
func scanDigits(b []byte, i int, m *uint64) int {
	v := *m
	for i+8 <= len(b) {
		w := binary.LittleEndian.Uint64(b[i:])
		if w&0xF0F0F0F0F0F0F0F0|(w+0x0606060606060606)&0xF0F0F0F0F0F0F0F0>>4 != 0x3333333333333333 {
			break
		}
		w -= 0x3030303030303030
		w = w*10 + w>>8 // each even byte: two digits
		quads := (w & 0x000000FF000000FF) * (100 + 1000000<<32)
		rest := (w >> 16 & 0x000000FF000000FF) * (1 + 10000<<32)
		v = v*100000000 + (quads+rest)>>32&0xFFFFFFFF
		i += 8
	}
	for ; i < len(b); i++ {
		d := b[i] - '0'
		if d > 9 {
			break
		}
		v = v*10 + uint64(d)
	}
	*m = v
	return i
}

// pow10u: 10^0 .. 10^19, every power of ten below 2^64.
var pow10u = func() (t [20]uint64) {
	t[0] = 1
	for i := 1; i < 20; i++ {
		t[i] = t[i-1] * 10
	}
	return
}()

// nearestQuotient: the double nearest to m / d (ties to even), for 0 < d < 2^64 and m / d between 2^-64 and
// 2^64: q = m * 2^s / d in 128-bit integers, s chosen so that q has 55 or more bits; its top 53 bits are the
// mantissa, the bits below them and the remainder decide the rounding (rust/src/lib.rs's nearest_quotient).
func nearestQuotient(m, d uint64) float64 {
	if m == 0 {
		return 0
	}
	bm, bd := 64-bits.LeadingZeros64(m), 64-bits.LeadingZeros64(d)
	s := max(55+bd-bm, 0) // m * 2^s / d >= 2^54
	var hi, lo uint64
	if s >= 64 {
		hi = m << (s - 64)
	} else {
		hi, lo = m>>(64-s), m<<s
	}
	q, r := bits.Div64(hi, lo, d)            // q < 2^57: hi < d
	drop := 64 - bits.LeadingZeros64(q) - 53 // q's bits below the mantissa: 2 or more
	mant := q >> drop
	low, half := q&(1<<drop-1), uint64(1)<<(drop-1)
	if low > half || (low == half && (r != 0 || mant&1 == 1)) {
		mant++ // 2^53 at most: still exact as a double
	}
	return float64(mant) * math.Float64frombits(uint64(1023+drop-s)<<52) // exact: 2^(drop - s) times an integer
}

// scanFloat: digits [. digits] (at least one digit), then an optional exponent letter, sign and decimal
// digits, to the end. Returns the mantissa and the exponent, clamped to +-2^30.
func scanFloat(s, digits string, e byte) (string, int64, bool) {
	i, n := 0, 0
	for i < len(s) && strings.IndexByte(digits, s[i]) >= 0 {
		i, n = i+1, n+1
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && strings.IndexByte(digits, s[i]) >= 0 {
			i, n = i+1, n+1
		}
	}
	if n == 0 {
		return "", 0, false
	}
	mant := s[:i]
	if i == len(s) {
		return mant, 0, true
	}
	if s[i] != e {
		return "", 0, false
	}
	i++
	neg := i < len(s) && s[i] == '-'
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	if i == len(s) {
		return "", 0, false
	}
	var v int64
	for ; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return "", 0, false
		}
		v = min(v*10+int64(s[i]-'0'), 1<<30)
	}
	if neg {
		v = -v
	}
	return mant, v, true
}

// parseFloat of a validated number: overflow gives +-Inf, underflow 0, as strtod.
func parseFloat(s string) float64 {
	x, err := strconv.ParseFloat(s, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); !ok || ne.Err != strconv.ErrRange {
			panic("score grammar: " + s) // cannot happen: the syntax was checked
		}
	}
	return x
}

// ---- the parser ----

type parser struct {
	src            Source
	pos, size, crc uint64
	sum            summary
	b8             [24]byte
	s, key, lzf    []byte
	// In place (a WholeFile source): data is the file, crcAt how far its CRC has been computed, dec the
	// buffer of decoded (int-encoded, LZF) strings, as those cannot be borrowed from the file.
	data  []byte
	crcAt uint64
	dec   []byte
}

// catchUp computes the file's CRC-64 up to here, once 64 KiB behind (in place: the bytes are still cached).
func (p *parser) catchUp() {
	if p.pos-p.crcAt >= 64<<10 {
		end := p.pos - (p.pos-p.crcAt)%uint64(crcBlock) // whole blocks (crcBlock): the rest goes with the next
		p.crc = crc64(p.crc, p.data[p.crcAt:end])
		p.crcAt = end
	}
}

func (p *parser) left() uint64 { return p.size - p.pos }

func (p *parser) read(buf []byte) {
	n := uint64(len(buf))
	if n > p.left() {
		fail(p.pos, "need %d bytes but only %d remain (truncated file or bad length)", n, p.left())
	}
	if p.data != nil {
		p.pos += uint64(copy(buf, p.data[p.pos:]))
		return
	}
	if err := p.src.ReadFull(buf); err != nil {
		fail(p.pos, "read failed: %v", err)
	}
	p.crc = crc64(p.crc, buf)
	p.pos += n
}

func (p *parser) u8() byte {
	if p.pos < uint64(len(p.data)) { // in place (len(nil) is 0)
		b := p.data[p.pos]
		p.pos++
		return b
	}
	return p.u8Read()
}

func (p *parser) u8Read() byte {
	p.read(p.b8[:1])
	return p.b8[0]
}

func (p *parser) le(w int) uint64 {
	if p.pos+8 <= uint64(len(p.data)) { // in place, 8 bytes at hand
		v := binary.LittleEndian.Uint64(p.data[p.pos:]) & (^uint64(0) >> (64 - 8*w))
		p.pos += uint64(w)
		return v
	}
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
	if p.data != nil { // in place: borrowed (nothing appends to or writes into a string read: decode has its own buffer)
		out = p.data[p.pos : p.pos+n]
		p.pos += n
		return out
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
	if d := p.data; p.pos+2 <= uint64(len(d)) { // in place, the common string: a 6- or 14-bit length, in the file
		b, n, h := d[p.pos], uint64(0), uint64(1)
		switch b >> 6 {
		case 0:
			n = uint64(b)
		case 1:
			n, h = uint64(b&0x3F)<<8|uint64(d[p.pos+1]), 2
		default:
			h = 0
		}
		if start := p.pos + h; h != 0 && n <= uint64(len(d))-start {
			p.pos = start + n
			return d[start:p.pos]
		}
	}
	at := p.pos
	v, enc := p.lengthEnc()
	if !enc {
		return p.readInto(v, out)
	}
	if p.data != nil { // in place, out may be a piece of the file: decode into the parser's own buffer
		p.dec = p.decode(v, at, p.dec)
		return p.dec
	}
	return p.decode(v, at, out)
}

// stringField reads a string into p.s and adds it to the digest (stringInto, then field), with their common
// case in one call: in place, a 6-bit length of up to 32 bytes, room in the stage. The elements of lists,
// sets, zsets and hashes are mostly that: two calls each (neither fits the inliner's budget) cost ~25
// instructions more.
func (p *parser) stringField() {
	d, s := p.data, &p.sum
	if pos, i := p.pos, s.staged; pos+33 <= uint64(len(d)) && i <= stageSize-36 {
		if n := uint64(d[pos]); n <= 32 { // the top two bits 0: a 6-bit length
			src, st := (*[32]byte)(d[pos+1:pos+33]), (*[36]byte)(s.stage[i:])
			*(*[4]byte)(st[:4]) = [4]byte{byte(n)} // field's staging: the length, then 32 bytes whatever n
			*(*[16]byte)(st[4:20]) = *(*[16]byte)(src[:16])
			*(*[16]byte)(st[20:]) = *(*[16]byte)(src[16:])
			s.staged = i + 4 + int(n)
			p.pos = pos + 1 + n
			p.s = d[pos+1 : p.pos]
			return
		}
	}
	p.s = p.stringInto(p.s)
	p.sum.field(p.s)
}

// decode reads an encoded string (int or LZF) after its length byte into out's storage.
func (p *parser) decode(v, at uint64, out []byte) []byte {
	var num int64
	switch v {
	case RDB_ENC_INT8:
		num = sext(p.le(1), 8)
	case RDB_ENC_INT16:
		num = sext(p.le(2), 16)
	case RDB_ENC_INT32:
		num = sext(p.le(4), 32)
	case RDB_ENC_LZF:
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
	if cap(out) < 21 {
		out = make([]byte, 0, 32)
	}
	return out[:putInt(out[:21], num)]
}

func lzfDecompress(src []byte, ulen int, out []byte, at uint64) []byte {
	// grow as the data decompresses: a crafted header cannot make us reserve its claimed size up front
	if want := min(ulen, 4*len(src)); cap(out) < want {
		out = make([]byte, 0, want)
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
			if back >= ln {
				out = append(out, out[start:start+ln]...)
			} else {
				for k := 0; k < ln; k++ { // overlaps what it writes
					out = append(out, out[start+k])
				}
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
	ttls bool // every third entry is a field TTL (hash listpack with field TTLs)
	idx  uint64
	at   uint64
	what string
	blob []byte
}

func (w *walker) str(b []byte) {
	if w.ttls && w.idx%3 == 2 {
		fail(w.at, "hash listpack with field TTLs: a TTL is not an integer")
	}
	if w.zset && w.idx&1 == 1 {
		x, ok := parseScore(b)
		if !ok {
			fail(w.at, "bad zset score %s", quoted(b))
		}
		w.sum.scoreField(x)
	} else {
		w.sum.field(b)
	}
	w.idx++
}

func (w *walker) num(v int64) {
	if w.ttls && w.idx%3 == 2 {
		if v < 0 || v > EB_EXPIRE_TIME_MAX {
			fail(w.at, "hash field expiry %d out of range", v)
		}
		w.sum.fieldTTL(uint64(v))
		w.idx++
		return
	}
	if w.zset && w.idx&1 == 1 {
		w.sum.scoreField(float64(v))
	} else {
		w.sum.intField(v)
	}
	w.idx++
}

// fits: n bytes at i are within the blob. A test to inline at each call site (`if !w.fits(i, n) { w.past() }`):
// one function that also failed would not inline (fail's arguments put it over the inliner's budget), and
// its call, 2.5 M times on the seed dump, cost ~10 instructions each.
func (w *walker) fits(i, n int) bool { return n >= 0 && i+n <= len(w.blob) }

// past fails on an entry past the blob's end.
func (w *walker) past() { fail(w.at, "corrupt %s (entry past its end)", w.what) }

func leInt(b []byte, w int) int64 {
	var v uint64
	for k := 0; k < w; k++ {
		v |= uint64(b[k]) << (8 * k)
	}
	return sext(v, uint(8*w))
}

// ziplist walks a ziplist's entries; its header (zlbytes, zltail, zllen) and every prevlen are checked.
func (w *walker) ziplist(b []byte) {
	w.blob, w.what = b, "ziplist"
	if len(b) < 11 || int(binary.LittleEndian.Uint32(b)) != len(b) {
		fail(w.at, "corrupt ziplist header")
	}
	zltail, zllen := int(binary.LittleEndian.Uint32(b[4:])), int(binary.LittleEndian.Uint16(b[8:]))
	i, n := 10, 0
	last, prev, start := 10, 0, 10 // the last entry's offset, the previous entry's size
	for ; ; n++ {
		if n > 0 {
			last, prev = start, i-start
		}
		if !w.fits(i, 1) {
			w.past()
		}
		if b[i] == 0xFF {
			break
		}
		start = i
		var plen int
		if b[i] == 0xFE {
			if !w.fits(i, 5) {
				w.past()
			}
			plen = int(binary.LittleEndian.Uint32(b[i+1:]))
			i += 5
		} else {
			plen = int(b[i])
			i++
		}
		if plen != prev {
			fail(w.at, "corrupt ziplist (prevlen %d, previous entry has %d bytes)", plen, prev)
		}
		if !w.fits(i, 1) {
			w.past()
		}
		enc := b[i]
		if enc>>6 < 3 {
			var ln int
			switch {
			case enc>>6 == 0:
				ln = int(enc & 0x3F)
				i++
			case enc>>6 == 1:
				if !w.fits(i, 2) {
					w.past()
				}
				ln = int(enc&0x3F)<<8 | int(b[i+1])
				i += 2
			case enc == 0x80:
				if !w.fits(i, 5) {
					w.past()
				}
				ln = int(binary.BigEndian.Uint32(b[i+1:]))
				i += 5
			default:
				fail(w.at, "corrupt ziplist (encoding 0x%02x)", enc)
			}
			if !w.fits(i, ln) {
				w.past()
			}
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
		if !w.fits(i, wd) {
			w.past()
		}
		w.num(leInt(b[i:], wd))
		i += wd
	}
	if i != len(b)-1 {
		fail(w.at, "corrupt ziplist (bytes after its end marker)")
	}
	if zltail != last {
		fail(w.at, "corrupt ziplist (zltail %d, last entry at %d)", zltail, last)
	}
	if zllen != 0xFFFF && zllen != n {
		fail(w.at, "corrupt ziplist (zllen %d, %d entries)", zllen, n)
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

// backlenOK: the size bytes at i encode elen as a listpack back length (7 bits a byte, most significant
// first, every byte but the first with its high bit set).
func backlenOK(b []byte, i, elen, size int) bool {
	for k := 0; k < size; k++ {
		want := byte(elen>>(7*(size-1-k))) & 127
		if k > 0 {
			want |= 128
		}
		if b[i+k] != want {
			return false
		}
	}
	return true
}

// listpack walks a listpack's entries; its header (total bytes, element count) and every back length are checked.
func (w *walker) listpack(b []byte) {
	w.blob, w.what = b, "listpack"
	if len(b) < 7 || int(binary.LittleEndian.Uint32(b)) != len(b) {
		fail(w.at, "corrupt listpack header")
	}
	numele := int(binary.LittleEndian.Uint16(b[4:]))
	i, n := 6, 0
	for ; ; n++ {
		if !w.fits(i, 1) {
			w.past()
		}
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
			if !w.fits(i, 1+ln) {
				w.past()
			}
			w.str(b[i+1 : i+1+ln])
			elen = 1 + ln
		case c < 0xE0:
			if !w.fits(i, 2) {
				w.past()
			}
			w.num(sext(uint64(c&0x1F)<<8|uint64(b[i+1]), 13))
			elen = 2
		case c < 0xF0:
			if !w.fits(i, 2) {
				w.past()
			}
			ln := int(c&0x0F)<<8 | int(b[i+1])
			if !w.fits(i, 2+ln) {
				w.past()
			}
			w.str(b[i+2 : i+2+ln])
			elen = 2 + ln
		case c == 0xF0:
			if !w.fits(i, 5) {
				w.past()
			}
			ln := int(binary.LittleEndian.Uint32(b[i+1:]))
			if !w.fits(i, 5+ln) {
				w.past()
			}
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
			if !w.fits(i, 1+wd) {
				w.past()
			}
			w.num(leInt(b[i+1:], wd))
			elen = 1 + wd
		}
		bl := backlenSize(elen)
		if !w.fits(i+elen, bl) {
			w.past()
		}
		if !backlenOK(b, i+elen, elen, bl) {
			fail(w.at, "corrupt listpack (back length does not match an entry of %d bytes)", elen)
		}
		i += elen + bl
	}
	if i != len(b)-1 {
		fail(w.at, "corrupt listpack (bytes after its end marker)")
	}
	if numele != 0xFFFF && numele != n {
		fail(w.at, "corrupt listpack (header says %d entries, %d found)", numele, n)
	}
}

// zipmap walks a zipmap's keys and values; its count byte (when below 254) is checked against the walk.
func (w *walker) zipmap(b []byte) {
	w.blob, w.what = b, "zipmap"
	if !w.fits(0, 1) {
		w.past()
	}
	i, pairs := 1, 0
	for ; ; pairs++ {
		if !w.fits(i, 1) {
			w.past()
		}
		if b[i] == 0xFF {
			break
		}
		for part := 0; part < 2; part++ {
			if !w.fits(i, 1) {
				w.past()
			}
			var ln int
			switch {
			case b[i] < 254:
				ln = int(b[i])
				i++
			case b[i] == 254:
				if !w.fits(i, 5) {
					w.past()
				}
				ln = int(binary.LittleEndian.Uint32(b[i+1:]))
				i += 5
			default:
				fail(w.at, "corrupt zipmap (unexpected end marker)")
			}
			free := 0
			if part == 1 {
				if !w.fits(i, 1) {
					w.past()
				}
				free = int(b[i])
				i++
			}
			if !w.fits(i, ln+free) {
				w.past()
			}
			w.str(b[i : i+ln])
			i += ln + free
		}
	}
	if i != len(b)-1 {
		fail(w.at, "corrupt zipmap (bytes after its end marker)")
	}
	if b[0] < 254 && int(b[0]) != pairs {
		fail(w.at, "corrupt zipmap (header says %d pairs, %d found)", b[0], pairs)
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
	logical := logicalType(t)
	if logical < 0 {
		fail(at, "unknown value type %d", t)
	}
	p.sum.begin(db, logical, p.key, hasExp, exp)
	w := walker{sum: &p.sum, at: at}
	var n uint64
	switch t {
	case RDB_TYPE_STRING:
		p.stringField()
		n = 1
	case RDB_TYPE_LIST, RDB_TYPE_SET:
		what := "list"
		if t == RDB_TYPE_SET {
			what = "set"
		}
		n = p.count(what)
		for k := uint64(0); k < n; k++ {
			p.stringField()
		}
	case RDB_TYPE_ZSET, RDB_TYPE_ZSET_2:
		n = p.count("zset")
		for k := uint64(0); k < n; k++ {
			p.stringField()
			sat := p.pos
			var x float64
			if t == RDB_TYPE_ZSET_2 {
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
						fail(sat, "bad zset score %s", quoted(p.s))
					}
				}
			}
			p.sum.scoreField(x)
		}
	case RDB_TYPE_HASH:
		n = p.count("hash")
		for k := uint64(0); k < 2*n; k++ {
			p.stringField()
		}
	case RDB_TYPE_HASH_ZIPMAP, RDB_TYPE_LIST_ZIPLIST, RDB_TYPE_SET_INTSET, RDB_TYPE_ZSET_ZIPLIST,
		RDB_TYPE_HASH_ZIPLIST, RDB_TYPE_HASH_LISTPACK, RDB_TYPE_ZSET_LISTPACK, RDB_TYPE_SET_LISTPACK:
		p.s = p.stringInto(p.s)
		w.zset = t == RDB_TYPE_ZSET_ZIPLIST || t == RDB_TYPE_ZSET_LISTPACK
		switch t {
		case RDB_TYPE_HASH_ZIPMAP:
			w.zipmap(p.s)
		case RDB_TYPE_LIST_ZIPLIST, RDB_TYPE_ZSET_ZIPLIST, RDB_TYPE_HASH_ZIPLIST:
			w.ziplist(p.s)
		case RDB_TYPE_SET_INTSET:
			w.intset(p.s)
		default:
			w.listpack(p.s)
		}
		n = w.idx
		if logical == tHash || logical == tZset {
			if n%2 != 0 {
				fail(at, "%s with an odd number of entries", typeNames[logical])
			}
			n /= 2
		}
	case RDB_TYPE_LIST_QUICKLIST:
		for k, nodes := uint64(0), p.count("quicklist node"); k < nodes; k++ {
			p.s = p.stringInto(p.s)
			w.ziplist(p.s)
		}
		n = w.idx
	case RDB_TYPE_LIST_QUICKLIST_2:
		for k, nodes := uint64(0), p.count("quicklist node"); k < nodes; k++ {
			cat := p.pos
			container := p.length()
			p.s = p.stringInto(p.s)
			switch container {
			case QUICKLIST_NODE_CONTAINER_PLAIN:
				p.sum.field(p.s)
				w.idx++
			case QUICKLIST_NODE_CONTAINER_PACKED:
				w.listpack(p.s)
			default:
				fail(cat, "bad quicklist container %d", container)
			}
		}
		n = w.idx
	case RDB_TYPE_HASH_METADATA, RDB_TYPE_HASH_METADATA_PRE_GA:
		n = p.hashMetadata(t)
	case RDB_TYPE_HASH_LISTPACK_EX, RDB_TYPE_HASH_LISTPACK_EX_PRE_GA:
		n = p.hashListpackEx(t, at)
	case RDB_TYPE_MODULE_2:
		p.sum.uintField(p.length()) // the module type id (name and encoding version)
		n = p.moduleValue()
	default:
		n = p.stream(t)
	}
	p.sum.uintField(n)
}

// moduleValue skips a module's annotated value as redis-check-rdb does: [opcode][value] until EOF; returns the count.
func (p *parser) moduleValue() uint64 {
	var n uint64
	for ; ; n++ {
		oat := p.pos
		switch op := p.length(); op {
		case RDB_MODULE_OPCODE_EOF:
			return n
		case RDB_MODULE_OPCODE_SINT, RDB_MODULE_OPCODE_UINT:
			p.length()
		case RDB_MODULE_OPCODE_FLOAT:
			p.read(p.b8[:4])
		case RDB_MODULE_OPCODE_DOUBLE:
			p.read(p.b8[:8])
		case RDB_MODULE_OPCODE_STRING:
			p.s = p.stringInto(p.s)
		default:
			fail(oat, "unknown module value opcode %d", op)
		}
	}
}

// hashMetadata reads types 22 and 24: [min expire] count, then [ttl][field][value] each; the TTL enters the
// digest after the value as an absolute time in ms (empty when none).
func (p *parser) hashMetadata(t byte) uint64 {
	var minExpire uint64
	if t == RDB_TYPE_HASH_METADATA {
		mat := p.pos
		if minExpire = p.le(8); minExpire > EB_EXPIRE_TIME_MAX+1 {
			fail(mat, "hash min expire %d out of range", minExpire)
		}
	}
	n := p.count("hash")
	for k := uint64(0); k < n; k++ {
		tat := p.pos
		expireAt := p.length()
		if t == RDB_TYPE_HASH_METADATA && expireAt != 0 {
			if expireAt > EB_EXPIRE_TIME_MAX+1 {
				fail(tat, "hash field expiry %d out of range", expireAt)
			}
			expireAt = expireAt + minExpire - 1 // stored relative to the min expire, + 1
		}
		if expireAt > EB_EXPIRE_TIME_MAX {
			fail(tat, "hash field expiry %d out of range", expireAt)
		}
		p.stringField()
		p.stringField()
		p.sum.fieldTTL(expireAt)
	}
	return n
}

// hashListpackEx reads types 23 and 25: [min expire] then a listpack of triples field, value, absolute TTL (0 = none).
func (p *parser) hashListpackEx(t byte, at uint64) uint64 {
	if t == RDB_TYPE_HASH_LISTPACK_EX {
		p.read(p.b8[:8]) // min expire: a hint, unused when loading (as in Redis)
	}
	p.s = p.stringInto(p.s)
	w := walker{sum: &p.sum, at: at, ttls: true}
	w.listpack(p.s)
	if w.idx%3 != 0 {
		fail(at, "hash listpack with field TTLs: entries are not triples")
	}
	return w.idx / 3
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
	if t >= RDB_TYPE_STREAM_LISTPACKS_2 {
		for k := 0; k < 5; k++ {
			p.length()
		}
	}
	var raw [24]byte
	for g, ng := uint64(0), p.count("stream consumer group"); g < ng; g++ {
		p.s = p.stringInto(p.s)
		p.length()
		p.length()
		if t >= RDB_TYPE_STREAM_LISTPACKS_2 {
			p.length()
		}
		for k, n := uint64(0), p.count("stream PEL"); k < n; k++ {
			p.read(raw[:24])
			p.length()
		}
		for c, nc := uint64(0), p.count("stream consumer"); c < nc; c++ {
			p.s = p.stringInto(p.s)
			p.read(raw[:8])
			if t >= RDB_TYPE_STREAM_LISTPACKS_3 {
				p.read(raw[:8])
			}
			for k, n := uint64(0), p.count("consumer PEL"); k < n; k++ {
				p.read(raw[:16])
			}
		}
	}
	return length
}

// quoted: raw file bytes in a message, as every parser quotes them (C's and Java's esc): the first 32
// bytes in double quotes, printable ASCII as is, '"' and '\\' escaped, any other byte as \xNN.
func quoted(b []byte) string {
	if len(b) > 32 {
		b = b[:32]
	}
	var sb strings.Builder
	sb.WriteByte('"')
	for _, c := range b {
		switch {
		case c == '"' || c == '\\':
			sb.WriteByte('\\')
			sb.WriteByte(c)
		case c >= 0x20 && c < 0x7f:
			sb.WriteByte(c)
		default:
			fmt.Fprintf(&sb, "\\x%02x", c)
		}
	}
	sb.WriteByte('"')
	return sb.String()
}

func (p *parser) parse() {
	magic := make([]byte, 9)
	p.read(magic)
	if string(magic[:5]) != "REDIS" {
		fail(0, "bad magic %s (not an RDB file)", quoted(magic[:5]))
	}
	version, err := strconv.Atoi(string(magic[5:]))
	if err != nil || strings.ContainsAny(string(magic[5:]), "+-") {
		version = -1
	}
	if by, ok := newerVersions[version]; ok {
		fail(5, "RDB version %d (%s) is not supported: its format is newer than the Redis source this parser follows (RDB %d)",
			version, by, maxVersion)
	}
	if version < 1 || version > maxVersion {
		fail(5, "unsupported RDB version %s", quoted(magic[5:]))
	}
	var db uint64
	hasExp := false
	var exp int64
	for {
		at := p.pos
		op := p.u8()
		if op == RDB_OPCODE_EOF {
			break
		}
		switch {
		case op == RDB_OPCODE_SELECTDB:
			db = p.length()
		case op == RDB_OPCODE_EXPIRETIME: // seconds: a signed 32-bit value in Redis
			hasExp, exp = true, int64(int32(uint32(p.le(4))))*1000
		case op == RDB_OPCODE_EXPIRETIME_MS:
			hasExp, exp = true, int64(p.le(8))
		case op == RDB_OPCODE_RESIZEDB:
			p.length()
			p.length()
		case op == RDB_OPCODE_SLOT_INFO: // slot id, slot size, expires slot size: a hint, ignored
			p.length()
			p.length()
			p.length()
		case op == RDB_OPCODE_AUX:
			p.key = p.stringInto(p.key)
			p.key = p.stringInto(p.key)
		case op == RDB_OPCODE_FREQ:
			p.u8()
		case op == RDB_OPCODE_IDLE:
			p.length()
		case op == RDB_OPCODE_FUNCTION2: // the library source
			p.key = p.stringInto(p.key)
		case op == RDB_OPCODE_MODULE_AUX:
			p.length() // module id
			wat := p.pos
			if p.length() != RDB_MODULE_OPCODE_UINT {
				fail(wat, "MODULE_AUX: bad when opcode")
			}
			p.length() // when
			p.moduleValue()
			p.sum.moduleAux++
		case op == RDB_OPCODE_FUNCTION_PRE_GA:
			fail(at, "pre-release FUNCTION opcode is unsupported")
		case op == RDB_TYPE_MODULE_PRE_GA:
			fail(at, "pre-release module value type 6 cannot be skipped without its module")
		case logicalType(op) >= 0:
			p.key = p.stringInto(p.key)
			p.value(op, at, db, hasExp, exp)
			hasExp = false
			if p.data != nil {
				p.catchUp()
			}
		default:
			fail(at, "unknown opcode or value type %d", op)
		}
	}
	if p.data != nil {
		p.crc = crc64(p.crc, p.data[p.crcAt:p.pos])
		p.crcAt = p.pos
	}
	if version >= 5 {
		bodyEnd, crc := p.pos, p.crc
		stored := p.le(8)
		if stored != 0 && stored != crc {
			fail(bodyEnd, "checksum mismatch: file says %016x, computed %016x", stored, crc)
		}
	}
	// Bytes after the checksum are ignored, as Redis does (an AOF with an RDB preamble continues there).
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
	if wf, ok := src.(WholeFile); ok {
		p.data, p.dec = wf.Bytes(), make([]byte, 0, 64)
	}
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
