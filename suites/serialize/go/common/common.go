// Package common is shared by every Go serialize program: the record, Cerealed's wire format
// (through an interface and on concrete types: each program picks one, that is its design),
// the checksum (Fold) and tally (Consume) of the timed loops, the timer, the allocation figure and the
// result line. Each ser and deser program writes its own timed loop (see ReportSer); the peers' round
// trip loop is here (TimeRoundtrip).
package common

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"runtime"
	"strconv"
	"time"
)

// Record is the suite's record; field order = wire order. Name is a slice of the bytes it was
// decoded from: decoding allocates nothing.
type Record struct {
	ID     uint32
	Kind   uint8
	Delta  int16
	Stamp  int64
	Active bool
	Ratio  float32
	Value  float64
	Dims   [4]uint16
	Name   []byte
}

// ---- writing through an interface: one dynamic call per byte (Cerealed v0.4.1) -------------

// Sink takes the serializer's bytes one at a time.
type Sink interface {
	PutByte(b byte)
}

func putBE(s Sink, v uint64, size int) {
	for shift := 8 * (size - 1); shift >= 0; shift -= 8 {
		s.PutByte(byte(v >> shift))
	}
}

// Cerealise writes r in Cerealed's format through the interface.
func Cerealise(s Sink, r *Record) {
	putBE(s, uint64(r.ID), 4)
	s.PutByte(r.Kind)
	putBE(s, uint64(uint16(r.Delta)), 2)
	putBE(s, uint64(r.Stamp), 8)
	s.PutByte(boolByte(r.Active))
	putBE(s, uint64(math.Float32bits(r.Ratio)), 4)
	putBE(s, math.Float64bits(r.Value), 8)
	for _, d := range r.Dims {
		putBE(s, uint64(d), 2)
	}
	putBE(s, uint64(nameLen(r)), 2)
	for _, b := range r.Name {
		s.PutByte(b)
	}
}

// ---- writing on a concrete type: append byte by byte (Cerealed v0.5.0's structs) ------------

func appendBE(out []byte, v uint64, size int) []byte {
	for shift := 8 * (size - 1); shift >= 0; shift -= 8 {
		out = append(out, byte(v>>shift))
	}
	return out
}

// AppendRecord appends r in Cerealed's format to out, one byte at a time, and returns the slice
// (a new backing array when out's capacity runs out, as append does).
func AppendRecord(out []byte, r *Record) []byte {
	out = appendBE(out, uint64(r.ID), 4)
	out = append(out, r.Kind)
	out = appendBE(out, uint64(uint16(r.Delta)), 2)
	out = appendBE(out, uint64(r.Stamp), 8)
	out = append(out, boolByte(r.Active))
	out = appendBE(out, uint64(math.Float32bits(r.Ratio)), 4)
	out = appendBE(out, math.Float64bits(r.Value), 8)
	for _, d := range r.Dims {
		out = appendBE(out, uint64(d), 2)
	}
	out = appendBE(out, uint64(nameLen(r)), 2)
	for _, b := range r.Name {
		out = append(out, b)
	}
	return out
}

func boolByte(v bool) byte {
	if v {
		return 1
	}
	return 0
}

func nameLen(r *Record) uint16 {
	if len(r.Name) > math.MaxUint16 {
		Fail(1, "a name longer than 65535 bytes")
	}
	return uint16(len(r.Name))
}

// ---- reading ---------------------------------------------------------------------------------

// ErrTruncated: the bytes end inside a record.
var ErrTruncated = errors.New("truncated")

// BadBoolError: a bool byte other than 0 or 1.
type BadBoolError byte

func (e BadBoolError) Error() string {
	return fmt.Sprintf("corrupt: bool byte %d (not 0 or 1)", byte(e))
}

// Source hands the deserializer bytes one at a time, or a slice of the next n.
type Source interface {
	TakeByte() (byte, error)
	TakeSlice(n int) ([]byte, error)
}

// SliceSource reads the caller's slice at a cursor; allocates nothing.
type SliceSource struct {
	Data []byte
	Pos  int
}

func (s *SliceSource) TakeByte() (byte, error) {
	if s.Pos >= len(s.Data) {
		return 0, ErrTruncated
	}
	b := s.Data[s.Pos]
	s.Pos++
	return b, nil
}

func (s *SliceSource) TakeSlice(n int) ([]byte, error) {
	if n > len(s.Data)-s.Pos {
		return nil, ErrTruncated
	}
	b := s.Data[s.Pos : s.Pos+n]
	s.Pos += n
	return b, nil
}

func takeBE(s Source, size int) (uint64, error) {
	var v uint64
	for i := 0; i < size; i++ {
		b, err := s.TakeByte()
		if err != nil {
			return 0, err
		}
		v = v<<8 | uint64(b)
	}
	return v, nil
}

// wireSizes are the byte sizes of the fixed fields in wire order (id .. dims, the name's length).
var wireSizes = [12]int{4, 1, 2, 8, 1, 4, 8, 2, 2, 2, 2, 2}

