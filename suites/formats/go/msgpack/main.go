// Strategy: vmihailenco/msgpack/v5 (reflection): an Encoder with SetSortMapKeys (v5.4.1 sorts string-keyed maps of scalars only: maps of records come out in Go map order) into a new bytes.Buffer per
// op, Unmarshal into new typed structs, after a walk of the bytes that refuses an array or map count larger
// than the bytes left (v5.4.1 allocates a slice of the count it reads before reading any item: a 5-byte array
// header of 2^32-1 items is a fatal out-of-memory, not an error; vmihailenco/msgpack#401, the mutant run).
package main

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"formats/common"

	"github.com/vmihailenco/msgpack/v5"
)

// checkCounts walks the MessagePack values in b, flat (each value's header says how many values follow it), and
// fails on an array or map whose count exceeds the bytes left: every item takes one byte at least, so no
// encoding that holds such a count is whole. Anything else it cannot read it leaves to the library's own error.
func checkCounts(b []byte) error {
	need := 1 // values still to read
	for i := 0; need > 0 && i < len(b); need-- {
		c := b[i]
		at := i
		i++
		size := 0 // bytes of a length field
		var count, payload int
		switch {
		case c <= 0x7f || c >= 0xe0, c == 0xc0, c == 0xc2, c == 0xc3:
		case c >= 0x80 && c <= 0x8f:
			count = 2 * int(c&0x0f)
		case c >= 0x90 && c <= 0x9f:
			count = int(c & 0x0f)
		case c >= 0xa0 && c <= 0xbf:
			payload = int(c & 0x1f)
		case c == 0xc4 || c == 0xd9:
			size = 1
		case c == 0xc5 || c == 0xda:
			size = 2
		case c == 0xc6 || c == 0xdb:
			size = 4
		case c == 0xc7, c == 0xc8, c == 0xc9: // ext 8/16/32: length, type, data
			size = 1 << (c - 0xc7)
		case c == 0xca || c == 0xce || c == 0xd2:
			payload = 4
		case c == 0xcb || c == 0xcf || c == 0xd3:
			payload = 8
		case c == 0xcc || c == 0xd0:
			payload = 1
		case c == 0xcd || c == 0xd1:
			payload = 2
		case c >= 0xd4 && c <= 0xd8: // fixext 1/2/4/8/16: type, data
			payload = 1 + 1<<(c-0xd4)
		case c == 0xdc || c == 0xde:
			size = 2
		case c == 0xdd || c == 0xdf:
			size = 4
		default:
			return nil // 0xc1: the library refuses it
		}
		if size > 0 {
			if i+size > len(b) {
				return nil
			}
			var n uint64
			switch size {
			case 1:
				n = uint64(b[i])
			case 2:
				n = uint64(binary.BigEndian.Uint16(b[i:]))
			default:
				n = uint64(binary.BigEndian.Uint32(b[i:]))
			}
			i += size
			switch {
			case c == 0xdc || c == 0xdd:
				if n > uint64(len(b)-i) {
					return fmt.Errorf("msgpack: array of %d items at offset %d, more than the %d bytes left", n, at, len(b)-i)
				}
				count = int(n)
			case c == 0xde || c == 0xdf:
				if n > uint64(len(b)-i) {
					return fmt.Errorf("msgpack: map of %d entries at offset %d, more than the %d bytes left", n, at, len(b)-i)
				}
				count = 2 * int(n)
			case c >= 0xc7 && c <= 0xc9:
				payload = 1 + int(n)
			default:
				payload = int(n)
			}
		}
		if payload > len(b)-i {
			return nil // a string or number cut short: the library's error
		}
		i += payload
		need += count
	}
	return nil
}

func main() {
	common.Main(
		func(c *common.Catalog) ([]byte, error) {
			var buf bytes.Buffer
			enc := msgpack.NewEncoder(&buf)
			enc.SetSortMapKeys(true)
			err := enc.Encode(c)
			return buf.Bytes(), err
		},
		func(b []byte) (*common.Catalog, error) {
			if err := checkCounts(b); err != nil {
				return nil, err
			}
			var c common.Catalog
			err := msgpack.Unmarshal(b, &c)
			return &c, err
		},
	)
}
