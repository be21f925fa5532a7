// Design: Cerealed v0.4.1's classes: a new heap object per op used through a Sink interface, one dynamic call per byte, appending to a new slice.
package main

import "iorace/serialize/common"

// cerealiser appends each byte to its own slice.
type cerealiser struct{ bytes []byte }

func (c *cerealiser) PutByte(b byte) { c.bytes = append(c.bytes, b) }

func main() {
	job := common.ParseArgs()
	tally := common.NewTally()
	i := 0
	job.StartTimer()
	for n := 0; n < job.Ops; n++ {
		c := &cerealiser{} // escapes into the interface: a heap object per op
		common.Cerealise(c, &job.Records[i])
		tally.Consume(n, c.bytes)
		i++
		if i == len(job.Records) {
			i = 0
		}
	}
	job.ReportSer(&tally)
}