// Decerealise reads one record through the interface: one dynamic call per byte.
func Decerealise(s Source, r *Record) error {
	var v [12]uint64
	for i, size := range wireSizes {
		x, err := takeBE(s, size)
		if err != nil {
			return err
		}
		v[i] = x
	}
	if v[4] > 1 {
		return BadBoolError(v[4])
	}
	name, err := s.TakeSlice(int(v[11]))
	set(r, &v, name)
	return err
}

// takeBE on the concrete type: the calls are direct (and inlined).
func (s *SliceSource) takeBE(size int) (uint64, error) {
	var v uint64
	for i := 0; i < size; i++ {
		b, err := s.TakeByte()
		if err != nil {
			return 0, err
		}
		v = v<<8 | uint64(b)
	}
	return v, nil
}

// Decode reads one record on the concrete type (Cerealed v0.5.0's struct decoder).
func (s *SliceSource) Decode(r *Record) error {
	var v [12]uint64
	for i, size := range wireSizes {
		x, err := s.takeBE(size)
		if err != nil {
			return err
		}
		v[i] = x
	}
	if v[4] > 1 {
		return BadBoolError(v[4])
	}
	name, err := s.TakeSlice(int(v[11]))
	set(r, &v, name)
	return err
}

// set fills r from the fixed fields' values (wire order) and the name.
func set(r *Record, v *[12]uint64, name []byte) {
	*r = Record{ID: uint32(v[0]), Kind: uint8(v[1]), Delta: int16(uint16(v[2])), Stamp: int64(v[3]),
		Active: v[4] == 1, Ratio: math.Float32frombits(uint32(v[5])), Value: math.Float64frombits(v[6]),
		Dims: [4]uint16{uint16(v[7]), uint16(v[8]), uint16(v[9]), uint16(v[10])}, Name: name}
}

// Fold is the deser/roundtrip checksum of the spec: every field, the name's length and bytes included.
// gc does not inline it (cost 183, budget 80), so a timed loop calls it directly: a leaf function.
// The name's bytes are summed a 64-bit word at a time (sum8) where it holds eight or more: the words at
// 0, 8, ... and then its last eight bytes, less the ones already summed. Shorter, a byte at a time.
func Fold(checksum uint64, r *Record) uint64 {
	s := uint64(r.ID) + uint64(r.Kind) + uint64(int64(r.Delta)) + uint64(r.Stamp) + uint64(boolByte(r.Active)) +
		uint64(math.Float32bits(r.Ratio)) + math.Float64bits(r.Value) +
		uint64(r.Dims[0]) + uint64(r.Dims[1]) + uint64(r.Dims[2]) + uint64(r.Dims[3]) + uint64(len(r.Name))
	name := r.Name
	if n := len(name); n < 8 {
		for _, c := range name {
			s += uint64(c)
		}
	} else {
		for len(name) > 8 {
			s += sum8(binary.LittleEndian.Uint64(name))
			name = name[8:]
		}
		// 1..8 bytes left: the last word's high bytes; its low 8-len(name) bytes were summed above
		s += sum8(binary.LittleEndian.Uint64(r.Name[n-8:]) >> (uint(64-8*len(name)) & 63))
	}
	return checksum*1000003 + s
}

// sum8 is the sum of w's eight bytes: adding the odd bytes to the even ones makes four 16-bit lanes
// (each at most 510), and the multiply adds the four lanes into the top one (at most 2040: no carry out).
func sum8(w uint64) uint64 {
	const bytes = 0x00ff00ff00ff00ff
	w = w&bytes + w>>8&bytes
	return w * 0x0001000100010001 >> 48
}

// ---- the job ---------------------------------------------------------------------------------

// Fail prints one line on stderr and exits (status 2 for a usage error, 1 otherwise).
func Fail(status int, format string, args ...any) {
	fmt.Fprintf(os.Stderr, "serialize: "+format+"\n", args...)
	os.Exit(status)
}

// Job is `prog FILE OPS`: the file's bytes, its records (decoded once, untimed: this validates
// the file) and the number of operations to time.
type Job struct {
	Data    []byte
	Records []Record
	Ops     int
	timer   timer // the timed loop's start (StartTimer), in memory: not a loop's live register
}

// ParseArgs reads the job from os.Args and validates the file.
func ParseArgs() Job {
	if len(os.Args) != 3 {
		Fail(2, "usage: %s FILE OPS", os.Args[0])
	}
	ops, err := strconv.Atoi(os.Args[2])
	if err != nil || ops <= 0 {
		Fail(2, "OPS must be a positive integer, not '%s'", os.Args[2])
	}
	data, err := os.ReadFile(os.Args[1])
	if err != nil {
		Fail(1, "%v", err)
	}
	if len(data) == 0 {
		Fail(1, "empty file: no records")
	}
	job := Job{Data: data, Ops: ops}
	for pos := 0; pos < len(data); {
		src := SliceSource{Data: data[pos:]}
		var r Record
		if err := src.Decode(&r); err != nil {
			Fail(1, "record %d at byte %d: %v", len(job.Records), pos, err)
		}
		job.Records = append(job.Records, r)
		pos += src.Pos
	}
	return job
}

