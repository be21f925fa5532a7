// Design: Cerealed v0.5.0's structs over a dynamic array: concrete code appending byte by byte to a new slice per op (grown by append).
package main

import "iorace/serialize/common"

func main() {
	job := common.ParseArgs()
	job.TimeSer(func(r *common.Record, n int, t *common.Tally) {
		out := common.AppendRecord(nil, r)
		t.Consume(n, out)
	})
}
