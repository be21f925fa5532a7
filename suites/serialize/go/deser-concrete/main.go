// Design: Cerealed v0.5.0's struct decoder: concrete code (direct, inlined calls) over a cursor into the caller's slice; no allocation.
package main

import "iorace/serialize/common"

func main() {
	job := common.ParseArgs()
	job.TimeDeser(func(data []byte, r *common.Record) (int, error) {
		src := common.SliceSource{Data: data}
		err := src.Decode(r)
		return src.Pos, err
	})
}