// Tally is what a ser loop does with each output: its length, one byte at a varying position,
// and an FNV-1a hash of every 64th output.
type Tally struct {
	bytes uint64
	xor   byte
	hash  uint64
}

// NewTally is a tally before the first output.
func NewTally() Tally {
	return Tally{hash: 0xcbf29ce484222325}
}

// Consume takes op n's output. Inlined into the timed loop.
func (t *Tally) Consume(n int, out []byte) {
	t.bytes += uint64(len(out))
	t.xor ^= out[n&31]
	if n%64 == 0 {
		for _, b := range out {
			t.hash = (t.hash ^ uint64(b)) * 0x100000001b3
		}
	}
}

// Each ser and deser program writes its own timed loop, calling its encode or decode directly: a
// loop here would have to call it through a func value (an indirect call per op that gc cannot
// inline), and a generic one through its dictionary (gc's GC-shape stenciling: an indirect call
// too). The loops are, with job.StartTimer() before and a job.Report... after:
//
//	ser (op n serializes record n mod K; tally := NewTally()):
//		for n, i := 0, 0; n < job.Ops; n++ {
//			tally.Consume(n, <record i serialized>)
//			if i++; i == len(job.Records) { i = 0 }
//		}
//	deser (walk the file record by record, back to the start after the last one):
//		for n, pos := 0, 0; n < job.Ops; n++ {
//			used, err := decode(job.Data[pos:], &r)  // on err: job.FailAt(pos, err)
//			checksum = Fold(checksum, &r)
//			if pos += used; pos == len(job.Data) { pos = 0 }
//		}

// StartTimer starts the timed loop: notes the time and the heap's running total of allocated bytes.
func (job *Job) StartTimer() {
	job.timer = startTimer()
}

// ReportSer stops the timer and reports a ser loop's tally.
func (job *Job) ReportSer(tally *Tally) {
	inner, allocated := job.timer.stop()
	job.report(fmt.Sprintf(`{"ops": %d, "bytes": %d, "xor": %d, "digest": "%016x"}`, job.Ops, tally.bytes, tally.xor,
		tally.hash), inner, allocated, "")
}

// ReportDeser stops the timer and reports a deser loop's checksum.
func (job *Job) ReportDeser(checksum uint64) {
	inner, allocated := job.timer.stop()
	job.report(fmt.Sprintf(`{"ops": %d, "checksum": %d}`, job.Ops, checksum), inner, allocated, "")
}

// FailAt exits on a deser loop's error at byte pos of the file.
func (job *Job) FailAt(pos int, err error) {
	Fail(1, "byte %d: %v", pos, err)
}

// TimeRoundtrip times Ops round trips: op n hands record n mod K to roundtrip, which encodes it with
// a library, decodes it back into back, and returns the size of the library's encoding. The peers'
// loop (encoding/gob): one indirect call per op is nothing next to a library round trip.
func (job *Job) TimeRoundtrip(roundtrip func(r *Record, back *Record) int) {
	var checksum, wire uint64
	var back Record
	i := 0
	job.StartTimer()
	for n := 0; n < job.Ops; n++ {
		wire += uint64(roundtrip(&job.Records[i], &back))
		checksum = Fold(checksum, &back)
		i++
		if i == len(job.Records) {
			i = 0
		}
	}
	inner, allocated := job.timer.stop()
	job.report(fmt.Sprintf(`{"ops": %d, "checksum": %d}`, job.Ops, checksum), inner, allocated,
		fmt.Sprintf(`, "wire_bytes_per_op": %g`, float64(wire)/float64(job.Ops)))
}

type timer struct {
	start     time.Time
	allocated uint64
}

// startTimer notes the time and the heap's running total of allocated bytes (runtime.MemStats.TotalAlloc).
func startTimer() timer {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return timer{start: time.Now(), allocated: m.TotalAlloc}
}

func (t timer) stop() (time.Duration, uint64) {
	inner := time.Since(t.start)
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return inner, m.TotalAlloc - t.allocated
}

// report prints the human line on stdout, then the machine line, last, on stderr.
func (job *Job) report(answer string, inner time.Duration, allocated uint64, extra string) {
	perOp := float64(allocated) / float64(job.Ops)
	fmt.Printf("%d ops in %.1f ms (%.1f ns/op, %.1f bytes allocated/op): %s\n", job.Ops,
		float64(inner.Nanoseconds())/1e6, float64(inner.Nanoseconds())/float64(job.Ops), perOp, answer)
	fmt.Fprintf(os.Stderr, "iorace-result {\"answer\": %s, \"inner_ns\": %d, \"extra\": {\"alloc_bytes_per_op\": %g%s}}\n",
		answer, inner.Nanoseconds(), perOp, extra)
}
