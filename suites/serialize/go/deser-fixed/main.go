// Design: expert: one length check for the 38-byte header, then binary.BigEndian.UintN at fixed offsets (no per-byte cursor or error), the bool checked, the name a subslice: no allocation.
package main

import (
	"encoding/binary"
	"math"

	"iorace/serialize/common"
)

// header is every fixed field and the name's length: 38 bytes.
const header = 38

// decode fills r from data's first record and returns its size. One check covers the header (the
// compiler drops the bounds checks of the fixed offsets below it), one the name.
func decode(data []byte, r *common.Record) (int, error) {
	if len(data) < header {
		return 0, common.ErrTruncated
	}
	h := data[:header]
	be := binary.BigEndian
	if h[15] > 1 {
		return 0, common.BadBoolError(h[15])
	}
	end := header + int(be.Uint16(h[36:38]))
	if end > len(data) {
		return 0, common.ErrTruncated
	}
	// field by field: a composite literal (*r = Record{...}) is built in a zeroed stack temporary and
	// copied to *r 16 bytes at a time, loads that straddle the narrow stores just made
	r.ID = be.Uint32(h[0:4])
	r.Kind = h[4]
	r.Delta = int16(be.Uint16(h[5:7]))
	r.Stamp = int64(be.Uint64(h[7:15]))
	r.Active = h[15] == 1
	r.Ratio = math.Float32frombits(be.Uint32(h[16:20]))
	r.Value = math.Float64frombits(be.Uint64(h[20:28]))
	r.Dims = [4]uint16{be.Uint16(h[28:30]), be.Uint16(h[30:32]), be.Uint16(h[32:34]), be.Uint16(h[34:36])}
	r.Name = data[header:end:end]
	return end, nil
}

func main() {
	job := common.ParseArgs()
	var checksum uint64
	var r common.Record
	pos := 0
	job.StartTimer()
	for n := 0; n < job.Ops; n++ {
		used, err := decode(job.Data[pos:], &r)
		if err != nil {
			job.FailAt(pos, err)
		}
		checksum = common.Fold(checksum, &r)
		pos += used
		if pos == len(job.Data) {
			pos = 0
		}
	}
	job.ReportDeser(checksum)
}
