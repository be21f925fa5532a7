// Design: what a Go programmer writes today: encoding/binary's BigEndian.AppendUintN (a field at a time, not a byte) into one reused slice.
package main

import (
	"encoding/binary"
	"math"

	"iorace/serialize/common"
)

func appendRecord(b []byte, r *common.Record) []byte {
	be := binary.BigEndian
	b = be.AppendUint32(b, r.ID)
	b = append(b, r.Kind)
	b = be.AppendUint16(b, uint16(r.Delta))
	b = be.AppendUint64(b, uint64(r.Stamp))
	if r.Active {
		b = append(b, 1)
	} else {
		b = append(b, 0)
	}
	b = be.AppendUint32(b, math.Float32bits(r.Ratio))
	b = be.AppendUint64(b, math.Float64bits(r.Value))
	for _, d := range r.Dims {
		b = be.AppendUint16(b, d)
	}
	b = be.AppendUint16(b, uint16(len(r.Name)))
	return append(b, r.Name...)
}

func main() {
	job := common.ParseArgs()
	var out []byte
	tally := common.NewTally()
	i := 0
	job.StartTimer()
	for n := 0; n < job.Ops; n++ {
		out = appendRecord(out[:0], &job.Records[i])
		tally.Consume(n, out)
		i++
		if i == len(job.Records) {
			i = 0
		}
	}
	job.ReportSer(&tally)
}
