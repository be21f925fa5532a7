module formats

go 1.23

require (
	github.com/fxamacker/cbor/v2 v2.9.6
	github.com/google/flatbuffers v25.12.19+incompatible
	github.com/vmihailenco/msgpack/v5 v5.4.1
	google.golang.org/protobuf v1.36.12
)

require (
	github.com/vmihailenco/tagparser/v2 v2.0.0 // indirect
	github.com/x448/float16 v0.8.4 // indirect
)
