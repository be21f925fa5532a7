// Peer: encoding/gob round trip: one Encoder and one Decoder over a shared bytes.Buffer (the type is sent once, then each record is a small message).
package main

import (
	"bytes"
	"encoding/gob"

	"iorace/serialize/common"
)

func main() {
	job := common.ParseArgs()
	var stream bytes.Buffer
	enc, dec := gob.NewEncoder(&stream), gob.NewDecoder(&stream)
	job.TimeRoundtrip(func(r *common.Record, back *common.Record) int {
		if err := enc.Encode(r); err != nil {
			common.Fail(1, "gob: %v", err)
		}
		size := stream.Len()
		*back = common.Record{} // gob leaves the fields a message omits (zero values) untouched
		if err := dec.Decode(back); err != nil {
			common.Fail(1, "gob: %v", err)
		}
		return size
	})
}
