// Peer: encoding/binary.Write (reflection) of the fixed-size fields as one big-endian struct, then the name, into a reused bytes.Buffer: Cerealed's exact bytes.
package main

import (
	"bytes"
	"encoding/binary"

	"iorace/serialize/common"
)

// fixed is the record's fixed-size part with the name's length, as binary.Write lays it out.
type fixed struct {
	ID      uint32
	Kind    uint8
	Delta   int16
	Stamp   int64
	Active  bool
	Ratio   float32
	Value   float64
	Dims    [4]uint16
	NameLen uint16
}

func main() {
	job := common.ParseArgs()
	var out bytes.Buffer
	tally := common.NewTally()
	i := 0
	job.StartTimer()
	for n := 0; n < job.Ops; n++ {
		r := &job.Records[i]
		out.Reset()
		head := fixed{r.ID, r.Kind, r.Delta, r.Stamp, r.Active, r.Ratio, r.Value, r.Dims, uint16(len(r.Name))}
		if err := binary.Write(&out, binary.BigEndian, &head); err != nil {
			common.Fail(1, "binary.Write: %v", err)
		}
		out.Write(r.Name)
		tally.Consume(n, out.Bytes())
		i++
		if i == len(job.Records) {
			i = 0
		}
	}
	job.ReportSer(&tally)
}
