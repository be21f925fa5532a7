// Design: Cerealed v0.4.1's classes: a new heap object per op used through a Source interface, one dynamic call per byte.
package main

import "iorace/serialize/common"

// decode reads data's first record into r through the Source interface and returns its size.
func decode(data []byte, r *common.Record) (int, error) {
	src := &common.SliceSource{Data: data} // escapes into the interface: a heap object per op
	err := common.Decerealise(src, r)
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
