// Design: ScopeBuffer's: concrete code appending to a [32]byte array on the stack; append moves to the heap when it overflows (every record is 46-50 bytes).
package main

import "iorace/serialize/common"

func main() {
	job := common.ParseArgs()
	job.TimeSer(func(r *common.Record, n int, t *common.Tally) {
		var stack [32]byte // does not escape: stays on the stack
		out := common.AppendRecord(stack[:0], r)
		t.Consume(n, out)
	})
}
