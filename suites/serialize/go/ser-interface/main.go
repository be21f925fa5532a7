// Design: Cerealed v0.4.1's classes: a new heap object per op used through a Sink interface, one dynamic call per byte, appending to a new slice.
package main

import "iorace/serialize/common"

// cerealiser appends each byte to its own slice.
type cerealiser struct{ bytes []byte }

func (c *cerealiser) PutByte(b byte) { c.bytes = append(c.bytes, b) }

func main() {
	job := common.ParseArgs()
	job.TimeSer(func(r *common.Record, n int, t *common.Tally) {
		c := &cerealiser{} // escapes into the interface: a heap object per op
		common.Cerealise(c, r)
		t.Consume(n, c.bytes)
	})
}
