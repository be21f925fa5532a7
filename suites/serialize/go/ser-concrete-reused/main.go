// Design: concrete code appending byte by byte to one slice reused for every op (out[:0]: its capacity kept, no allocation after the first op).
package main

import "iorace/serialize/common"

func main() {
	job := common.ParseArgs()
	var out []byte
	tally := common.NewTally()
	i := 0
	job.StartTimer()
	for n := 0; n < job.Ops; n++ {
		out = common.AppendRecord(out[:0], &job.Records[i])
		tally.Consume(n, out)
		i++
		if i == len(job.Records) {
			i = 0
		}
	}
	job.ReportSer(&tally)
}
