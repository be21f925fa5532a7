// Design: concrete code appending byte by byte to one slice reused for every op (out[:0]: its capacity kept, no allocation after the first op).
package main

import "iorace/serialize/common"

func main() {
	job := common.ParseArgs()
	var out []byte
	job.TimeSer(func(r *common.Record, n int, t *common.Tally) {
		out = common.AppendRecord(out[:0], r)
		t.Consume(n, out)
	})
}
