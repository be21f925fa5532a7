// Design: Cerealed v0.5.0's struct decoder: concrete code (direct, inlined calls) over a cursor into the caller's slice; no allocation.
package main

import "iorace/serialize/common"

// decode reads data's first record into r on the concrete type and returns its size.
func decode(data []byte, r *common.Record) (int, error) {
	src := common.SliceSource{Data: data}
	err := src.Decode(r)
	return src.Pos, err
}

func main() {
	job := common.ParseArgs()
	var checksum uint64
	var r common.Record
	pos := 0
	job.StartTimer()
	for n := 0; n < job.Ops; n++ {
		used, err := decode(job.Data[pos:], &r)
		if err != nil {
			job.FailAt(pos, err)
		}
		checksum = common.Fold(checksum, &r)
		pos += used
		if pos == len(job.Data) {
			pos = 0
		}
	}
	job.ReportDeser(checksum)
}
