// Design: Cerealed v0.5.0's structs over a dynamic array: concrete code appending byte by byte to a new slice per op (grown by append).
package main

import "iorace/serialize/common"

func main() {
	job := common.ParseArgs()
	tally := common.NewTally()
	i := 0
	job.StartTimer()
	for n := 0; n < job.Ops; n++ {
		out := common.AppendRecord(nil, &job.Records[i])
		tally.Consume(n, out)
		i++
		if i == len(job.Records) {
			i = 0
		}
	}
	job.ReportSer(&tally)
}
