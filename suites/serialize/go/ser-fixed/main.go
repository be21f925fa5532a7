// Design: expert: one buffer reused for every op, binary.BigEndian.PutUintN of each field at its fixed offset (no append, so no capacity check per field), the name by copy; no allocation.
package main

import (
	"encoding/binary"
	"math"

	"iorace/serialize/common"
)

// header is every fixed field and the name's length: 38 bytes.
const header = 38

// encode writes r at out[0..] in Cerealed's format and returns its size (out holds 38 + 65535 bytes).
func encode(out []byte, r *common.Record) int {
	if len(r.Name) > math.MaxUint16 {
		common.Fail(1, "a name longer than 65535 bytes")
	}
	h := out[:header] // one bounds check for the fixed offsets below
	be := binary.BigEndian
	be.PutUint32(h[0:4], r.ID)
	h[4] = r.Kind
	be.PutUint16(h[5:7], uint16(r.Delta))
	be.PutUint64(h[7:15], uint64(r.Stamp))
	h[15] = 0
	if r.Active {
		h[15] = 1
	}
	be.PutUint32(h[16:20], math.Float32bits(r.Ratio))
	be.PutUint64(h[20:28], math.Float64bits(r.Value))
	be.PutUint16(h[28:30], r.Dims[0])
	be.PutUint16(h[30:32], r.Dims[1])
	be.PutUint16(h[32:34], r.Dims[2])
	be.PutUint16(h[34:36], r.Dims[3])
	be.PutUint16(h[36:38], uint16(len(r.Name)))
	return header + copy(out[header:], r.Name)
}

func main() {
	job := common.ParseArgs()
	out := make([]byte, header+math.MaxUint16)
	tally := common.NewTally()
	i := 0
	job.StartTimer()
	for n := 0; n < job.Ops; n++ {
		tally.Consume(n, out[:encode(out, &job.Records[i])])
		i++
		if i == len(job.Records) {
			i = 0
		}
	}
	job.ReportSer(&tally)
}
