// Design: Cerealed v0.4.1's classes: a new heap object per op used through a Source interface, one dynamic call per byte.
package main

import "iorace/serialize/common"

func main() {
	job := common.ParseArgs()
	job.TimeDeser(func(data []byte, r *common.Record) (int, error) {
		src := &common.SliceSource{Data: data} // escapes into the interface: a heap object per op
		err := common.Decerealise(src, r)
		return src.Pos, err
	})
}
