// Design: ScopeBuffer's: concrete code appending to a [32]byte array on the stack; append moves to the heap when it overflows (every record is 46-50 bytes).
package main

import "iorace/serialize/common"

func main() {
	job := common.ParseArgs()
	tally := common.NewTally()
	i := 0
	job.StartTimer()
	for n := 0; n < job.Ops; n++ {
		var stack [32]byte // does not escape: stays on the stack
		out := common.AppendRecord(stack[:0], &job.Records[i])
		tally.Consume(n, out)
		i++
		if i == len(job.Records) {
			i = 0
		}
	}
	job.ReportSer(&tally)
}
